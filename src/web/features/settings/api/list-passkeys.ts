import { queryOptions, useQuery } from '@tanstack/react-query'
import { authClient } from '@web/lib/auth-client'
import { authData } from './auth-data'

export const passkeysQuery = queryOptions({
  queryKey: ['passkeys'],
  queryFn: () => authData(authClient.passkey.listUserPasskeys(), 'Could not load your passkeys'),
})

export function usePasskeys() {
  return useQuery(passkeysQuery)
}
