import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ExtractionField } from '@shared/contracts/extraction'
import type { ParserEmailsQuery, ParserView, ReprocessInput } from '@shared/contracts/parsers'
import type { EditParserInput } from '@shared/contracts/parser-edit'
import { api, unwrap } from '@web/lib/api-client'
import { liveRefetch } from '@web/lib/live-refresh'
import { dashboardQuery } from '../../dashboard/api/get-dashboard'
import { notificationsQuery } from '../../notifications/api/get-notifications'
import { accountQuery } from '../../settings/api/get-account'

/** Every query of the parsers pages starts with this key, so one invalidation refreshes them all. */
export const PARSER_PAGES_KEY = ['parser-pages'] as const

export const parsersListQuery = queryOptions({
  queryKey: [...PARSER_PAGES_KEY, 'list'],
  queryFn: async () => (await unwrap(api.parsers.$get())).parsers,
})

export function useParsersList() {
  return useQuery({ ...parsersListQuery, ...liveRefetch<ParserView[]>((parsers) => parsers.some((p) => p.backfill !== null)) })
}

export function parserQuery(parserId: string) {
  return queryOptions({
    queryKey: [...PARSER_PAGES_KEY, 'parser', parserId],
    queryFn: async () => (await unwrap(api.parsers[':id'].$get({ param: { id: parserId } }))).parser,
    retry: false,
  })
}

export function useParser(parserId: string) {
  return useQuery({ ...parserQuery(parserId), ...liveRefetch<ParserView>((parser) => parser.backfill !== null) })
}

type EmailsQuery = { page: number; pageSize: number; q: string; status: NonNullable<ParserEmailsQuery['status']> }

export function parserEmailsQuery(parserId: string, query: EmailsQuery) {
  return queryOptions({
    queryKey: [...PARSER_PAGES_KEY, 'emails', parserId, query],
    queryFn: async () =>
      unwrap(api.parsers[':id'].emails.$get({ param: { id: parserId }, query: { page: String(query.page), pageSize: String(query.pageSize), q: query.q, status: query.status } })),
  })
}

export function useParserEmails(parserId: string, query: EmailsQuery) {
  // The old page stays on screen while the next one loads.
  return useQuery({ ...parserEmailsQuery(parserId, query), placeholderData: keepPreviousData, ...liveRefetch<unknown>() })
}

/** After a change to a parser or its emails: its pages, the dashboard, notifications and usage. */
export function useRefreshParserData() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: PARSER_PAGES_KEY }),
      queryClient.invalidateQueries({ queryKey: dashboardQuery.queryKey }),
      queryClient.invalidateQueries({ queryKey: notificationsQuery.queryKey }),
      queryClient.invalidateQueries({ queryKey: accountQuery.queryKey }),
    ])
}

export function useEditParser(parserId: string) {
  const refresh = useRefreshParserData()
  return useMutation({
    mutationFn: async (input: EditParserInput) => (await unwrap(api.parsers[':id'].$put({ param: { id: parserId }, json: input }))).parser,
    onSettled: refresh,
  })
}

export function useReprocessEmails(parserId: string) {
  const refresh = useRefreshParserData()
  return useMutation({
    mutationFn: async (input: ReprocessInput) => unwrap(api.parsers[':id'].reprocess.$post({ param: { id: parserId }, json: input })),
    onSettled: refresh,
  })
}

export function trainingEmailQuery(parserId: string, emailId: string) {
  return queryOptions({
    queryKey: [...PARSER_PAGES_KEY, 'training-email', parserId, emailId],
    queryFn: async () => unwrap(api.parsers[':id'].emails[':emailId'].training.$get({ param: { id: parserId, emailId } })),
    staleTime: Infinity,
    retry: false,
  })
}

export function useTrainingEmail(parserId: string, emailId: string) {
  return useQuery(trainingEmailQuery(parserId, emailId))
}

export function useTrainingPreview(parserId: string, input: { emailId: string; fields: ExtractionField[] }, { enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: [...PARSER_PAGES_KEY, 'training-preview', parserId, input],
    queryFn: async () => unwrap(api.parsers[':id'].train.preview.$post({ param: { id: parserId }, json: input })),
    enabled,
    retry: false,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  })
}

export function useTrainParser(parserId: string) {
  const refresh = useRefreshParserData()
  return useMutation({
    mutationFn: async (input: { emailId: string; fields: ExtractionField[] }) => unwrap(api.parsers[':id'].train.$post({ param: { id: parserId }, json: input })),
    onSettled: refresh,
  })
}
