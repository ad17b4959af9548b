// Placeholder being filled in; see the foundation issue.
export function DevOutboxPage() {
  return <main className="p-8">Outbox</main>
}
