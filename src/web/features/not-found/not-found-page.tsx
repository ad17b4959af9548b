// Placeholder being filled in; see the foundation issue.
export function NotFoundPage() {
  return <main className="p-8">404</main>
}
