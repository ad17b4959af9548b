import { z } from 'zod'
import { PARSER_EMAIL_FILTERS } from './parsers'

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/** A parser's data as a file: every email, or the view its page shows (the same search and status filter). */
export const exportQuerySchema = z.object({
  format: z.enum(EXPORT_FORMATS, { error: 'Format must be csv or xlsx' }),
  q: z.string().trim().max(200).default(''),
  status: z.enum(PARSER_EMAIL_FILTERS).default('all'),
})
export type ExportQuery = z.input<typeof exportQuerySchema>

/** The columns before the parser's own fields, and the one after them. */
export const EXPORT_LEADING_COLUMNS = ['Received', 'From', 'Subject', 'Status'] as const
export const EXPORT_TRAILING_COLUMNS = ['Error'] as const
