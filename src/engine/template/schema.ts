import { z } from 'zod'
import { MAX_LAYOUT_LINES } from './place'
import { FIELD_TYPES } from '../../shared/contracts/extraction'
import type { Template } from './types'

/**
 * The stored form of a Template (the parsers table keeps it as JSON). schema.test.ts checks at
 * compile time that what this accepts is exactly the engine's Template type.
 */

/** The version `learnTemplate` writes today. */
export const TEMPLATE_VERSION = 3

/** How many fixed lines below a message end it (a lines extent's `ends`). */
export const MAX_ENDS = 3

const shapeSchema = z.enum(['money', 'date', 'time', 'email', 'url', 'phone', 'number', 'id', 'text'])

const shapeOptionsSchema = z.object({
  currencySuffix: z.boolean().optional(),
  withTime: z.boolean().optional(),
  percent: z.boolean().optional(),
  skeleton: z.string().optional(),
  lower: z.boolean().optional(),
})

const words = z.array(z.string())
const index = z.number().int().nonnegative()

const extentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('shape') }),
  z.object({ kind: z.literal('until'), stop: words }),
  z.object({ kind: z.literal('cell') }),
  z.object({ kind: z.literal('until-digit') }),
  z.object({ kind: z.literal('until-shape'), shape: shapeSchema, skeleton: z.string() }),
  z.object({ kind: z.literal('lines'), stop: words.nullable(), paragraphs: z.boolean().optional(), ends: z.array(words).max(MAX_ENDS).optional(), bullets: z.boolean().optional() }),
  z.object({ kind: z.literal('until-punct'), stop: z.string().length(1) }),
  z.object({ kind: z.literal('tail'), pattern: z.string().max(2000) }),
  z.object({ kind: z.literal('digits') }),
])

const optionalLine = { optional: z.literal(true).optional(), repeat: z.literal(true).optional() }
const unitLineSchema = z.union([z.object({ cells: z.array(z.enum(['empty', 'num', 'text'])), sparse: z.literal(true).optional(), ...optionalLine }), z.object({ pattern: z.string().nullable(), ...optionalLine })])

const placeSchema = z.object({ line: index, cell: index })
const layoutSchema = z.array(z.string().max(500)).max(MAX_LAYOUT_LINES)

const ruleSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('rows'),
    unit: z.array(unitLineSchema).min(1),
    line: index,
    cell: index,
    capture: z.string().optional(),
    atEnd: z.literal(true).optional(),
    single: z.literal(true).optional(),
    extent: extentSchema,
    header: words.nullable(),
    landmark: words.nullable(),
    prefix: z.boolean().optional(),
    gap: index,
    ordinal: index,
    stops: words,
  }),
  z.object({
    kind: z.literal('label'),
    anchor: words,
    ordinal: index,
    skip: z.string(),
    extent: extentSchema,
    strongGap: z.boolean(),
    atStart: z.boolean(),
    after: words,
    count: z.number().int().min(1).optional(),
    core: z.number().int().min(1).optional(),
    ownCell: z.literal(true).optional(),
    sameLine: z.literal(true).optional(),
    stemShared: z.literal(true).optional(),
  }),
  z.object({
    kind: z.literal('cards'),
    key: unitLineSchema,
    offset: z.number().int(),
    path: z.array(z.enum(['cells', 'labelled', 'number', 'text'])),
    line: unitLineSchema.nullable(),
    capture: z.string().optional(),
    gap: z.number().int().min(1),
    ordinal: index,
    marks: z.array(z.object({ offset: z.number().int(), line: unitLineSchema })).max(50).optional(),
    label: z.string().max(200).optional(),
  }),
  z.object({ kind: z.literal('keyed'), key: words.min(1), cell: z.boolean(), ordinal: index, extent: extentSchema, count: z.number().int().min(1).optional() }),
  z.object({ kind: z.literal('stacked'), key: words.min(1), ordinal: index, extent: extentSchema }),
  z.object({ kind: z.literal('suffix'), anchor: words, ordinal: index, strongGap: z.boolean(), lineWords: words, token: z.literal(true).optional() }),
  z.object({ kind: z.literal('column'), header: words, column: index, signature: z.array(z.enum(['empty', 'num', 'text'])), extent: extentSchema }),
  z.object({ kind: z.literal('list'), landmark: words, prefix: z.boolean().optional(), pattern: z.string(), counted: z.literal(true).optional(), details: z.string().optional() }),
  z.object({ kind: z.literal('pattern'), pattern: z.string(), ordinal: index, count: index.optional() }),
  z.object({
    kind: z.literal('landmark'),
    landmark: words,
    prefix: z.boolean().optional(),
    core: z.number().int().min(1).optional(),
    ordinal: index,
    // -1: the line right above the landmark (a table's header under the value's row).
    offset: z.number().int().min(-1),
    cell: index,
    extent: extentSchema,
    lineWords: words,
    skipLead: z.boolean(),
    block: words.optional(),
    addressKinds: z.literal(true).optional(),
    blocks: index.optional(),
    capture: z.string().max(5000).optional(),
    asks: z.literal(true).optional(),
  }),
  z.object({ kind: z.literal('position'), line: index, cell: index, extent: extentSchema, lineWords: words, skipLead: z.boolean() }),
])

const rulesSchema = z.array(ruleSchema)

const fieldTemplateSchema = z.object({
  name: z.string(),
  type: z.enum(FIELD_TYPES).optional(),
  sampleValue: z.string(),
  shape: shapeSchema,
  shapeOptions: shapeOptionsSchema,
  dayFirst: z.boolean().optional(),
  rules: z.object({ html: rulesSchema.optional(), text: rulesSchema.optional(), subject: rulesSchema.optional() }),
  place: z.object({ html: placeSchema.optional(), text: placeSchema.optional() }).optional(),
})

export const templateSchema = z.object({
  version: z.literal(TEMPLATE_VERSION),
  fields: z.array(fieldTemplateSchema),
  // extractWithTemplate has always read a missing list as empty; a stored template without one is kept.
  fixed: z.array(z.string()).default([]),
  layout: z.object({ html: layoutSchema.optional(), text: layoutSchema.optional() }).optional(),
})

type StoredObject = Record<string, unknown>

/**
 * Upgrades, by the version they start from: each returns the template at the next version. When
 * the stored form changes, bump TEMPLATE_VERSION, change the schema and add the step from the old
 * version here, so parsers trained before the change keep working.
 */
const UPGRADES: Record<number, (template: StoredObject) => StoredObject> = {
  // Version 2 added the rows rule (line items as repeated units); version 1 rules read as before.
  1: (template) => ({ ...template, version: 2 }),
  // Version 3 added the cards rule (line items as cards of several lines); version 2 rules read as before.
  2: (template) => ({ ...template, version: 3 }),
}

export type StoredTemplateResult<T> = { ok: true; template: T } | { ok: false; reason: string }

/** A stored template, upgraded to the current version and validated by `schema` (a Template schema, possibly extended). */
export function parseStoredTemplateWith<T>(schema: z.ZodType<T>, json: unknown): StoredTemplateResult<T> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false, reason: 'the stored template is not a JSON object' }
  let stored = json as StoredObject
  const from = stored.version
  if (typeof from !== 'number' || !Number.isInteger(from)) return { ok: false, reason: 'the stored template has no version' }
  if (from > TEMPLATE_VERSION) return { ok: false, reason: `the stored template is version ${from}, newer than this build reads (${TEMPLATE_VERSION})` }
  for (let v = from; v < TEMPLATE_VERSION; v++) {
    const upgrade = UPGRADES[v]
    if (!upgrade) return { ok: false, reason: `the stored template is version ${from}, which cannot be upgraded` }
    stored = upgrade(stored)
  }
  const parsed = schema.safeParse(stored)
  if (!parsed.success) return { ok: false, reason: `the stored template is invalid: ${describeIssues(parsed.error)}` }
  return { ok: true, template: parsed.data }
}

/** A stored Template, upgraded to the current version and validated. */
export function parseStoredTemplate(json: unknown): StoredTemplateResult<Template> {
  return parseStoredTemplateWith(templateSchema, json)
}

function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
  const more = error.issues.length - shown.length
  return shown.join('; ') + (more > 0 ? ` (and ${more} more)` : '')
}
