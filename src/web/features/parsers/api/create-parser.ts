import { useMutation } from '@tanstack/react-query'
import type { CreateParserInput } from '@shared/contracts/parsers'
import { api, unwrap } from '@web/lib/api-client'

/** 'Activate Parser': the server makes the spreadsheet (for a new one) and saves the active parser. */
export function useCreateParser() {
  return useMutation({
    mutationFn: async (input: CreateParserInput) => unwrap(api.parsers.$post({ json: input })),
  })
}
