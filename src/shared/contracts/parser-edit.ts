import { z } from 'zod'
import type { Plan } from '../plans'
import { parseExpression } from '../expression'
import { FIELD_TYPES } from './extraction'
import { emailFiltersSchema } from './gmail'
import { ITEM_COLUMN, METADATA_COLUMNS, ROW_KEY_COLUMN } from './sheets'

/** Spec §6 'Starter': the upgrade wording, in the form of the spec's other plan messages (§5 'Activation'). */
export const STARTER_MESSAGES = {
  advancedFilters: 'Advanced filters are available on Starter plan and above. Please upgrade to use this feature.',
  customFields: 'Custom fields are available on Starter plan and above. Please upgrade to use this feature.',
} as const

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null))

/**
 * Starter's advanced filters (issue 12 item 5), on top of From / Subject / Label. The matcher
 * (`gmail-matcher.ts`) applies them for the wizard, the preview and the pipeline alike.
 */
export const advancedFiltersSchema = z.object({
  /** The sender's domain or a parent of it: `shop.test` matches `orders@eu.shop.test`. */
  senderDomain: optionalText(253)
    .transform((v) => (v ? v.replace(/^@/, '').toLowerCase() : null))
    .refine((v) => v === null || /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(v), { error: 'Please enter a domain such as shop.com' }),
  /** Text the body must contain (case-insensitive). */
  bodyContains: optionalText(500),
  /** Words that exclude an email when its subject or body contains any of them. */
  excludeWords: z.array(z.string().trim().min(1).max(100)).max(20, { error: 'At most 20 words to exclude' }).default([]),
  /** Only emails with at least one attachment. */
  hasAttachment: z.boolean().default(false),
  /** Any Gmail search (`has:attachment larger:1M -in:chats`): Gmail itself decides. */
  gmailQuery: optionalText(500),
})
export type AdvancedFilters = z.infer<typeof advancedFiltersSchema>
export type AdvancedFiltersInput = z.input<typeof advancedFiltersSchema>

/** True when no advanced filter is set (then none is stored). */
export function isEmptyAdvancedFilters(f: AdvancedFilters | null | undefined): boolean {
  return !f || (!f.senderDomain && !f.bodyContains && f.excludeWords.length === 0 && !f.hasAttachment && !f.gmailQuery)
}

export const CUSTOM_FIELD_KINDS = ['received_at', 'from', 'subject', 'gmail_link', 'fixed', 'computed'] as const
export type CustomFieldKind = (typeof CUSTOM_FIELD_KINDS)[number]

export const CUSTOM_FIELD_LABELS: Record<CustomFieldKind, string> = {
  received_at: 'Received at',
  from: 'From',
  subject: 'Subject',
  gmail_link: 'Gmail link',
  fixed: 'Fixed value',
  computed: 'Computed',
}

const customName = z.string().trim().min(1, { error: 'Field name is required' }).max(200)

/** Starter's custom fields: a column filled from the email's metadata, a fixed text, or an expression. */
export const customFieldSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.enum(['received_at', 'from', 'subject', 'gmail_link']), name: customName }),
  z.object({ kind: z.literal('fixed'), name: customName, value: z.string().max(1000) }),
  z.object({
    kind: z.literal('computed'),
    name: customName,
    expression: z
      .string()
      .max(500)
      .superRefine((src, ctx) => {
        const parsed = parseExpression(src)
        if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error })
      }),
  }),
])
export type CustomField = z.infer<typeof customFieldSchema>

/** One field of the edit form: its name now, the name it had (which field it is), its type. */
export const editedFieldSchema = z.object({
  name: z.string().trim().min(1, { error: 'Field name is required' }).max(200),
  previousName: z.string().min(1).max(200),
  type: z.enum(FIELD_TYPES).default('text'),
})

const RESERVED_HEADERS = new Set<string>([...METADATA_COLUMNS, ITEM_COLUMN, ROW_KEY_COLUMN].map((h) => h.toLowerCase()))

/** 'Save' on a parser's edit form. New fields are added by highlighting them ('Train on this email'). */
export const editParserInputSchema = z
  .object({
    name: z.string().trim().min(1, { error: 'Please enter a name for your parser.' }).max(200),
    filters: emailFiltersSchema,
    advancedFilters: advancedFiltersSchema.nullish().transform((f) => (isEmptyAdvancedFilters(f) ? null : f!)),
    fields: z.array(editedFieldSchema).min(1, { error: 'A parser needs at least one field.' }).max(100),
    customFields: z.array(customFieldSchema).max(20, { error: 'At most 20 custom fields' }).default([]),
    /** Another spreadsheet to write to from now on (ID or URL); absent or blank: keep the current one. */
    spreadsheet: z.string().trim().max(2000).nullish().transform((v) => (v ? v : null)),
  })
  .superRefine((input, ctx) => {
    const names = [...input.fields.map((f) => f.name), ...input.customFields.map((f) => f.name)]
    const seen = new Set<string>()
    for (const name of names) {
      const key = name.toLowerCase()
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['fields'], message: `Field names must be unique ("${name}")` })
      if (RESERVED_HEADERS.has(key)) ctx.addIssue({ code: 'custom', path: ['fields'], message: `"${name}" is a column Mailrow fills itself; please choose another name` })
      seen.add(key)
    }
    if (new Set(input.fields.map((f) => f.previousName)).size !== input.fields.length) {
      ctx.addIssue({ code: 'custom', path: ['fields'], message: 'Each field can appear only once' })
    }
    const fieldNames = new Set(input.fields.map((f) => f.name))
    input.customFields.forEach((custom, index) => {
      if (custom.kind !== 'computed') return
      const parsed = parseExpression(custom.expression)
      if (!parsed.ok) return
      const unknown = parsed.fields.filter((name) => !fieldNames.has(name))
      if (unknown.length) ctx.addIssue({ code: 'custom', path: ['customFields', index, 'expression'], message: `Unknown field: ${unknown.join(', ')}` })
    })
  })
export type EditParserInput = z.input<typeof editParserInputSchema>
export type EditParser = z.output<typeof editParserInputSchema>

/** The Starter rules of a parser's options; null when the plan allows them. */
export function starterViolation(plan: Plan, { advancedFilters, customFields }: { advancedFilters: AdvancedFilters | null; customFields: CustomField[] }): string | null {
  if (plan !== 'free') return null
  if (!isEmptyAdvancedFilters(advancedFilters)) return STARTER_MESSAGES.advancedFilters
  if (customFields.length > 0) return STARTER_MESSAGES.customFields
  return null
}
