// Placeholder being filled in; see the foundation issue.
export function TermsPage() {
  return <main className="p-8">Terms</main>
}
