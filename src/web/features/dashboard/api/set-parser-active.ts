import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../../lib/api-client'
import { notificationsQuery } from '../../notifications/api/get-notifications'
import { PARSER_PAGES_KEY } from '../../parsers/api/parser-pages'
import { dashboardQuery } from './get-dashboard'

/** Pause or resume a parser. */
export function useSetParserActive() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ parserId, active }: { parserId: string; active: boolean }) =>
      (await unwrap(api.parsers[':id'].$patch({ param: { id: parserId }, json: { active } }))).parser,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: dashboardQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: PARSER_PAGES_KEY }),
        queryClient.invalidateQueries({ queryKey: notificationsQuery.queryKey }),
      ])
    },
  })
}
