import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@web/lib/api-client'

/** Checks with Google that an existing spreadsheet (URL or ID) can be opened and written. */
export function validateSpreadsheetQuery(spreadsheet: string) {
  return queryOptions({
    queryKey: ['spreadsheets', 'validate', spreadsheet.trim()],
    queryFn: async () => (await unwrap(api.spreadsheets.validate.$post({ json: { spreadsheet: spreadsheet.trim() } }))).spreadsheet,
    staleTime: 60_000,
    retry: false,
  })
}

/** Reads the last check of `spreadsheet`; checks run on blur and on Next (`refetch`, `fetchQuery`). */
export function useValidatedSpreadsheet(spreadsheet: string) {
  return useQuery({ ...validateSpreadsheetQuery(spreadsheet), enabled: false })
}
