// Placeholder being filled in; see the foundation issue.
export function LoginPage() {
  return <main className="p-8">Login</main>
}
