import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@web/lib/api-client'

/** One ledger row in detail ('View' on the dashboard, a failure in the notifications). */
export function parsedEmailQuery(id: string) {
  return queryOptions({
    queryKey: ['parsed-emails', id],
    queryFn: async () => (await unwrap(api['parsed-emails'][':id'].$get({ param: { id } }))).email,
  })
}

export function useParsedEmail(id: string) {
  return useQuery(parsedEmailQuery(id))
}
