import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../../../lib/api-client'

export const dashboardQuery = queryOptions({
  queryKey: ['dashboard'],
  queryFn: async () => (await unwrap(api.dashboard.$get())).dashboard,
})

export function useDashboard() {
  return useQuery(dashboardQuery)
}
