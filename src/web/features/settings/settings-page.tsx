// Placeholder being filled in; see the foundation issue.
export function SettingsPage() {
  return <main className="p-8">Settings</main>
}
