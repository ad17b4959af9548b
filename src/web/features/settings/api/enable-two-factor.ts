import { useMutation } from '@tanstack/react-query'
import { authClient } from '../../../lib/auth-client'
import { authData } from './auth-data'

/**
 * Starts TOTP setup: returns the authenticator URI and backup codes. Two-factor stays off until
 * the first code is confirmed (Better Auth's default, skipVerificationOnEnable false).
 */
export function useEnableTwoFactor() {
  return useMutation({
    mutationFn: ({ password }: { password: string }) =>
      authData(authClient.twoFactor.enable({ password }), 'Could not start two-factor setup'),
  })
}
