import { z } from 'zod'
import { PARSER_TYPES } from '../plans'
import type { UsageView } from './account'
import { FIELD_TYPES } from './extraction'
import { advancedFiltersSchema, customFieldSchema } from './parser-edit'
import { attachmentRule, createParserFieldsSchema, ROW_MODES, type ParserView } from './parsers'

/** Spec §6's upgrade wording, said the way the other Pro features say it (spec §5 'Activation'). */
export const API_PLAN_MESSAGE = 'API access requires Pro plan. Please upgrade to use this feature.'

/** Every key starts with this, so a leaked key is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'mrw_'

/** Ledger message ids of emails submitted through the API start with this (Gmail's are hex). */
export const SUBMITTED_MESSAGE_PREFIX = 'api-'

// ── API keys (Settings → API keys) ──

export const API_KEY_EXPIRIES = ['never', '30', '90', '365'] as const

export const createApiKeyInputSchema = z.object({
  name: z.string().trim().min(1, { error: 'Please enter a name for the key.' }).max(100),
  /** Days until the key stops working; 'never' for no expiry. */
  expiresIn: z.enum(API_KEY_EXPIRIES).default('never'),
})
export type CreateApiKeyInput = z.input<typeof createApiKeyInputSchema>

export type ApiKeyView = {
  id: string
  name: string
  /** mrw_ and the key's next 4 characters. */
  start: string
  createdAt: string
  expiresAt: string | null
  lastUsedAt: string | null
}

/** The answer to creating a key: the only time the key itself is shown. */
export type CreatedApiKey = { apiKey: ApiKeyView; key: string }

// ── REST API v1: requests (the app's own contracts, extended where the API takes more) ──

/** A training sample: a Gmail message id (as the wizard), or a raw RFC 822 email in base64. */
export const apiSampleSchema = z.union([
  z.object({ messageId: z.string().trim().min(1).describe('Gmail message id of the connected account, or "sample-invoice"') }),
  z.object({ raw: z.base64({ error: 'raw: must be the email in base64' }).min(1).describe('The sample email (RFC 822), base64') }),
])

export const apiCreateParserInputSchema = createParserFieldsSchema.extend({ sample: apiSampleSchema }).transform(attachmentRule)
export type ApiCreateParserInput = z.input<typeof apiCreateParserInputSchema>

export const apiUpdateParserInputSchema = z
  .object({
    name: z.string().trim().min(1, { error: 'Please enter a name for your parser.' }).max(200).optional(),
    active: z.boolean().optional(),
  })
  .refine((v) => v.name !== undefined || v.active !== undefined, { error: 'Nothing to update: send name or active' })

export const API_EMAIL_STATUSES = ['pending', 'processing', 'success', 'partial', 'failed', 'quota_exceeded', 'skipped'] as const
export const API_PAGE_LIMIT = 50

export const apiEmailsQuerySchema = z.object({
  parserId: z.uuid({ error: 'parserId: not a parser id' }).optional(),
  status: z.enum(API_EMAIL_STATUSES).optional(),
  /** Received at or after (ISO 8601). */
  since: z.iso.datetime({ offset: true, error: 'since: must be an ISO 8601 date-time' }).optional(),
  /** Received before (ISO 8601). */
  until: z.iso.datetime({ offset: true, error: 'until: must be an ISO 8601 date-time' }).optional(),
  cursor: z.string().max(200).optional().describe('nextCursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(100).default(API_PAGE_LIMIT),
})
export type ApiEmailsQuery = z.input<typeof apiEmailsQuerySchema>

/** A submitted email as JSON (the other form is the raw message with Content-Type message/rfc822). */
export const apiSubmitEmailJsonSchema = z.object({
  raw: z.base64({ error: 'raw: must be the email in base64' }).min(1).describe('The email (RFC 822), base64'),
})

export const IDEMPOTENCY_KEY_MAX = 200

// ── REST API v1: answers (the doc's schemas; the type checks below keep them the service's) ──

const destinationViewSchema = z.object({
  type: z.enum(['new', 'existing']),
  spreadsheetId: z.string(),
  spreadsheetUrl: z.string(),
  spreadsheetName: z.string().optional(),
  parseHistorical: z.boolean(),
})

export const apiParserSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    active: z.boolean(),
    filter_from: z.string().nullable(),
    filter_subject: z.string().nullable(),
    filter_label: z.string().nullable(),
    extraction_fields: z.array(z.object({ name: z.string(), value: z.string(), type: z.enum(FIELD_TYPES) })),
    advanced_filters: advancedFiltersSchema.nullable().describe("Starter's advanced filters; null when none are set"),
    custom_fields: z.array(customFieldSchema).describe("Starter's custom fields (columns after the extracted ones)"),
    destination_type: z.literal('google_sheets'),
    destination_config: destinationViewSchema.nullable(),
    parser_type: z.enum(PARSER_TYPES),
    parse_attachments: z.boolean(),
    row_mode: z.enum(ROW_MODES),
    created_at: z.string(),
    alert: z.string().nullable(),
    paused_by_plan: z.boolean().describe('Kept but paused by the plan after a downgrade (alert says why); resumes on upgrade'),
    backfill: z.object({ total: z.number(), done: z.number() }).nullable(),
    layout_changed: z.array(z.object({ id: z.string(), subject: z.string().nullable(), error: z.string().nullable() })).nullable(),
    relearned: z.object({ at: z.string(), subject: z.string() }).nullable(),
    waiting_for_allowance: z.number().int().describe("Emails held back by the monthly allowance (the parser shows 'Waiting for allowance')"),
    paused_at: z.string().nullable().describe('When it was paused (null while active)'),
  })

export const apiEmailSchema = z
  .object({
    id: z.uuid(),
    parserId: z.uuid().nullable(),
    messageId: z.string().nullable().describe('Gmail message id, or api-… for an email submitted through the API'),
    source: z.enum(['sync', 'backfill', 'test', 'api']),
    subject: z.string().nullable(),
    from: z.string().nullable(),
    receivedAt: z.string().nullable(),
    processedAt: z.string(),
    status: z.enum(API_EMAIL_STATUSES),
    error: z.string().nullable(),
    writtenToSheets: z.boolean(),
  })

export const apiEmailDetailSchema = apiEmailSchema
  .extend({
    fields: z.record(z.string(), z.string().nullable()),
    /** Per field: why it is empty, null when found. */
    reasons: z.record(z.string(), z.string().nullable()),
    /** One record per line item (the line-item fields' values), null when the parser has none. */
    lineItems: z.array(z.record(z.string(), z.string().nullable())).nullable(),
    extractionMethod: z.string().nullable(),
  })

export const apiEmailsPageSchema = z.object({
  emails: z.array(apiEmailSchema),
  nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
})

export const apiUsageSchema = z.object({ month: z.string(), used: z.number().int(), limit: z.number().int() })

export const apiReprocessSchema = z.object({ email: apiEmailDetailSchema })

export const apiErrorSchema = z
  .object({
    error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
  })

export type ApiEmail = z.infer<typeof apiEmailSchema>
export type ApiEmailDetail = z.infer<typeof apiEmailDetailSchema>
export type ApiEmailsPage = z.infer<typeof apiEmailsPageSchema>

// The documented answers are the app's own types: these fail to compile when the two part ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never
const _sameParser: Same<z.infer<typeof apiParserSchema>, ParserView> = true
const _sameUsage: Same<z.infer<typeof apiUsageSchema>, UsageView> = true
void _sameParser
void _sameUsage
