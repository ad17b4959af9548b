import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ExtractionField, ExtractionStatus } from '../shared/contracts/extraction'
import { runParser, trainParser, trainParserFromSamples, type TrainedTemplate } from './extract'

/** Field-level exact-match accuracy of the template parser over the corpus in tests/fixtures/corpus. */
export type Miss = { file: string; field: string; expected: string | null; got: string | null; status: ExtractionStatus }

/** Counts over a set of scored fields. A line-item field counts once per email (all its rows must match). */
export type Tally = {
  emails: number
  fields: number
  correct: number
  accuracy: number
  scalar: { fields: number; correct: number; accuracy: number }
  lineItems: { fields: number; correct: number; accuracy: number }
  /** Wrong non-empty values in results whose status is `success`: nothing tells the user to look. */
  silentlyWrong: number
  /** Wrong non-empty values whatever the status (an empty value where one was expected is not counted). */
  wrongNonEmpty: number
}

export type TemplateScore = {
  template: string
  heldOut: boolean
  /** One sample (trained on 001), scored on 002…025; the four fields below repeat its figures. */
  emails: number
  fields: number
  correct: number
  accuracy: number
  misses: Miss[]
  oneSample: Tally
  /** One sample, scored on 003…025: the same targets as `twoSamples`. */
  oneSampleFrom003: Tally
  /** Trained on 001 and 002 with trainParserFromSamples, scored on 003…025. */
  twoSamples: Tally
  twoSampleMisses: Miss[]
  /**
   * Trained on the first of 002…025 that shows one item in every line-item field (and every field),
   * with the values it shows as the highlights, scored on the other emails: what a user whose
   * sample had one item gets. Null for a template without line items or without such an email.
   */
  oneItemSample: { sample: string; tally: Tally; misses: Miss[] } | null
}

export type SplitScore = { templates: number; oneSample: Tally; oneSampleFrom003: Tally; twoSamples: Tally; oneItemSample: Tally & { templates: number } }

export type CorpusScore = {
  templates: TemplateScore[]
  /** The templates rules may be tuned on: the first nineteen and part of the newer ones. */
  tuning: SplitScore
  /** Senders the rules must not be tuned on; report them as one figure. */
  heldOut: SplitScore
  /** One-sample figures over every template. */
  fields: number
  correct: number
  accuracy: number
}

/** What the template parser should reach on senders it was not tuned on (issue 9). */
export const TARGETS = { heldOutAccuracy: 0.99, silentlyWrongRate: 0.002 } as const

export const SAMPLE_FILE = '001.eml'
export const SECOND_SAMPLE_FILE = '002.eml'

type IndexEntry = { id: string; heldOut: boolean; fields: Array<{ name: string; list?: boolean }> }

/** Space variants (no-break, narrow no-break as in "1 234,56 €", thin) are not a difference a reader sees. */
function sameValue(got: string | null, want: string | null): boolean {
  if (got === want) return true
  // Line items that all leave the field empty (a deposit's symbol) show nothing: no value.
  if (got === null && want !== null && /^\n*$/.test(want)) return true
  if (got === null || want === null) return false
  const spaces = /[\u00a0\u2007\u2009\u202f]/g
  return got.replace(spaces, ' ') === want.replace(spaces, ' ')
}

function emptyTally(): Tally {
  return {
    emails: 0,
    fields: 0,
    correct: 0,
    accuracy: 1,
    scalar: { fields: 0, correct: 0, accuracy: 1 },
    lineItems: { fields: 0, correct: 0, accuracy: 1 },
    silentlyWrong: 0,
    wrongNonEmpty: 0,
  }
}

const ratio = (correct: number, total: number) => (total === 0 ? 1 : correct / total)

function addTallies(tallies: Tally[]): Tally {
  const sum = emptyTally()
  for (const t of tallies) {
    sum.emails += t.emails
    sum.fields += t.fields
    sum.correct += t.correct
    sum.scalar.fields += t.scalar.fields
    sum.scalar.correct += t.scalar.correct
    sum.lineItems.fields += t.lineItems.fields
    sum.lineItems.correct += t.lineItems.correct
    sum.silentlyWrong += t.silentlyWrong
    sum.wrongNonEmpty += t.wrongNonEmpty
  }
  sum.accuracy = ratio(sum.correct, sum.fields)
  sum.scalar.accuracy = ratio(sum.scalar.correct, sum.scalar.fields)
  sum.lineItems.accuracy = ratio(sum.lineItems.correct, sum.lineItems.fields)
  return sum
}

async function scoreEmails(
  parser: TrainedTemplate,
  base: string,
  truth: Array<[string, Record<string, string | null>]>,
  listFields: ReadonlySet<string>,
): Promise<{ tally: Tally; misses: Miss[] }> {
  const tally = emptyTally()
  const misses: Miss[] = []
  for (const [file, expected] of truth) {
    const result = await runParser(parser, await readFile(join(base, file)))
    tally.emails++
    for (const [field, want] of Object.entries(expected)) {
      const got = result.fields[field] ?? null
      const part = listFields.has(field) ? tally.lineItems : tally.scalar
      tally.fields++
      part.fields++
      if (sameValue(got, want)) {
        tally.correct++
        part.correct++
        continue
      }
      misses.push({ file, field, expected: want, got, status: result.status })
      if (got !== null) {
        tally.wrongNonEmpty++
        if (result.status === 'success') tally.silentlyWrong++
      }
    }
  }
  tally.accuracy = ratio(tally.correct, tally.fields)
  tally.scalar.accuracy = ratio(tally.scalar.correct, tally.scalar.fields)
  tally.lineItems.accuracy = ratio(tally.lineItems.correct, tally.lineItems.fields)
  return { tally, misses }
}

async function readIndex(dir: string): Promise<IndexEntry[]> {
  const indexPath = join(dir, 'index.json')
  if (existsSync(indexPath)) return JSON.parse(await readFile(indexPath, 'utf8'))
  // A corpus without an index: every template directory is tuning, no field is known to be a list.
  const dirs = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'truth.json')))
  return dirs.map((d) => ({ id: d.name, heldOut: false, fields: [] }))
}

async function scoreTemplate(dir: string, entry: IndexEntry): Promise<TemplateScore> {
  const base = join(dir, entry.id)
  const fields: ExtractionField[] = JSON.parse(await readFile(join(base, 'fields.json'), 'utf8'))
  const truth: Record<string, Record<string, string | null>> = JSON.parse(await readFile(join(base, 'truth.json'), 'utf8'))
  const listFields = new Set(entry.fields.filter((f) => f.list).map((f) => f.name))
  const sample = await readFile(join(base, SAMPLE_FILE))
  const trained = await trainParser(sample, fields)
  if (!trained.ok) throw new Error(`${entry.id}: ${trained.reason}`)
  const targets = Object.entries(truth).filter(([file]) => file !== SAMPLE_FILE)
  const from003 = targets.filter(([file]) => file !== SECOND_SAMPLE_FILE)
  const one = await scoreEmails(trained.template, base, targets, listFields)
  const oneFrom003 = await scoreEmails(trained.template, base, from003, listFields)

  let two = { tally: emptyTally(), misses: [] as Miss[] }
  const secondFields = join(base, 'fields-002.json')
  if (existsSync(secondFields)) {
    const trainedTwo = await trainParserFromSamples([
      { email: sample, fields },
      { email: await readFile(join(base, SECOND_SAMPLE_FILE)), fields: JSON.parse(await readFile(secondFields, 'utf8')) },
    ])
    if (!trainedTwo.ok) throw new Error(`${entry.id} (two samples): ${trainedTwo.reason}`)
    two = await scoreEmails(trainedTwo.template, base, from003, listFields)
  }
  return {
    oneItemSample: await scoreOneItemSample(base, entry, fields, truth, listFields),
    template: entry.id,
    heldOut: entry.heldOut,
    emails: one.tally.emails,
    fields: one.tally.fields,
    correct: one.tally.correct,
    accuracy: one.tally.accuracy,
    misses: one.misses,
    oneSample: one.tally,
    oneSampleFrom003: oneFrom003.tally,
    twoSamples: two.tally,
    twoSampleMisses: two.misses,
  }
}

async function scoreOneItemSample(
  base: string,
  entry: IndexEntry,
  fields: ExtractionField[],
  truth: Record<string, Record<string, string | null>>,
  listFields: ReadonlySet<string>,
): Promise<TemplateScore['oneItemSample']> {
  if (listFields.size === 0) return null
  const files = Object.keys(truth).sort()
  const names = entry.fields.map((f) => f.name)
  const sample = files.find((f) => f !== SAMPLE_FILE && names.every((n) => truth[f]![n] != null) && [...listFields].every((n) => !truth[f]![n]!.includes('\n')))
  if (!sample) return null
  const types = new Map(fields.map((f) => [f.name, f.type]))
  const highlights: ExtractionField[] = names.map((name) => ({ name, value: truth[sample]![name]!, ...(types.get(name) ? { type: types.get(name) } : {}) }))
  const trained = await trainParser(await readFile(join(base, sample)), highlights)
  if (!trained.ok) throw new Error(`${entry.id} (one-item sample ${sample}): ${trained.reason}`)
  const scored = await scoreEmails(trained.template, base, Object.entries(truth).filter(([file]) => file !== sample), listFields)
  return { sample, ...scored }
}

function split(templates: TemplateScore[]): SplitScore {
  const oneItem = templates.flatMap((t) => (t.oneItemSample ? [t.oneItemSample.tally] : []))
  return {
    oneItemSample: { ...addTallies(oneItem), templates: oneItem.length },
    templates: templates.length,
    oneSample: addTallies(templates.map((t) => t.oneSample)),
    oneSampleFrom003: addTallies(templates.map((t) => t.oneSampleFrom003)),
    twoSamples: addTallies(templates.map((t) => t.twoSamples)),
  }
}

/**
 * Trains on each template's 001.eml and its fields.json and scores 002…025 against truth.json;
 * then trains on 001 + 002 (fields-002.json) and scores 003…025; then, for senders with line
 * items, trains on an email with one item (see `oneItemSample`). Figures are kept apart for the
 * tuning and held-out templates listed in index.json.
 */
export async function evaluateCorpus(dir: string): Promise<CorpusScore> {
  const index = await readIndex(dir)
  const templates: TemplateScore[] = []
  for (const entry of [...index].sort((a, b) => a.id.localeCompare(b.id))) templates.push(await scoreTemplate(dir, entry))
  const tuning = split(templates.filter((t) => !t.heldOut))
  const heldOut = split(templates.filter((t) => t.heldOut))
  const all = addTallies(templates.map((t) => t.oneSample))
  return { templates, tuning, heldOut, fields: all.fields, correct: all.correct, accuracy: all.accuracy }
}
