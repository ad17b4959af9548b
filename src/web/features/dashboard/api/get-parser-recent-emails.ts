import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@web/lib/api-client'

/** Recent emails matching a parser's filters: the Test Parser dialog's picker. */
export function parserRecentEmailsQuery(parserId: string) {
  return queryOptions({
    queryKey: ['parsers', parserId, 'recent-emails'],
    queryFn: async () => (await unwrap(api.parsers[':id']['recent-emails'].$get({ param: { id: parserId } }))).emails,
  })
}

export function useParserRecentEmails(parserId: string) {
  return useQuery(parserRecentEmailsQuery(parserId))
}
