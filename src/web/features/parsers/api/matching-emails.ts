import { queryOptions, useQuery } from '@tanstack/react-query'
import type { EmailFilters } from '@shared/contracts/gmail'
import { api, unwrap } from '@web/lib/api-client'

/** Matching emails for the training step, newest first (at most 20). */
export function matchingEmailsQuery(filters: EmailFilters, { showImages = false } = {}) {
  return queryOptions({
    queryKey: ['gmail', 'matching-emails', filters, { showImages }],
    queryFn: async () => (await unwrap(api.gmail['matching-emails'].$post({ json: { ...filters, showImages } }))).emails,
    // Spec §4: entering the training step reloads the emails; a window refocus must not swap the
    // email the user is reading for one that just arrived.
    staleTime: 0,
    refetchOnWindowFocus: false,
  })
}

export function useMatchingEmails(filters: EmailFilters, { showImages = false, enabled = true } = {}) {
  return useQuery({
    ...matchingEmailsQuery(filters, { showImages }),
    enabled,
    // Turning images on refetches the same emails: keep showing them meanwhile.
    placeholderData: (previous, previousQuery) =>
      previousQuery && JSON.stringify(previousQuery.queryKey[2]) === JSON.stringify(filters) ? previous : undefined,
  })
}
