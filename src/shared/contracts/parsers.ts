import { z } from 'zod'
import { PARSER_TYPES, type ParserType, type Plan } from '../plans'
import { emailFiltersSchema, type FetchedEmail } from './gmail'
import { extractionFieldsSchema, type ExtractionMethod, type FieldType } from './extraction'
import { advancedFiltersSchema, customFieldSchema, isEmptyAdvancedFilters, type AdvancedFilters, type CustomField } from './parser-edit'

/** The built-in sample shown when no email matches (spec §2 step 3); it can train a parser too. */
export const SAMPLE_EMAIL_ID = 'sample-invoice'

/** Where the training sample comes from: a Gmail message of the connected account, or the built-in sample. */
export const sampleRefSchema = z.object({
  messageId: z
    .string()
    .trim()
    .min(1)
    .refine((v) => v === SAMPLE_EMAIL_ID || isGmailMessageId(v), { error: 'Not a Gmail message ID' }),
})

/** Gmail message ids are hexadecimal (16 digits today); anything else never reaches Google. */
export function isGmailMessageId(value: string): boolean {
  return /^[0-9a-f]{1,32}$/i.test(value)
}

export const destinationInputSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('new') }),
  z.object({ type: z.literal('existing'), spreadsheet: z.string().trim().min(1, { error: 'Please enter a spreadsheet ID or URL.' }).max(2000) }),
])

/**
 * How a parser with line items fills the sheet (issue 9): one row per email with each line-item
 * field's values joined by line breaks (the default, and every parser made before the choice
 * existed), or one row per item with the email's other fields repeated on each.
 */
export const ROW_MODES = ['per_email', 'per_item'] as const
export type RowMode = (typeof ROW_MODES)[number]

/** Spec §5 'Activation': the messages the server answers with whatever the client sends. */
export const PLAN_MESSAGES = {
  smartAi: 'Smart AI Parser requires Starter plan. Please upgrade to use this feature.',
  fullAi: 'Full AI Parser requires Pro plan. Please upgrade to use this feature.',
  historical: 'Parse historical emails is available on Starter plan and above. Please upgrade to use this feature.',
} as const

/** The fields of 'Activate Parser' (before the attachment rule); the REST API extends them. */
export const createParserFieldsSchema = z.object({
  name: z.string().trim().min(1, { error: 'Please enter a name for your parser.' }).max(200),
  filters: emailFiltersSchema,
  fields: extractionFieldsSchema,
  sample: sampleRefSchema,
  parserType: z.enum(PARSER_TYPES),
  parseAttachments: z.boolean().default(false),
  destination: destinationInputSchema,
  parseHistorical: z.boolean().default(false),
  rowMode: z.enum(ROW_MODES).default('per_email'),
  /** Starter: advanced filters and custom fields (403 on the free plan). */
  advancedFilters: advancedFiltersSchema.nullish().transform((f) => (isEmptyAdvancedFilters(f) ? null : f!)),
  customFields: z.array(customFieldSchema).max(20).default([]),
})

/** Spec §3: parse_attachments is true only for full_ai with the PDF switch on. */
export function attachmentRule<T extends { parserType: ParserType; parseAttachments: boolean }>(input: T): T {
  return { ...input, parseAttachments: input.parserType === 'full_ai' && input.parseAttachments }
}

/** What the wizard sends on 'Activate Parser'. The user comes from the session. */
export const createParserInputSchema = createParserFieldsSchema.transform(attachmentRule)
export type CreateParserInput = z.input<typeof createParserInputSchema>

/** The plan rule for a parser (spec §6); null when allowed. */
export function planViolation(plan: Plan, { parserType, parseHistorical }: { parserType: ParserType; parseHistorical: boolean }): string | null {
  if (parserType === 'smart_ai' && plan === 'free') return PLAN_MESSAGES.smartAi
  if (parserType === 'full_ai' && plan !== 'pro') return PLAN_MESSAGES.fullAi
  if (parseHistorical && plan === 'free') return PLAN_MESSAGES.historical
  return null
}

export const previewInputSchema = z.object({
  filters: emailFiltersSchema,
  advancedFilters: advancedFiltersSchema.nullish().transform((f) => (isEmptyAdvancedFilters(f) ? null : f!)),
  fields: extractionFieldsSchema,
  sample: sampleRefSchema,
})

/** One field of a preview row: its text, or null with the reason it was not found. */
export type PreviewField = { value: string | null; reason: string | null }

/** One row of the live preview: what the trained template finds in another matching email. */
export type PreviewRow = {
  messageId: string
  subject: string
  from: string
  date: string
  status: 'success' | 'partial' | 'failed'
  fields: Record<string, string | null>
  /** Per field: found (value) or not found and why. */
  details: Record<string, PreviewField>
  /** The email's line items (each line-item field's text per item); null when the template has none. */
  items: Array<Record<string, string | null>> | null
  error: string | null
}

/** The live preview's answer. `lineItemFields` names the fields the trainer learned as repeated rows. */
export type PreviewResult = { rows: PreviewRow[]; unmatched: string[]; lineItemFields: string[] }

export const updateParserInputSchema = z.object({ active: z.boolean() })

/**
 * Resume a paused parser (decision 024): `process` queues the matching mail that arrived while it
 * was paused, `skip` leaves it; either way the parser takes new mail from now on.
 */
export const resumeParserInputSchema = z.object({
  pausedMail: z.enum(['process', 'skip'], { error: 'Choose whether to process the mail that arrived while paused' }),
})
export type ResumeParserInput = z.infer<typeof resumeParserInputSchema>
/** The most recent matching emails from the paused time that Resume queues. */
export const PAUSED_MAIL_LIMIT = 500
export type ResumeParserResult = { parser: ParserView; queued: number }

export const testParserInputSchema = z.object({
  emailId: z
    .string()
    .trim()
    .min(1, { error: 'Please enter a Gmail message ID' })
    .refine(isGmailMessageId, { error: 'A Gmail message ID is made of the digits 0-9 and letters a-f' }),
})

/** Spec §3 'Test-parser result'. */
export type TestParserResult = {
  success: boolean
  error: string | null
  extracted_data: Record<string, string | null>
  extraction_method: ExtractionMethod | null
  written_to_sheets: boolean
}

export type DestinationView = {
  type: 'new' | 'existing'
  spreadsheetId: string
  spreadsheetUrl: string
  spreadsheetName?: string
  parseHistorical: boolean
}

/** A parser as the API shows it (spec §3 names). */
export type ParserView = {
  id: string
  name: string
  active: boolean
  filter_from: string | null
  filter_subject: string | null
  filter_label: string | null
  extraction_fields: Array<{ name: string; value: string; type: FieldType }>
  /** Starter's advanced filters; null when none are set. */
  advanced_filters: AdvancedFilters | null
  /** Starter's custom fields (columns after the extracted ones). */
  custom_fields: CustomField[]
  destination_type: 'google_sheets'
  destination_config: DestinationView | null
  parser_type: ParserType
  parse_attachments: boolean
  /** One sheet row per email, or per line item. */
  row_mode: RowMode
  created_at: string
  /** Why the parser is not running although active (Gmail needs reconnecting, recent failures, the plan). */
  alert: string | null
  /** Kept but paused by the plan after a downgrade (the alert says why); it resumes on upgrade. */
  paused_by_plan: boolean
  /** Historical parsing under way: emails done of the total. */
  backfill: { total: number; done: number } | null
  /**
   * The last emails came back incomplete after earlier successes: the sender's layout has likely
   * changed. The affected emails, newest first (null when the parser is healthy).
   */
  layout_changed: Array<{ id: string; subject: string | null; error: string | null }> | null
  /** When an AI parser last re-learned its template from an email whose layout had changed. */
  relearned: { at: string; subject: string } | null
  /** Its emails held back by the monthly allowance (the parser shows "Waiting for allowance"). */
  waiting_for_allowance: number
  /** When it was paused (null while active): Resume asks about the mail since then. */
  paused_at: string | null
}

/** A ledger row in detail (the dashboard's 'View'). */
export type ParsedEmailView = {
  id: string
  parserId: string | null
  parserName: string | null
  gmailMessageId: string | null
  emailSubject: string | null
  emailFrom: string | null
  receivedAt: string | null
  processedAt: string
  status: string
  extractedData: Record<string, unknown> | null
  extractionMethod: string | null
  error: string | null
  writtenToSheets: boolean
  spreadsheetUrl: string | null
}

/**
 * The status filter of a parser's page: one outcome, or 'waiting' for emails not processed yet
 * (pending, being processed, or held back by the monthly allowance).
 */
export const PARSER_EMAIL_FILTERS = ['all', 'success', 'partial', 'failed', 'waiting', 'skipped'] as const
export type ParserEmailFilter = (typeof PARSER_EMAIL_FILTERS)[number]

export const PARSER_EMAILS_PAGE_SIZE = 25

/** Query of a parser's emails table: server-side pages, a search over subject, sender and values. */
export const parserEmailsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(PARSER_EMAILS_PAGE_SIZE),
  q: z.string().trim().max(200).default(''),
  status: z.enum(PARSER_EMAIL_FILTERS).default('all'),
})
export type ParserEmailsQuery = z.input<typeof parserEmailsQuerySchema>

/** One email on a parser's page: the values extracted from it and, per empty field, why. */
export type ParserEmailRow = {
  id: string
  gmailMessageId: string | null
  subject: string | null
  from: string | null
  receivedAt: string | null
  processedAt: string
  status: string
  values: Record<string, string | null>
  /** Per field: why it is empty (null when found or not known). */
  reasons: Record<string, string | null>
  error: string | null
  writtenToSheets: boolean
}

export type ParserEmailsPage = {
  emails: ParserEmailRow[]
  total: number
  page: number
  pageSize: number
  /** Emails per status filter (whatever the search), for the filter's labels. */
  counts: Record<ParserEmailFilter, number>
}

/** 'Reprocess': chosen emails of the parser, or every failed and partial one. */
export const reprocessInputSchema = z.union([
  z.object({ ids: z.array(z.uuid({ error: 'Parsed email not found' })).min(1, { error: 'Select at least one email' }).max(500) }),
  z.object({ allFailed: z.literal(true) }),
])
export type ReprocessInput = z.input<typeof reprocessInputSchema>

/** What a reprocess did: how many emails went back to the queue and how they came out. */
export type ReprocessResult = {
  reprocessed: number
  /** Outcomes of the emails sent back, once processed; all 'waiting' when the worker will do it. */
  outcomes: { success: number; partial: number; failed: number; waiting: number; skipped: number }
}

/** 'Train on this email': the parser's fields as highlighted in one of its emails (by ledger id). */
export const trainFromEmailInputSchema = z.object({
  emailId: z.uuid({ error: 'Parsed email not found' }),
  fields: extractionFieldsSchema,
})
export type TrainFromEmailInput = z.input<typeof trainFromEmailInputSchema>

/** The email to train on, ready to highlight, and the values the parser took from it. */
export type TrainingEmailView = {
  email: FetchedEmail
  parsedEmailId: string
  status: string
  values: Record<string, string | null>
  reasons: Record<string, string | null>
}

/** After re-learning: the parser, and how many of its emails are failed or partial (to reprocess). */
export type TrainFromEmailResult = { parser: ParserView; samples: number; unmatched: string[]; incomplete: number }
