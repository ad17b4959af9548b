// Placeholder being filled in; see the foundation issue.
export function LandingPage() {
  return <main className="p-8">Landing</main>
}
