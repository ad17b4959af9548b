import { performance } from 'node:perf_hooks'
import { z } from 'zod'
import {
  extractionFieldsSchema,
  type CellValue,
  type ExtractionField,
  type ExtractionMethod,
  type ExtractionResult,
  type ExtractionStatus,
  type ExtractionUsage,
  type FieldResult,
  type LineItem,
} from '../shared/contracts/extraction'
import type { ParserType } from '../shared/plans'
import { AiError, extractWithAi, type AiProviderConfig } from './ai'
import { createLazyDocs, normalisePlainText } from './doc'
import { normaliseCell } from './field-types'
import { htmlToText } from './html-to-text'
import { parseEmail, type MimeLimits, type NormalisedEmail } from './mime'
import { pdfText, type PdfLimits } from './pdf'
import { extractField, readByPlace, readsItems, learnFromSamples, learnTemplate, whyMissing, type LearningSample, parseStoredTemplateWith, templateSchema, type Docs, type FieldTemplate, type StoredTemplateResult, type Template, type View } from './template'

/**
 * A learned template plus the sample's text, which the AI parsers use as their worked example.
 * `relearned`: the last time an AI parser re-learned the template from an email whose layout had
 * drifted (the model found fields the template had lost).
 */
export type TrainedTemplate = Template & { example: { subject: string; body: string }; relearned?: { at: string; subject: string } }

const trainedTemplateSchema = templateSchema.extend({
  example: z.object({ subject: z.string(), body: z.string() }),
  relearned: z.object({ at: z.string(), subject: z.string() }).optional(),
})

/** A TrainedTemplate as stored (the parsers table), upgraded to the current version and validated. */
export function parseTrainedTemplate(json: unknown): StoredTemplateResult<TrainedTemplate> {
  return parseStoredTemplateWith(trainedTemplateSchema, json)
}

export type EngineLimits = {
  mime: Partial<MimeLimits>
  /** HTML is converted up to this many characters of text. */
  maxTextChars: number
  maxHtmlDepth: number
  /** Template extraction stops after this long and reports what it has. */
  timeBudgetMs: number
  pdf: Partial<PdfLimits>
  /** PDF attachments read per email by full_ai. */
  maxPdfAttachments: number
}

export const DEFAULT_ENGINE_LIMITS: EngineLimits = {
  mime: {},
  maxTextChars: 1_000_000,
  maxHtmlDepth: 1000,
  timeBudgetMs: 1000,
  pdf: {},
  maxPdfAttachments: 3,
}

/** AI fills template fields below this confidence. */
const AI_FALLBACK_BELOW = 0.5

export const AI_NOT_CONFIGURED = 'AI provider not configured'

/** An email ready for extraction; `body` is the text the AI parsers read. */
export type RenderedEmail = { email: NormalisedEmail; docs: Docs; readonly body: string; warnings: string[] }

type Outcome<T> = ({ ok: true } & T) | { ok: false; reason: string }

/** A class rather than an object literal with a getter, whose per-email hidden class keeps the email's text alive (see createLazyDocs). */
class Rendered implements RenderedEmail {
  constructor(
    public email: NormalisedEmail,
    public docs: Docs,
    public warnings: string[],
    private readonly readBody: () => string,
  ) {}

  get body(): string {
    return this.readBody()
  }
}

/** Normalised email → the bodies the template reads (HTML converted to structured text). */
export function renderEmail(email: NormalisedEmail, limits: Partial<EngineLimits> = {}): Outcome<{ rendered: RenderedEmail }> {
  const { maxTextChars, maxHtmlDepth } = { ...DEFAULT_ENGINE_LIMITS, ...limits }
  const warnings = [...email.warnings]
  const sources: Partial<Record<View, () => string>> = {}
  let htmlText = ''
  if (email.html) {
    // Converted now, not lazily: hostile HTML must fail here, with its reason.
    const converted = htmlToText(email.html, { maxDepth: maxHtmlDepth, maxChars: maxTextChars })
    if (!converted.ok) return { ok: false, reason: converted.reason }
    if (converted.truncated) warnings.push(`the HTML body was cut at ${maxTextChars} characters`)
    htmlText = converted.text
    if (htmlText !== '') sources.html = () => htmlText
  }
  const plain = email.text
  let plainText: string | undefined
  const readPlain = () => (plainText ??= normalisePlainText(plain ?? '', maxTextChars))
  if (plain && /\S/.test(plain)) {
    if (plain.length > maxTextChars) warnings.push(`the text body was cut at ${maxTextChars} characters`)
    sources.text = readPlain
  }
  const subject = email.subject.replace(/\s+/g, ' ').trim()
  if (subject) sources.subject = () => subject
  if (!sources.html && !sources.text && email.attachments.length === 0) return { ok: false, reason: 'the email has no readable body' }
  const readBody = () => (htmlText !== '' ? htmlText : sources.text ? readPlain() : '')
  return { ok: true, rendered: new Rendered(email, createLazyDocs(sources), warnings, readBody) }
}

async function toEmail(input: Uint8Array | string | NormalisedEmail, limits: Partial<EngineLimits>): Promise<Outcome<{ email: NormalisedEmail }>> {
  if (typeof input === 'object' && !(input instanceof Uint8Array)) return { ok: true, email: input }
  const parsed = await parseEmail(input, limits.mime)
  return parsed.ok ? { ok: true, email: parsed.email } : parsed
}

/**
 * Learns a parser from one sample email and the values the user highlighted in it.
 * `unmatched` lists fields whose value is not in the sample (they will always be null for the template).
 */
export async function trainParser(
  sample: Uint8Array | string | NormalisedEmail,
  fields: ExtractionField[],
  limits: Partial<EngineLimits> = {},
): Promise<Outcome<{ template: TrainedTemplate; unmatched: string[] }>> {
  const valid = extractionFieldsSchema.safeParse(fields)
  if (!valid.success) return { ok: false, reason: `invalid fields: ${valid.error.issues[0]?.message ?? 'unknown problem'}` }
  const email = await toEmail(sample, limits)
  if (!email.ok) return { ok: false, reason: `the sample email cannot be read: ${email.reason}` }
  const rendered = renderEmail(email.email, limits)
  if (!rendered.ok) return { ok: false, reason: `the sample email cannot be read: ${rendered.reason}` }
  const { docs, body } = rendered.rendered
  const template = learnTemplate(docs, valid.data)
  const unmatched = template.fields.filter((f) => Object.keys(f.rules).length === 0).map((f) => f.name)
  return { ok: true, template: { ...template, example: { subject: email.email.subject, body: body.slice(0, 20_000) } }, unmatched }
}

/** One training sample: an email and the values highlighted in it (the same field names in every sample). */
export type TrainingSample = { email: Uint8Array | string | NormalisedEmail; fields: ExtractionField[] }

/**
 * Learns a parser from several samples of the same sender: rules that agree across the samples
 * win, text that differs between them is variable. The first sample's fields define the parser.
 */
export async function trainParserFromSamples(
  samples: TrainingSample[],
  limits: Partial<EngineLimits> = {},
): Promise<Outcome<{ template: TrainedTemplate; unmatched: string[] }>> {
  if (samples.length === 0) return { ok: false, reason: 'at least one sample is needed' }
  if (samples.length === 1) return trainParser(samples[0]!.email, samples[0]!.fields, limits)
  const read: LearningSample[] = []
  let example: TrainedTemplate['example'] | null = null
  for (const [i, sample] of samples.entries()) {
    const valid = extractionFieldsSchema.safeParse(sample.fields)
    if (!valid.success) return { ok: false, reason: `sample ${i + 1}: invalid fields: ${valid.error.issues[0]?.message ?? 'unknown problem'}` }
    const email = await toEmail(sample.email, limits)
    if (!email.ok) return { ok: false, reason: `sample ${i + 1} cannot be read: ${email.reason}` }
    const rendered = renderEmail(email.email, limits)
    if (!rendered.ok) return { ok: false, reason: `sample ${i + 1} cannot be read: ${rendered.reason}` }
    read.push({ docs: rendered.rendered.docs, fields: valid.data })
    example ??= { subject: email.email.subject, body: rendered.rendered.body.slice(0, 20_000) }
  }
  const template = learnFromSamples(read)
  const unmatched = template.fields.filter((f) => Object.keys(f.rules).length === 0).map((f) => f.name)
  return { ok: true, template: { ...template, example: example! }, unmatched }
}

/** The parser's line-item fields: those learned as repeated rows, a column or a list. */
export function lineItemFields(template: Template): string[] {
  return template.fields.filter((f) => Object.values(f.rules).some((rules) => rules?.some(readsItems))).map((f) => f.name)
}

/** Each line-item field's value per item, kept beside the details of one extraction. */
const itemValues = new WeakMap<Record<string, FieldResult>, Map<string, string[]>>()

/** One entry per item; fields read as repeated rows stay aligned item by item. */
function lineItems(template: Template, details: Record<string, FieldResult>, reference: string | null): LineItem[] | null {
  const names = lineItemFields(template)
  if (names.length === 0) return null
  const perItem = itemValues.get(details)
  const columns = names.map((name) => perItem?.get(name) ?? details[name]?.value?.split('\n') ?? [])
  const count = Math.max(0, ...columns.map((c) => c.length))
  const items: LineItem[] = []
  for (let i = 0; i < count; i++) {
    const item: LineItem = {}
    names.forEach((name, k) => {
      const value = columns[k]![i] || null
      const field = template.fields.find((f) => f.name === name)!
      item[name] = { value, cell: value === null ? null : cellFor(field, value, reference).cell }
    })
    items.push(item)
  }
  return items
}

export type RunOptions = {
  parserType?: ParserType
  /** The OpenAI-compatible provider; required for smart_ai and full_ai. */
  ai?: AiProviderConfig | null
  /** full_ai only: read PDF attachments. */
  parseAttachments?: boolean
  limits?: Partial<EngineLimits>
  signal?: AbortSignal
}

function emptyField(): FieldResult {
  return { value: null, cell: null, confidence: 0, rule: 'none' }
}

function cellFor(field: FieldTemplate, value: string, reference: string | null): { cell: CellValue; ok: boolean } {
  const options = { dayFirst: field.dayFirst, reference }
  if (!value.includes('\n')) {
    const cell = normaliseCell(value, field.type, options)
    return cell === undefined ? { cell: value, ok: false } : { cell, ok: true }
  }
  // A list (line items) stays one text cell: each line normalised.
  let ok = true
  const lines = value.split('\n').map((line) => {
    const cell = normaliseCell(line, field.type, options)
    if (cell === undefined) ok = false
    return cell === undefined || cell === null ? line : String(cell)
  })
  return { cell: lines.join('\n'), ok }
}

function finish(
  template: TrainedTemplate,
  details: Record<string, FieldResult>,
  method: ExtractionMethod,
  warnings: string[],
  usage: ExtractionUsage | null,
  started: number,
  error: string | null,
  reference: string | null = null,
): ExtractionResult {
  const fields: Record<string, string | null> = {}
  let found = 0
  let whole = 0
  for (const f of template.fields) {
    const value = details[f.name]?.value ?? null
    fields[f.name] = value
    if (value !== null) found++
    // A value with a reason is only part of the field (a list with items missing it).
    if (value !== null && !details[f.name]?.reason) whole++
  }
  const status: ExtractionStatus = whole === template.fields.length ? 'success' : found > 0 ? 'partial' : 'failed'
  const missing = template.fields.filter((f) => fields[f.name] === null || details[f.name]?.reason).map((f) => f.name)
  let reason = error
  if (!reason && status !== 'success') {
    const named = missing.map((name) => (details[name]?.reason ? `${name} (${details[name]!.reason})` : name))
    reason = status === 'failed' ? 'no field was found in this email' : `not found: ${named.join(', ')}`
    const hint = warnings.find((w) => /truncated|charset|cut at/.test(w))
    if (hint) reason += ` (${hint})`
  }
  const items = lineItems(template, details, reference)
  return { status, fields, details, method, error: reason, warnings, usage, durationMs: Math.round((performance.now() - started) * 100) / 100, items }
}

function failed(template: TrainedTemplate, method: ExtractionMethod, reason: string, started: number, usage: ExtractionUsage | null = null): ExtractionResult {
  const details = Object.fromEntries(template.fields.map((f) => [f.name, emptyField()]))
  const result = finish(template, details, method, [], usage, started, reason)
  return { ...result, status: 'failed' }
}

const fixedCache = new WeakMap<Template, ReadonlySet<string>>()
function fixedLines(template: Template): ReadonlySet<string> {
  let set = fixedCache.get(template)
  if (!set) {
    set = new Set(template.fixed ?? [])
    fixedCache.set(template, set)
  }
  return set
}

/** Runs the learned template over a rendered email: synchronous, bounded by the time budget. */
/** What forms and notifications show for a question left unanswered, in the languages the engine reads. */
const NO_ANSWER =
  /^(?:no response|no answer|not answered|not provided|not specified|not given|none provided|nothing entered|\(?(?:empty|blank|no value|not set)\)?|n\/a|[-–—]+|keine angabe|nicht angegeben|non renseign[ée]|non communiqu[ée]|sin respuesta|no especificado|n[ãa]o informado|sem resposta|niet opgegeven|ej angivet|未回答|回答なし)$/iu

/** The reason given with a value read by its place (template/place.ts): never more than partial. */
const READ_BY_PLACE = "read by its place: the email's wording differs from the sample's"

/** A field's value by its place in the sample's layout, from the first body that has one. */
function byPlace(template: Template, field: FieldTemplate, docs: Docs): string | null {
  for (const view of ['html', 'text'] as const) {
    if (!(view in docs) || !field.place?.[view]) continue
    const value = readByPlace(template, field, docs[view]!, view)
    if (value !== null) return value
  }
  return null
}

export function extractWithTemplate(template: Template, rendered: RenderedEmail, timeBudgetMs = DEFAULT_ENGINE_LIMITS.timeBudgetMs): { details: Record<string, FieldResult>; warnings: string[] } {
  const started = performance.now()
  const details: Record<string, FieldResult> = {}
  const warnings: string[] = []
  for (const field of template.fields) {
    if (performance.now() - started > timeBudgetMs) {
      details[field.name] = emptyField()
      if (!warnings.some((w) => w.startsWith('extraction stopped'))) warnings.push(`extraction stopped after ${timeBudgetMs} ms`)
      continue
    }
    const match = extractField(field, rendered.docs, fixedLines(template), started + timeBudgetMs)
    if (!match) {
      const placed = byPlace(template, field, rendered.docs)
      details[field.name] = placed
        ? { value: placed, cell: cellFor(field, placed, rendered.email.date).cell, confidence: 0.4, rule: 'place', reason: READ_BY_PLACE }
        : { ...emptyField(), reason: whyMissing(field, rendered.docs) }
      continue
    }
    // A form's placeholder for a question left unanswered (`No response`, `N/A`, `—`) is no value:
    // the field is empty with the reason, unless the sample's value was such a placeholder too.
    if (!match.items && NO_ANSWER.test(match.value.trim()) && !NO_ANSWER.test(field.sampleValue.trim())) {
      details[field.name] = { ...emptyField(), reason: `no answer (the email says ${JSON.stringify(match.value.trim())})` }
      continue
    }
    if (match.items) {
      let perItem = itemValues.get(details)
      if (!perItem) itemValues.set(details, (perItem = new Map()))
      perItem.set(field.name, match.items)
    }
    const { cell, ok } = cellFor(field, match.value, rendered.email.date)
    let confidence = match.confidence
    if (!ok) {
      confidence *= 0.7
      warnings.push(`"${field.name}": ${JSON.stringify(match.value.slice(0, 60))} does not read as ${field.type}`)
    }
    details[field.name] = { value: match.value, cell, confidence: Math.round(confidence * 100) / 100, rule: match.rule }
    // Items whose row does not show the field: the list is there but not whole, so not a success.
    const empty = match.items?.filter((v) => v === '').length ?? 0
    if (empty > 0) details[field.name]!.reason = `${empty} of ${match.items!.length} items have no value`
    else if (match.cut) details[field.name]!.reason = match.cut
  }
  return { details, warnings }
}

/** Runs a parser on one email. Never throws: unreadable input is a failed result with a reason. */
export async function runParser(template: TrainedTemplate, input: Uint8Array | string | NormalisedEmail, options: RunOptions = {}): Promise<ExtractionResult> {
  const started = performance.now()
  const parserType = options.parserType ?? 'template'
  const limits = { ...DEFAULT_ENGINE_LIMITS, ...options.limits }
  try {
    const email = await toEmail(input, limits)
    if (!email.ok) return failed(template, parserType, email.reason, started)
    const rendered = renderEmail(email.email, limits)
    if (!rendered.ok) return failed(template, parserType, rendered.reason, started)
    const { details, warnings } = extractWithTemplate(template, rendered.rendered, limits.timeBudgetMs)
    warnings.unshift(...rendered.rendered.warnings)
    const reference = rendered.rendered.email.date
    if (parserType === 'template') return finish(template, details, 'template', warnings, null, started, null, reference)

    // Template first: the model is asked only for what the template could not back.
    const weak = template.fields.filter((f) => (details[f.name]?.confidence ?? 0) < AI_FALLBACK_BELOW)
    if (weak.length === 0) return finish(template, details, 'template', warnings, null, started, null, reference)
    if (!options.ai) {
      // Without a provider an AI parser still delivers what the template found, and says why the rest is missing.
      for (const f of weak) if (details[f.name]?.value === null) details[f.name] = { ...details[f.name]!, reason: AI_NOT_CONFIGURED }
      return finish(template, details, 'template', warnings, null, started, AI_NOT_CONFIGURED, reference)
    }
    return await fillWithAi(template, rendered.rendered, details, weak, warnings, parserType, options, limits, started)
  } catch (error) {
    // A bug must not take the worker down with it: the email fails with the reason.
    return failed(template, parserType, `internal error: ${error instanceof Error ? error.message : String(error)}`, started)
  }
}

async function fillWithAi(
  template: TrainedTemplate,
  rendered: RenderedEmail,
  details: Record<string, FieldResult>,
  weak: FieldTemplate[],
  warnings: string[],
  parserType: Exclude<ParserType, 'template'>,
  options: RunOptions,
  limits: EngineLimits,
  started: number,
): Promise<ExtractionResult> {
  const tier = parserType === 'full_ai' ? 'full' : 'smart'
  const attachments: Array<{ filename: string; text: string }> = []
  if (parserType === 'full_ai' && options.parseAttachments) {
    const pdfs = rendered.email.attachments.filter((a) => a.mimeType === 'application/pdf' || /\.pdf$/i.test(a.filename ?? ''))
    for (const a of pdfs.slice(0, limits.maxPdfAttachments)) {
      const read = await pdfText(a.content, limits.pdf)
      if (read.ok) attachments.push({ filename: a.filename ?? 'attachment.pdf', text: read.text })
      else warnings.push(`${a.filename ?? 'a PDF attachment'}: ${read.reason}`)
    }
  }
  const templateFound = template.fields.length - weak.length
  const method: ExtractionMethod = templateFound > 0 ? `template+${parserType}` : parserType
  try {
    const answer = await extractWithAi({
      config: options.ai!,
      tier,
      fields: weak.map((f) => ({ name: f.name, type: f.type, sampleValue: f.sampleValue })),
      example: template.example,
      target: {
        subject: rendered.email.subject,
        from: rendered.email.from,
        date: rendered.email.date,
        body: rendered.body,
        attachments,
      },
      signal: options.signal,
    })
    const haystack = squash(`${rendered.email.subject}\n${rendered.body}\n${attachments.map((a) => a.text).join('\n')}`)
    for (const field of weak) {
      const value = answer.values[field.name] ?? null
      if (value === null) continue
      const { cell, ok } = cellFor(field, value, rendered.email.date)
      // A value the email does not contain word for word may be reworded or invented.
      let confidence = haystack.includes(squash(value)) ? 0.85 : 0.5
      if (!ok) confidence *= 0.7
      details[field.name] = { value, cell, confidence, rule: `ai:${tier}` }
    }
    const result = finish(template, details, method, warnings, answer.usage, started, null, rendered.email.date)
    return { ...result, repair: repairFor(template, details, weak, squash(`${rendered.email.subject}\n${rendered.body}`)) }
  } catch (error) {
    const usage = error instanceof AiError ? error.usage : null
    const message = error instanceof Error ? error.message : String(error)
    if (templateFound === 0) return failed(template, method, message, started, usage)
    return finish(template, details, method, warnings, usage, started, message, rendered.email.date)
  }
}

/**
 * When the model found, word for word in the email, fields the template had lost (the sender's
 * layout drifted), the highlights to re-learn the template from this email: every value the
 * email shows, as if the user had highlighted them.
 */
function repairFor(template: TrainedTemplate, details: Record<string, FieldResult>, weak: FieldTemplate[], haystack: string): { fields: ExtractionField[] } | null {
  const recovered = weak.filter((f) => details[f.name]?.rule.startsWith('ai:') && haystack.includes(squash(details[f.name]!.value!)))
  if (recovered.length === 0) return null
  const fields: ExtractionField[] = []
  for (const f of template.fields) {
    const value = details[f.name]?.value
    if (!value || !haystack.includes(squash(value))) continue
    // A line-item field is highlighted by its first item, as the user does in the wizard.
    fields.push({ name: f.name, value: value.split('\n')[0]!, ...(f.type ? { type: f.type } : {}) })
  }
  return fields.length > 0 ? { fields } : null
}

function squash(s: string): string {
  return s.replace(/\s+/g, ' ').toLowerCase()
}
