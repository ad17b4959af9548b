import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { CreateApiKeyInput } from '@shared/contracts/api'
import { api, unwrap } from '@web/lib/api-client'

export const apiKeysQuery = queryOptions({
  queryKey: ['api-keys'],
  queryFn: async () => (await unwrap(api['api-keys'].$get())).apiKeys,
})

export function useApiKeys(enabled: boolean) {
  return useQuery({ ...apiKeysQuery, enabled })
}

export function useCreateApiKey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: CreateApiKeyInput) => unwrap(api['api-keys'].$post({ json: input })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysQuery.queryKey }),
  })
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (id: string) => {
      const answer = await api['api-keys'][':id'].$delete({ param: { id } })
      if (!answer.ok) await unwrap(Promise.resolve(answer))
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysQuery.queryKey }),
  })
}
