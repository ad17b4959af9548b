// Placeholder being filled in; see the foundation issue.
export function PrivacyPage() {
  return <main className="p-8">Privacy</main>
}
