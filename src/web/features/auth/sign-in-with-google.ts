import { paths } from '@shared/paths'
import { authClient } from '../../lib/auth-client'

/** Starts Google sign-in; resolves to false when it could not start (the page stays). */
export async function signInWithGoogle(): Promise<boolean> {
  try {
    const { error } = await authClient.signIn.social({
      provider: 'google',
      callbackURL: paths.dashboard,
      errorCallbackURL: paths.login,
    })
    return !error
  } catch {
    return false
  }
}
