import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import type { ParserView } from '../../../../shared/contracts/parsers'
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

/** Pause or resume from a button: the dashboard's parser list and the parser's own page say the same. */
export function useToggleParser(parser: Pick<ParserView, 'id' | 'name' | 'active'>) {
  const setActive = useSetParserActive()
  const toggle = () => {
    const active = !parser.active
    setActive.mutate(
      { parserId: parser.id, active },
      {
        onSuccess: () =>
          active
            ? toast.success('Parser resumed', { description: `${parser.name} is processing matching emails again.` })
            : toast.success('Parser paused', { description: `${parser.name} won't process new emails until you resume it.` }),
        onError: (error) => toast.error('Could not update parser', { description: error.message || 'Please try again.' }),
      },
    )
  }
  return { toggle, isPending: setActive.isPending }
}
