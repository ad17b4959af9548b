import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { NotificationItem } from '@shared/contracts/notifications'
import { api, unwrap } from '@web/lib/api-client'
import { notificationsQuery } from './get-notifications'

/** The list was seen up to its newest item: stored on the server, so every browser agrees. */
export function useMarkNotificationsSeen() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (through: string) => unwrap(api.notifications.seen.$post({ json: { through } })),
    onMutate: (through: string) => {
      // The badge clears at once; connection problems stay unread until fixed.
      queryClient.setQueryData(notificationsQuery.queryKey, (items: NotificationItem[] | undefined) =>
        items?.map((item) => (item.kind === 'failure' && item.at <= through ? { ...item, unread: false } : item)),
      )
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsQuery.queryKey }),
  })
}
