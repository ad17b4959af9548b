import { useMutation } from '@tanstack/react-query'
import { authClient } from '@web/lib/auth-client'
import { authData } from './auth-data'

/**
 * Starts TOTP setup: returns the authenticator URI and backup codes. Two-factor stays off until
 * the first code is confirmed (Better Auth's default, skipVerificationOnEnable false).
 */
export function useEnableTwoFactor() {
  return useMutation({
    mutationFn: async ({ password }: { password?: string }) => {
      const result = await authData(authClient.twoFactor.enable({ password }), 'Could not start two-factor setup')
      if (result.method !== 'totp') throw new Error('Could not start two-factor setup')
      return { totpURI: result.totpURI, backupCodes: result.backupCodes }
    },
  })
}
