import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@web/lib/api-client'
import { liveRefetch } from '@web/lib/live-refresh'

export const dashboardQuery = queryOptions({
  queryKey: ['dashboard'],
  queryFn: async () => (await unwrap(api.dashboard.$get())).dashboard,
})

/** The dashboard page keeps asking while it is visible, so new emails and backfill progress show without a reload. */
const liveDashboard = liveRefetch<Awaited<ReturnType<NonNullable<typeof dashboardQuery.queryFn>>>>((data) => data.parsers.some((p) => p.backfill !== null))

export function useDashboard() {
  return useQuery({ ...dashboardQuery, ...liveDashboard })
}
