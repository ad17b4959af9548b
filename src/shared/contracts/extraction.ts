import { z } from 'zod'
import type { ParserType } from '../plans'

/** Optional per-field types (issue 4): they give a normalised cell and keep the original text. */
export const FIELD_TYPES = ['text', 'number', 'money', 'date', 'email'] as const
export type FieldType = (typeof FIELD_TYPES)[number]

/**
 * One highlighted value from the training sample (spec §3 extraction_fields). Same shape as
 * `ExtractionField` in the database schema, which stores what this validates.
 */
export const extractionFieldSchema = z.object({
  name: z.string().trim().min(1, 'Field name is required').max(200),
  /** The text the user highlighted, as shown (entities decoded). */
  value: z.string().min(1, 'Selected text is required').max(10_000),
  /** Text around the highlight, for values that appear more than once in the sample. */
  context: z
    .object({
      before: z.string().max(2_000).optional(),
      after: z.string().max(2_000).optional(),
      /** 0-based index of the highlighted occurrence among the value's occurrences in the sample body. */
      occurrence: z.number().int().min(0).optional(),
    })
    .optional(),
  type: z.enum(FIELD_TYPES).optional(),
})
export type ExtractionField = z.infer<typeof extractionFieldSchema>

export const extractionFieldsSchema = z
  .array(extractionFieldSchema)
  .min(1, 'Please select at least one field to extract from emails.')
  .max(100)
  .refine((fields) => new Set(fields.map((f) => f.name.trim())).size === fields.length, {
    error: 'Field names must be unique',
  })

/** success: every field found; partial: some; failed: none, or the email could not be read. */
export const EXTRACTION_STATUSES = ['success', 'partial', 'failed'] as const
export type ExtractionStatus = (typeof EXTRACTION_STATUSES)[number]

/** What produced the values: the parser type, or the template with AI filling what it missed. */
export type ExtractionMethod = ParserType | 'template+smart_ai' | 'template+full_ai'

/** A normalised spreadsheet cell: ISO date, plain number, lower-cased address, or the text. */
export type CellValue = string | number | null

/** One field's outcome. `value` is the text as it appears in the email (unescaped). */
export type FieldResult = {
  value: string | null
  cell: CellValue
  /** 0..1: how sure the rule is that it found the right text. */
  confidence: number
  /** The rule that matched, e.g. `label:"order total"`, `column:"price"`, `ai:smart`; `none` when nothing did. */
  rule: string
  /**
   * Why the field is empty (or was dropped as doubtful), in words a user can act on:
   * "label not found", "value does not look like the sample's". null when the value was found.
   */
  reason?: string | null
}

/** One line item: each line-item field's value and normalised cell in that row. */
export type LineItem = Record<string, { value: string | null; cell: CellValue }>

/** Tokens and estimated cost of the AI calls made for one email. */
export type ExtractionUsage = {
  model: string
  inputTokens: number
  outputTokens: number
  /** Estimate from list prices; the provider's bill is the truth. */
  costUsd: number
  calls: number
}

/** The result of running a parser on one email. */
export type ExtractionResult = {
  status: ExtractionStatus
  /** Field name → value text or null, in the parser's field order. */
  fields: Record<string, string | null>
  details: Record<string, FieldResult>
  method: ExtractionMethod
  /** Why the email failed or was partial (first reason), null on success. */
  error: string | null
  warnings: string[]
  usage: ExtractionUsage | null
  /** Milliseconds spent, extraction only (AI calls included). */
  durationMs: number
  /**
   * The email's line items, one entry per repeated row, when the parser has line-item fields
   * (null otherwise). `fields` still holds each line-item field's values joined with a line break.
   */
  items?: LineItem[] | null
  /**
   * AI parsers: the model found, word for word, fields the template had lost (a drifted layout).
   * These are the highlights to re-learn the template from this email; null otherwise.
   */
  repair?: { fields: ExtractionField[] } | null
}
