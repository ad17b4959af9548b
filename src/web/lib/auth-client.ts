import { passkeyClient } from '@better-auth/passkey/client'
import { twoFactorClient } from 'better-auth/client/plugins'
import { createAuthClient } from 'better-auth/react'

/**
 * Better Auth in the browser. Sessions live in httpOnly cookies; `useSession` re-renders every
 * component that reads it when the user signs in or out (the spec's auth-state listener).
 */
export const authClient = createAuthClient({
  basePath: '/api/auth',
  plugins: [twoFactorClient(), passkeyClient()],
})

export const { useSession } = authClient

/** Better Auth errors carry a message; this picks it or a fallback. */
export function authErrorMessage(error: { message?: string | undefined } | null | undefined, fallback: string): string {
  return error?.message?.trim() || fallback
}

/**
 * True while the user's own sign-out runs: protected pages then wait for its navigation home
 * instead of racing it with their redirect to /login.
 */
export const signOutState = { inProgress: false }
