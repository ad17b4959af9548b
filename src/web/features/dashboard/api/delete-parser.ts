import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@web/lib/api-client'
import { notificationsQuery } from '../../notifications/api/get-notifications'
import { PARSER_PAGES_KEY } from '../../parsers/api/parser-pages'
import { dashboardQuery } from './get-dashboard'

export function useDeleteParser() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (parserId: string) => {
      const response = await api.parsers[':id'].$delete({ param: { id: parserId } })
      if (!response.ok) await unwrap(Promise.resolve(response))
    },
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: dashboardQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: PARSER_PAGES_KEY }),
        queryClient.invalidateQueries({ queryKey: notificationsQuery.queryKey }),
      ])
    },
  })
}
