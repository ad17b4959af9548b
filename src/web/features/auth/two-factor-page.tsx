// Placeholder being filled in; see the foundation issue.
export function TwoFactorPage() {
  return <main className="p-8">Two-factor</main>
}
