import { useMutation, useQueryClient } from '@tanstack/react-query'
import { authClient } from '@web/lib/auth-client'
import { authData } from './auth-data'
import { passkeysQuery } from './list-passkeys'

export function useDeletePasskey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id }: { id: string }) => authData(authClient.passkey.deletePasskey({ id }), 'Could not delete the passkey'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQuery.queryKey }),
  })
}
