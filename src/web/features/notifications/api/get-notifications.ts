import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@web/lib/api-client'

export const notificationsQuery = queryOptions({
  queryKey: ['notifications'],
  queryFn: async () => (await unwrap(api.notifications.$get())).items,
  // The bell is on every signed-in screen; a failure that happens meanwhile should show up.
  refetchInterval: 60_000,
})

export function useNotifications() {
  return useQuery(notificationsQuery)
}
