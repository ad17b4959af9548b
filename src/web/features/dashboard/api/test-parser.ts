import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@web/lib/api-client'
import { notificationsQuery } from '../../notifications/api/get-notifications'
import { accountQuery } from '../../settings/api/get-account'
import { PARSER_PAGES_KEY } from '../../parsers/api/parser-pages'
import { dashboardQuery } from './get-dashboard'

/** Runs a parser on one Gmail message; the server writes the row and records it on the ledger. */
export function useTestParser(parserId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (emailId: string) => (await unwrap(api.parsers[':id'].test.$post({ param: { id: parserId }, json: { emailId } }))).result,
    // A test adds a ledger row: stats, recent emails, failures and this month's usage all change.
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: dashboardQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: PARSER_PAGES_KEY }),
        queryClient.invalidateQueries({ queryKey: notificationsQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: accountQuery.queryKey }),
      ])
    },
  })
}
