import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api-client'

export const publicConfigQuery = queryOptions({
  queryKey: ['config'],
  queryFn: async () => (await unwrap(api.config.$get())).config,
  staleTime: Infinity,
})

export function usePublicConfig() {
  return useQuery(publicConfigQuery)
}
