// Placeholder being filled in; see the foundation issue.
export function SignupPage() {
  return <main className="p-8">Signup</main>
}
