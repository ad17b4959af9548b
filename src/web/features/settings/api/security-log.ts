import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@web/lib/api-client'

export const securityLogQuery = queryOptions({
  queryKey: ['security-log'],
  queryFn: async () => (await unwrap(api['security-log'].$get())).events,
})

export function useSecurityLog() {
  return useQuery(securityLogQuery)
}
