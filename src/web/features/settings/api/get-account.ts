import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@web/lib/api-client'

export const accountQuery = queryOptions({
  queryKey: ['account'],
  queryFn: async () => (await unwrap(api.account.$get())).account,
})

export function useAccount() {
  return useQuery(accountQuery)
}
