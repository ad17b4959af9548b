// Placeholder being filled in; see the foundation issue.
export function ForgotPasswordPage() {
  return <main className="p-8">Forgot password</main>
}
