import { useMutation } from '@tanstack/react-query'
import { authClient } from '@web/lib/auth-client'
import { authData } from './auth-data'

/** Replaces the backup codes: the old ones stop working. */
export function useGenerateBackupCodes() {
  return useMutation({
    mutationFn: ({ password }: { password?: string }) =>
      authData(authClient.twoFactor.generateBackupCodes({ password }), 'Could not create new backup codes'),
  })
}
