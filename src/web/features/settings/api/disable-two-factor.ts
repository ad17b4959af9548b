import { useMutation, useQueryClient } from '@tanstack/react-query'
import { authClient, useSession } from '@web/lib/auth-client'
import { authData } from './auth-data'
import { accountQuery } from './get-account'

export function useDisableTwoFactor() {
  const queryClient = useQueryClient()
  const { refetch: refetchSession } = useSession()
  return useMutation({
    mutationFn: ({ password }: { password?: string }) =>
      authData(authClient.twoFactor.disable({ password }), 'Could not turn off two-factor authentication'),
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: accountQuery.queryKey }), refetchSession()])
    },
  })
}
