import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import type { ParserView, ResumeParserInput } from '@shared/contracts/parsers'
import { api, unwrap } from '@web/lib/api-client'
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

/** Resume a paused parser, processing or skipping the mail that arrived while it was paused (decision 024). */
export function useResumeParser() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ parserId, pausedMail }: { parserId: string } & ResumeParserInput) =>
      unwrap(api.parsers[':id'].resume.$post({ param: { id: parserId }, json: { pausedMail } })),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: dashboardQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: PARSER_PAGES_KEY }),
        queryClient.invalidateQueries({ queryKey: notificationsQuery.queryKey }),
      ])
    },
  })
}

/** Pause from a button, or resume with the user's choice about the paused time's mail. */
export function useToggleParser(parser: Pick<ParserView, 'id' | 'name' | 'active'>) {
  const setActive = useSetParserActive()
  const resumeParser = useResumeParser()
  const pause = () =>
    setActive.mutate(
      { parserId: parser.id, active: false },
      {
        onSuccess: () => toast.success('Parser paused', { description: `${parser.name} won't process new emails until you resume it.` }),
        onError: (error) => toast.error('Could not update parser', { description: error.message || 'Please try again.' }),
      },
    )
  const resume = (pausedMail: ResumeParserInput['pausedMail'], onDone?: () => void) =>
    resumeParser.mutate(
      { parserId: parser.id, pausedMail },
      {
        onSuccess: ({ queued }) => {
          toast.success('Parser resumed', {
            description:
              pausedMail === 'process'
                ? `${parser.name} is processing ${queued === 1 ? '1 email' : `${queued} emails`} from while it was paused, and new ones.`
                : `${parser.name} is processing new emails again. Mail from while it was paused was skipped.`,
          })
          onDone?.()
        },
        onError: (error) => toast.error('Could not resume parser', { description: error.message || 'Please try again.' }),
      },
    )
  return { pause, resume, isPending: setActive.isPending || resumeParser.isPending }
}
