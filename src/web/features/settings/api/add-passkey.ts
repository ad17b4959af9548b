import { useMutation, useQueryClient } from '@tanstack/react-query'
import { authClient } from '@web/lib/auth-client'
import { authData } from './auth-data'
import { passkeysQuery } from './list-passkeys'

/** Registers a passkey: the browser asks the user's device, then the server stores the key. */
export function useAddPasskey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ name }: { name: string }) => authData(authClient.passkey.addPasskey({ name }), 'Could not add the passkey'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQuery.queryKey }),
  })
}
