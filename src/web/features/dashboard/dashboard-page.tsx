// Placeholder being filled in; see the foundation issue.
export function DashboardPage() {
  return <main className="p-8">Dashboard</main>
}
