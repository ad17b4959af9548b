import { useMutation, useQueryClient } from '@tanstack/react-query'
import { authClient, useSession } from '@web/lib/auth-client'
import { authData } from './auth-data'
import { accountQuery } from './get-account'

/** Confirms TOTP setup with a first code; this is what turns two-factor on. */
export function useConfirmTwoFactor() {
  const queryClient = useQueryClient()
  const { refetch: refetchSession } = useSession()
  return useMutation({
    mutationFn: ({ code }: { code: string }) => authData(authClient.twoFactor.verifyTotp({ code }), 'Invalid code'),
    onSuccess: async () => {
      // Better Auth swaps the session for one that records 2FA; reload both views of the user.
      await Promise.all([queryClient.invalidateQueries({ queryKey: accountQuery.queryKey }), refetchSession()])
    },
  })
}
