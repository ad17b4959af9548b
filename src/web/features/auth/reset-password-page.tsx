// Placeholder being filled in; see the foundation issue.
export function ResetPasswordPage() {
  return <main className="p-8">Reset password</main>
}
