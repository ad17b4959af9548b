import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import type { z } from 'zod'
import type { previewInputSchema } from '@shared/contracts/parsers'
import { api, unwrap } from '@web/lib/api-client'

export type PreviewInput = z.input<typeof previewInputSchema>

/** The live preview: what the template trained from the sample finds in the other matching emails. */
export function previewParserQuery(input: PreviewInput) {
  return queryOptions({
    queryKey: ['parsers', 'preview', input],
    queryFn: async () => unwrap(api.parsers.preview.$post({ json: input })),
    staleTime: 60_000,
    retry: false,
  })
}

export function usePreviewParser(input: PreviewInput, { enabled }: { enabled: boolean }) {
  // Keeps the last table on screen while a changed field set is re-run.
  return useQuery({ ...previewParserQuery(input), enabled, placeholderData: keepPreviousData })
}
