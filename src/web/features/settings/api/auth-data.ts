type AuthResult<T> = { data: T | null; error: { message?: string | undefined; code?: string | undefined } | null }

/** An error from a Better Auth call, carrying the server's message and code. */
export class AuthCallError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message)
    this.name = 'AuthCallError'
  }
}

/** Turns Better Auth's `{ data, error }` answer into data or a thrown error, for TanStack Query. */
export async function authData<T>(call: Promise<AuthResult<T>>, fallbackMessage: string): Promise<NonNullable<T>> {
  const { data, error } = await call
  if (error) throw new AuthCallError(error.message?.trim() || fallbackMessage, error.code)
  if (data == null) throw new AuthCallError(fallbackMessage, undefined)
  return data
}

/** The message to show for a failed settings action. */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  return error instanceof Error && error.message ? error.message : fallback
}
