import type { ExtractionField } from '../../shared/contracts/extraction'
import { cellsOf, cleanValue, lineOf, lineText, type Doc } from '../doc'
import { detectShape, findShapeSpans } from '../shapes'
import { isLabelLine, squash, wordsOf } from './anchors'
import { BULLET_MARK, learnExtent } from './extent'
import { layoutOf, MAX_LAYOUT_LINES, placeOf } from './place'
import { findCards, learnCards, type LearnedCards } from './rules/cards'
import { learnColumn } from './rules/column'
import { learnKeyed } from './rules/keyed'
import { learnLabel } from './rules/label'
import { learnLandmarks } from './rules/landmark'
import { learnList } from './rules/list'
import { learnPattern, learnTailPattern } from './rules/pattern'
import { learnPosition } from './rules/position'
import { findUnitRun, isSummary, isSummaryRow, learnRows, type LearnedRun } from './rules/rows'
import { learnStacked } from './rules/stacked'
import { learnSuffix } from './rules/suffix'
import { TEMPLATE_VERSION } from './schema'
import { mergeSpans, type Span } from './spans'
import type { Docs, FieldTemplate, Rule, Template, View } from './types'

/** A person's name as highlighted: two to four capitalised words (`Tom D'Aubigné`, `Ana María de la Cruz`). */
const PERSON_NAME = /^\p{Lu}[\p{L}'’-]+(?:\s+(?:\p{Lu}[\p{L}'’.-]*|de|del|da|van|von|der|la|le)){1,3}$/u

/**
 * The given name of a highlighted person's name where it ends a phrase (`What's your budget for
 * this project, Tom?`, `Hi Tom,`): senders address people by it, so it is data, never an anchor.
 */
function givenNames(doc: Doc, fields: ExtractionField[]): Span[] {
  const out: Span[] = []
  for (const f of fields) {
    const value = f.value.trim()
    if (!PERSON_NAME.test(value)) continue
    const given = value.split(/\s+/)[0]!
    if (given.length < 3) continue
    // Not where it opens a name of other words (`Tinder Inc.` beside `Tinder Dating App`).
    for (const span of findOccurrences(doc, given).slice(0, 50)) {
      const after = doc.text.slice(span[1], doc.lineEnd[lineOf(doc, span[0])]!)
      if (/^(?:[,?!.;:]|\s*$)/.test(after)) out.push(span)
    }
  }
  return out
}

/** Occurrences of the highlighted text in a body, whitespace-insensitive. */
function findOccurrences(doc: Doc, value: string, touching = false): Span[] {
  const trimmed = value.trim()
  const parts = trimmed.split(/\s+/).filter(Boolean)
  if (parts.length === 0) return []
  // Where the highlight goes on to a new line, the body may show a list's bullet there: a browser's
  // selection of a bulleted list leaves its markers out (`Planting\nLighting` of `• Planting\n• Lighting`).
  const gaps = trimmed.match(/\s+/g) ?? []
  const body = parts.map((p, i) => (i === 0 ? '' : gaps[i - 1]!.includes('\n') ? `\\s+(?:${BULLET_MARK}\\s+)?` : '\\s+') + p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('')
  // A value that starts or ends with a letter or digit must not be cut out of a longer word or number;
  // a number is not the part after a decimal point or a dot of a longer number either (`4` in `SW10484.4`).
  const first = parts[0]!
  const last = parts[parts.length - 1]!
  const lead = (/^[\p{L}\p{N}]/u.test(first) ? '(?<![\\p{L}\\p{N}])' : '') + (/^\p{N}/u.test(first) ? '(?<![\\p{N}][.,])' : '')
  const tail = (/[\p{L}\p{N}]$/u.test(last) ? '(?![\\p{L}\\p{N}])' : '') + (/\p{N}$/u.test(last) ? '(?![.,][\\p{N}])' : '')
  // A number may touch letters (`2x Garlic Naan`, `3pcs`), never other digits (`12` in `2012`).
  const numLead = /^\p{N}/u.test(first) ? '(?<![\\p{N}][.,]?)' : lead
  const numTail = /\p{N}$/u.test(last) ? '(?![.,]?[\\p{N}])' : tail
  // `touching`: the number touching letters too, where the wizard's context says which occurrence
  // the user highlighted (`1` of `1x Spicy Tuna Roll` in a sample that also shows `1:18 PM`).
  const sources = touching ? [`${numLead}${body}${numTail}`] : [`${lead}${body}${tail}`, `${numLead}${body}${numTail}`]
  for (const [source, flags] of sources.flatMap((src) => [[src, 'gu'], [src, 'giu']] as const)) {
    const re = new RegExp(source, flags)
    const out: Span[] = []
    let m: RegExpExecArray | null
    while ((m = re.exec(doc.text)) !== null && out.length < 500) {
      out.push([m.index, m.index + m[0].length])
      re.lastIndex = m.index + Math.max(1, m[0].length)
    }
    if (out.length > 0) return out
  }
  return []
}

const SEPARATORS_AT_END = /[\s:|=>»•·–—*]+$/u
const SEPARATORS_AT_START = /^[\s:|=<»•·–—*]+/u

/**
 * A number the user highlighted where it touches letters (`1` of `1x Spicy Tuna Roll`, in a sample
 * that also shows `1:18 PM`): among such occurrences, the one with the wizard's context, or null.
 */
function touchingByContext(doc: Doc, strict: Span[], field: ExtractionField): Span | null {
  if (!/^\p{N}|\p{N}$/u.test(field.value.trim())) return null
  const touching = findOccurrences(doc, field.value, true).filter((t) => !strict.some((s) => s[0] === t[0]))
  return contextScore(doc, touching, field)
}

/** The occurrence whose surroundings read as the wizard's context, or null when none does. */
function contextScore(doc: Doc, spans: Span[], field: ExtractionField): Span | null {
  const ctx = field.context
  // What separates a label from its value may differ between the bodies (`Quantity` ⇥ `9` in the
  // HTML the user highlighted, `Quantity: 9` in the text): it is left out on both sides.
  const wantBefore = squash(ctx?.before ?? '').replace(SEPARATORS_AT_END, '')
  const wantAfter = squash(ctx?.after ?? '').replace(SEPARATORS_AT_START, '')
  let best: Span | null = null
  // Context that matches nowhere (another rendering of the body) finds nothing.
  let bestScore = Math.min(6, Math.max(1, wantBefore.length + wantAfter.length) - 1)
  for (const span of spans) {
    let score = 0
    if (wantBefore) {
      const before = squash(doc.text.slice(Math.max(0, span[0] - ctx!.before!.length * 2 - 20), span[0])).replace(SEPARATORS_AT_END, '')
      const n = commonSuffix(before, wantBefore)
      // `Total:` must not match inside `Subtotal:`: a whole match ends at a word boundary.
      score += n === wantBefore.length && /[\p{L}\p{N}]/u.test(before[before.length - n - 1] ?? '') ? n - 0.5 : n
    }
    if (wantAfter) {
      const after = squash(doc.text.slice(span[1], span[1] + ctx!.after!.length * 2 + 20)).replace(SEPARATORS_AT_START, '')
      const n = commonPrefix(after, wantAfter)
      score += n === wantAfter.length && /[\p{L}\p{N}]/u.test(after[n] ?? '') ? n - 0.5 : n
    }
    if (score > bestScore) {
      best = span
      bestScore = score
    }
  }
  return best
}

/** How many words of a field's name label the occurrence: on its line before it, or heading its column. */
function nameScore(doc: Doc, span: Span, name: ReadonlySet<string>): number {
  const line = lineOf(doc, span[0])
  const label = wordsOf(doc.text.slice(Math.max(doc.lineStart[line]!, span[0] - 80), span[0])).filter((w) => name.has(w)).length
  // A summary row named otherwise (`Subtotal` under a `Line Total` column) holds another value.
  if (label === 0 && isSummary(doc, line)) return -1
  return label + wordsOf(columnHeader(doc, span[0])).filter((w) => name.has(w)).length
}

/**
 * `rivals`: the other fields highlighted with the same value and no position; `settled`: where the
 * values found once are.
 */
function chooseOccurrence(doc: Doc, all: Span[], field: ExtractionField, rivals: readonly ExtractionField[], settled: readonly Span[]): Span {
  const ctx = field.context
  // A small number inside another field's value (a quantity `2` in `USB-C Cable (2 m)`, `66` in the
  // SKU `66-6252`) is a part of that value, not this field's, unless the user said which one it is.
  // (A word inside another value may be meant: the town in a highlighted address line.)
  const inside = (s: Span) => settled.some((o) => o[0] <= s[0] && s[1] <= o[1] && o[1] - o[0] > s[1] - s[0])
  const own = /^\d{1,4}$/.test(field.value.trim()) ? all.filter((s) => !inside(s)) : all
  const spans = ctx?.occurrence === undefined && own.length > 0 ? own : all
  if (ctx?.before || ctx?.after) return contextScore(doc, spans, field) ?? touchingByContext(doc, spans, field) ?? spans[Math.min(ctx.occurrence ?? 0, spans.length - 1)]!
  if (ctx?.occurrence === undefined && spans.length > 1) {
    // The same value twice (a tip equal to the service fee): the one labelled like the field.
    // In a table, the one under the column headed like the field (a price equal to the line's
    // total when the quantity is 1: `Importe`, not `Precio`).
    const name = new Set(wordsOf(field.name))
    const named = spans.map((span) => nameScore(doc, span, name))
    // Where no occurrence is labelled with the field's whole name (an item's `Project Hours`, also
    // in `Total hours` and `Billable hours`), the one in a table row holding another highlighted
    // value (the item's name) is that row's.
    const wholeName = named.some((n) => n >= name.size)
    const rowmate = (span: Span) => {
      const line = lineOf(doc, span[0])
      return !wholeName && doc.lineTab[line] && settled.some((other) => lineOf(doc, other[0]) === line) ? 2 : 0
    }
    const scores = spans.map((span, i) => named[i]! + rowmate(span))
    // Two fields of the same value (an item's hours and the total hours, one item): an occurrence
    // labelled more like another field's name is that field's (`Total hours` for Total Hours, not
    // for Project Hours), so this field takes one of the others.
    const rivalNames = rivals.map((r) => new Set(wordsOf(r.name)))
    const mine = spans.map((span, i) => !rivalNames.some((other) => nameScore(doc, span, other) > scores[i]!))
    const open = mine.some(Boolean) ? mine : spans.map(() => true)
    const best = Math.max(...scores.filter((_, i) => open[i]))
    if (best > 0 && scores.filter((x, i) => open[i] && x === best).length === 1) return spans[scores.findIndex((x, i) => open[i] && x === best)]!
    if (open.some((o) => !o)) return spans[open.findIndex((o, i) => o && scores[i]! >= 0)] ?? spans[open.indexOf(true)]!
  }
  return spans[Math.min(ctx?.occurrence ?? 0, spans.length - 1)]!
}

/** The header of the table column holding `at`: the nearest row above of as many cells, without digits. */
function columnHeader(doc: Doc, at: number): string {
  const line = lineOf(doc, at)
  if (!doc.lineTab[line]) return ''
  const cell = doc.text.slice(doc.lineStart[line]!, at).split('\t').length - 1
  const width = cellsOf(doc, line).length
  for (let l = line - 1; l >= 0 && l >= line - 60; l--) {
    // A drawn rule between the header and the rows (`+-----+-----+`) is no row.
    if (!doc.lineTab[l]) {
      if (/^\s*[-=+|_─━═]{3,}\s*$/u.test(lineText(doc, l))) continue
      break
    }
    const cells = cellsOf(doc, l)
    if (cells.length === width && !/\d/.test(lineText(doc, l))) return cells[cell] ?? ''
  }
  return ''
}

function commonSuffix(a: string, b: string): number {
  let n = 0
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++
  return n
}
function commonPrefix(a: string, b: string): number {
  let n = 0
  while (n < a.length && n < b.length && a[n] === b[n]) n++
  return n
}

function learnRules(doc: Doc, span: Span, field: FieldTemplate, variable: Span[], view: View, run: LearnedRun | null, cards: LearnedCards | null): Rule[] {
  const others = variable.filter((s) => s[1] <= span[0] || s[0] >= span[1])
  const extents = learnExtent(doc, span, field, others)
  const rules: Rule[] = []
  const push = (rule: Rule | null) => {
    if (rule) rules.push(rule)
  }
  // Items as cards are read card by card, or not at all, as rows are below.
  if (cards) {
    push(learnCards(doc, span, field, variable, cards))
    if (rules.length > 0) return rules
  }
  if (run) {
    // A line-item field is read item by item, or not at all: a label or a position would give the
    // first item alone and call it the whole list.
    push(learnRows(doc, span, field, variable, run, extents))
    if (rules.length > 0 && !run.single) {
      push(learnColumn(doc, span, field, others, extents))
      push(learnList(doc, span, field, others, true))
      return rules
    }
  }
  // A summary row (Total, Tax) under items is one value, read by its label, never as a column.
  if (view !== 'subject' && !isSummaryRow(doc, span, field.name)) {
    const repeated = Object.values(field.rules).some((list) => list?.some((r) => r.kind === 'column' || r.kind === 'list'))
    push(learnColumn(doc, span, field, others, extents))
    push(learnList(doc, span, field, others, repeated))
    // Lines a heading counts are items, read as such or not at all (as rows are above).
    if (rules.some((r) => r.kind === 'list' && r.counted)) return rules
  }
  push(learnLabel(doc, span, field, others, extents))
  push(learnStacked(doc, span, field, others, extents))
  push(learnKeyed(doc, span, field, extents))
  push(learnSuffix(doc, span, field, others))
  push(learnPattern(doc, span, field, others))
  push(learnTailPattern(doc, span, field, others))
  if (view !== 'subject') {
    rules.push(...learnLandmarks(doc, span, field, others, extents))
    push(learnPosition(doc, span, field, others, extents))
  }
  return rules
}

/**
 * Which highlighted values sit in a repeated unit of the sample (line items). A row known by a
 * summary word or by the field's own name (Total) holds one value; so does a run in which two fields
 * were highlighted in different units (a key–value table: Order | 123, Total | $5).
 */
function itemRuns(doc: Doc, spans: Array<Span | null>, fields: ExtractionField[], variable: Span[]): Array<LearnedRun | null> {
  const runs = spans.map((span) => (span ? findUnitRun(doc, span, variable) : null))
  const own = runs.map((run, i) => {
    if (!run || isSummaryRow(doc, spans[i]!, fields[i]!.name)) return null
    // Another field highlighted inside the same run, in another unit: the rows are keys and values.
    const keyValue = spans.some((other, k) => {
      if (k === i || !other) return false
      const at = run.lines.indexOf(lineOf(doc, other[0]), run.first)
      return at >= run.firstEnd && at < run.end
    })
    // A line of the value's unit that reads as the field's name (`Available credit` over `£2,172.17`)
    // is its label: the units are labelled values side by side (`Statement balance` over its own), not items.
    const name = wordsOf(fields[i]!.name).join(' ')
    const valueLine = lineOf(doc, spans[i]![0])
    const labelled = run.lines.slice(run.first, run.firstEnd).some((l) => l !== valueLine && wordsOf(lineText(doc, l)).join(' ') === name)
    return keyValue || labelled ? null : run
  })
  // A value on a line of another field's first item (a bill's `Service total` row that closes
  // each service) is read item by item like the rest, though no run was found from its own line.
  return own.map((run, i) => {
    const span = spans[i]
    if (run || !span) return run
    const line = lineOf(doc, span[0])
    return own.find((r) => r && r.count >= 2 && r.lines.slice(r.first, r.firstEnd).includes(line)) ?? null
  })
}

function guessDayFirst(value: string): boolean | undefined {
  const m = /(\d{1,2})[-/.](\d{1,2})[-/.](\d{2,4})/.exec(value)
  if (!m) return undefined
  if (+m[1]! > 12) return true
  if (+m[2]! > 12) return false
  return undefined
}

/**
 * `varying`: spans of the sample's bodies that other samples of the sender show differently (see
 * merge.ts); they are treated as data, never as anchors.
 */
/** Learns a template from the sample's rendered bodies and the highlighted fields. */
export function learnTemplate(docs: Docs, fields: ExtractionField[], varying: Partial<Record<View, Span[]>> = {}): Template {
  const templates: FieldTemplate[] = fields.map((f) => {
    const { shape, options } = detectShape(f.value, f.type)
    const t: FieldTemplate = { name: f.name, sampleValue: cleanValue(f.value), shape, shapeOptions: options, rules: {} }
    if (f.type) t.type = f.type
    const dayFirst = guessDayFirst(f.value)
    if (dayFirst !== undefined) t.dayFirst = dayFirst
    return t
  })
  const layouts: Partial<Record<'html' | 'text', string[]>> = {}
  for (const view of ['html', 'text', 'subject'] as const) {
    const doc = docs[view]
    if (!doc) continue
    const found = fields.map((f) => findOccurrences(doc, f.value))
    const settled = found.flatMap((list) => (list.length === 1 ? list : []))
    const rivalsOf = (f: ExtractionField) => fields.filter((o) => o !== f && !o.context && cleanValue(o.value) === cleanValue(f.value))
    const spans: Array<Span | null> = fields.map((f, i) => (found[i]!.length > 0 ? chooseOccurrence(doc, found[i]!, f, rivalsOf(f), settled) : null))
    // Every occurrence of a highlighted value is variable text, never an anchor; so are dates, amounts, links.
    // Text another sample of the sender shows differently (`varying`) is data too.
    const variable = mergeSpans([...found.flatMap((list) => list.slice(0, 50)), ...givenNames(doc, fields), ...findShapeSpans(doc.text), ...(varying[view] ?? [])])
    const runs = view === 'subject' ? fields.map(() => null) : itemRuns(doc, spans, fields, variable)
    // Values no run of look-alike units holds may be in cards of several lines (rules/cards.ts).
    const cards =
      view === 'subject'
        ? new Map<number, LearnedCards>()
        : findCards(
            doc,
            spans,
            fields.flatMap((f, i) => (spans[i] && !isSummaryRow(doc, spans[i]!, f.name) ? [i] : [])),
            variable,
          )
    // A run of look-alike units that the sample shows fewer of than cards is part of each card (an
    // address block's lines), not the items.
    for (const [i, learned] of cards) if (runs[i] && runs[i]!.count >= learned.count) cards.delete(i)
    if (view !== 'subject') {
      const layout = layoutOf(doc)
      if (layout.length <= MAX_LAYOUT_LINES) layouts[view] = layout
    }
    fields.forEach((_, i) => {
      const span = spans[i]
      if (!span) return
      if (view !== 'subject' && layouts[view]) {
        const place = placeOf(doc, span)
        if (place) (templates[i]!.place ??= {})[view] = place
      }
      // The subject is read last: for values the body does not show, and for those the body's rules
      // no longer find (a breadcrumb that changes with the notification's kind). Where the body
      // has rules, only the subject's whole form is: a label word alone (`receipt`) finds a
      // value in a subject worded otherwise (`Receipt for your plan`).
      const bodyRules = Boolean(templates[i]!.rules.html?.length || templates[i]!.rules.text?.length)
      let rules = learnRules(doc, span, templates[i]!, variable, view, runs[i]!, cards.get(i) ?? null)
      if (view === 'subject' && bodyRules) rules = rules.filter((r) => r.kind === 'pattern' && r.pattern.startsWith('^'))
      if (rules.length > 0) templates[i]!.rules[view] = rules
    })
  }
  const fixed = new Set<string>()
  for (const view of ['html', 'text'] as const) {
    const doc = docs[view]
    if (!doc) continue
    const variable = mergeSpans(fields.flatMap((f) => findOccurrences(doc, f.value).slice(0, 50)))
    for (let l = 0; l < doc.lineStart.length && fixed.size < 500; l++) {
      const text = lineText(doc, l)
      if (isLabelLine(text, doc, l, variable)) fixed.add(squash(text))
    }
  }
  return { version: TEMPLATE_VERSION, fields: templates, fixed: [...fixed], ...(Object.keys(layouts).length > 0 ? { layout: layouts } : {}) }
}
