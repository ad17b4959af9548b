import type { AiProviderConfig } from '@engine/ai'
import { parseTrainedTemplate, runParser, trainParser, type TrainedTemplate } from '@engine/extract'
import { parseEmail, type NormalisedEmail } from '@engine/mime'
import type { ExtractionField, ExtractionResult } from '@shared/contracts/extraction'
import type { ParserType } from '@shared/plans'
import type { SheetCell } from '../../db/schema'
import { buildSheetRows, keyColumnOf, layoutOf, type LayoutParser } from '../pipeline/sheet-layout'
import { SAMPLE_EMAIL } from '@shared/sample-email'
import type { Env } from '../../env'
import { AppError } from '../../lib/errors'

/** The AI provider from configuration, or null (then smart_ai and full_ai fail with a clear reason). */
export function aiConfigFromEnv(env: Pick<Env, 'AI_BASE_URL' | 'AI_API_KEY' | 'AI_MODEL_SMART' | 'AI_MODEL_FULL'>): AiProviderConfig | null {
  if (!env.AI_BASE_URL) return null
  return { baseUrl: env.AI_BASE_URL, apiKey: env.AI_API_KEY, models: { smart: env.AI_MODEL_SMART, full: env.AI_MODEL_FULL } }
}

/** The built-in sample invoice as the engine reads email. */
export function sampleEmail(): NormalisedEmail {
  return {
    subject: SAMPLE_EMAIL.subject,
    from: SAMPLE_EMAIL.from,
    to: [],
    date: SAMPLE_EMAIL.date,
    messageId: null,
    text: SAMPLE_EMAIL.text,
    html: SAMPLE_EMAIL.html,
    attachments: [],
    warnings: [],
  }
}

export async function readEmail(raw: Uint8Array): Promise<NormalisedEmail> {
  const parsed = await parseEmail(raw)
  if (!parsed.ok) throw new AppError('VALIDATION', `The sample email cannot be read: ${parsed.reason}`)
  return parsed.email
}

/** Learns the template; a field whose text isn't in the sample is reported, not fatal. */
export async function trainTemplate(sample: NormalisedEmail, fields: ExtractionField[]): Promise<{ template: TrainedTemplate; unmatched: string[] }> {
  const trained = await trainParser(sample, fields)
  if (!trained.ok) throw new AppError('VALIDATION', trained.reason)
  return { template: trained.template, unmatched: trained.unmatched }
}

const storedTemplates = new WeakMap<object, { ok: true; template: TrainedTemplate } | { ok: false; reason: string }>()

/**
 * A parser's template as the parsers table stores it (JSON), checked against the engine's schema
 * and upgraded to the current version. Checked once per loaded row: a batch runs one parser over
 * many emails.
 */
export function readStoredTemplate(stored: unknown): { ok: true; template: TrainedTemplate } | { ok: false; reason: string } {
  const cacheable = typeof stored === 'object' && stored !== null
  let result = cacheable ? storedTemplates.get(stored) : undefined
  if (!result) {
    const parsed = parseTrainedTemplate(stored)
    result = parsed.ok ? parsed : { ok: false, reason: `The parser's saved template cannot be used (${parsed.reason}). Create the parser again.` }
    if (cacheable) storedTemplates.set(stored, result)
  }
  return result
}

/**
 * Self-repair of an AI parser: when the model found, word for word, fields the template had lost
 * (the sender's layout drifted), the template is learned again from that email so the next ones
 * need no model. Null when the email does not back every field (then the old template stays).
 */
export async function relearnTemplate(current: TrainedTemplate, email: NormalisedEmail, fields: ExtractionField[], now: Date): Promise<TrainedTemplate | null> {
  if (fields.length !== current.fields.length) return null
  const trained = await trainParser(email, fields)
  if (!trained.ok || trained.unmatched.length > 0) return null
  return { ...trained.template, relearned: { at: now.toISOString(), subject: email.subject } }
}

export function extractFromEmail(
  template: TrainedTemplate,
  email: Uint8Array | NormalisedEmail,
  options: { parserType: ParserType; parseAttachments: boolean; ai: AiProviderConfig | null },
): Promise<ExtractionResult> {
  return runParser(template, email, options)
}

/** Per field, why it is empty (the engine's reason) or null when found: kept on the ledger row. */
export function fieldReasons(fields: ExtractionField[], result: ExtractionResult): Record<string, { reason: string | null }> {
  return Object.fromEntries(
    fields.map((f) => {
      const found = (result.fields[f.name] ?? null) !== null
      return [f.name, { reason: found ? null : (result.details[f.name]?.reason ?? null) }]
    }),
  )
}

/** The parts of an email the ledger and the sheet keep beside the extracted fields. */
export function emailFacts(email: NormalisedEmail) {
  return { subject: email.subject, from: email.from, date: email.date && !Number.isNaN(Date.parse(email.date)) ? new Date(email.date) : null }
}

/** A parser's sheet rows for an email, laid out by its sheet layout (docs/decisions/022). */
export function sheetRowsFor(
  parser: LayoutParser,
  result: ExtractionResult,
  email: NormalisedEmail,
  messageId: string,
  receivedAt: Date | null,
): SheetCell[][] {
  return buildSheetRows(parser, result, emailFacts(email), messageId, receivedAt)
}

/** Where the row's key cells start (the ledger keeps it, for the sheet writer to find its rows). */
export function sheetKeyColumn(parser: Pick<LayoutParser, 'extractionFields' | 'rowMode' | 'sheetKey' | 'sheetColumns'>): number {
  return keyColumnOf(layoutOf(parser), parser.sheetKey)
}
