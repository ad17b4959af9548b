import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { CreateWebhookInput, UpdateWebhookInput } from '@shared/contracts/webhooks'
import { api, unwrap } from '@web/lib/api-client'
import { notificationsQuery } from '../../notifications/api/get-notifications'

const WEBHOOKS_KEY = ['webhooks'] as const

export const webhooksQuery = queryOptions({
  queryKey: [...WEBHOOKS_KEY, 'list'],
  queryFn: async () => (await unwrap(api.webhooks.$get())).webhooks,
})

export function useWebhooks(enabled: boolean) {
  return useQuery({ ...webhooksQuery, enabled })
}

export function webhookDeliveriesQuery(id: string) {
  return queryOptions({
    queryKey: [...WEBHOOKS_KEY, 'deliveries', id],
    queryFn: async () => unwrap(api.webhooks[':id'].deliveries.$get({ param: { id }, query: {} })),
    // Retries happen in the background: the log keeps itself current while it is open.
    refetchInterval: 10_000,
  })
}

export function useWebhookDeliveries(id: string) {
  return useQuery(webhookDeliveriesQuery(id))
}

export function useCreateWebhook() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: CreateWebhookInput) => unwrap(api.webhooks.$post({ json: input })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksQuery.queryKey }),
  })
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateWebhookInput }) => unwrap(api.webhooks[':id'].$patch({ param: { id }, json: input })),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: webhooksQuery.queryKey })
      await queryClient.invalidateQueries({ queryKey: notificationsQuery.queryKey })
    },
  })
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (id: string) => {
      const response = await api.webhooks[':id'].$delete({ param: { id } })
      if (!response.ok) await unwrap(Promise.resolve(response))
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  })
}

export function useRevealWebhookSecret() {
  return useMutation({ mutationFn: async (id: string) => (await unwrap(api.webhooks[':id'].secret.$get({ param: { id } }))).secret })
}

export function useSendTestEvent() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (id: string) => (await unwrap(api.webhooks[':id'].test.$post({ param: { id } }))).delivery,
    onSettled: (_data, _error, id) => queryClient.invalidateQueries({ queryKey: webhookDeliveriesQuery(id).queryKey }),
  })
}

export function useRedeliver() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ id, deliveryId }: { id: string; deliveryId: string }) =>
      (await unwrap(api.webhooks[':id'].deliveries[':deliveryId'].redeliver.$post({ param: { id, deliveryId } }))).delivery,
    onSettled: (_data, _error, { id }) => queryClient.invalidateQueries({ queryKey: webhookDeliveriesQuery(id).queryKey }),
  })
}
