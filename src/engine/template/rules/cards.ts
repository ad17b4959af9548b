import { cellBounds, cleanValue, lineOf, lineText, type Doc } from '../../doc'
import { hasDigit } from '../../shapes'
import { acceptable } from '../extent'
import { squash, wordsOf } from '../anchors'
import { overlaps, type Span } from '../spans'
import type { FieldTemplate, LineClass, Rule, RuleHandler, UnitLine } from '../types'
import { compiled, escapeRe, linePattern } from './pattern'
import { contentLines, hasFixedText, isSummary, LABEL_VALUE, MAX_ITEMS, NUMBER_LINE, NUMBER_LINE_RE, specOf, unitLineFits } from './rows'

/**
 * Line items as cards: blocks of several lines, one per item (a listing's price, its `3 bd | 2 ba |
 * 1,540 sqft` line, its address), spaced by lines nobody highlighted and by lines only some cards
 * have (a `New` badge, an `Open house` line). No run of look-alike units finds them (rows.ts): the
 * cards differ in length. What they share is a key line, a line of fixed text that holds
 * highlighted values (`bd`, `ba`, `sqft`); each card is found by its key, and each field's line by
 * its offset from the key, checked by the kinds of the lines between them and by the line's own
 * form, so an optional line in between leaves the item's value empty rather than reading its
 * neighbour.
 */

type CardsRule = Extract<Rule, { kind: 'cards' }>

/** At most this many content lines from one card's key line to the next. */
const MAX_CARD_LINES = 12
/** Any line with something on it. */
const ANY_LINE = '\\S'

/** Whether the value is its whole line, not a row of cells. */
function wholeLine(doc: Doc, line: number, span: Span): boolean {
  return !doc.lineTab[line] && squash(lineText(doc, line)) === squash(doc.text.slice(span[0], span[1]))
}

/** How far from a highlighted value's line a key line nobody highlighted may be. */
const NEAR_KEY = 3
const COUNTER_HEADING = /^\s*\p{L}+\s+#?\d{1,2}\s*[:.]?\s*$/u
/** A card may have this many lines more than the sample's longest (more option or note lines). */
const SLACK = 3

/** What kind of line a line is, to check that the lines between a key and a value are the sample's. */
function lineClass(doc: Doc, line: number): LineClass {
  if (doc.lineTab[line]) return 'cells'
  const text = lineText(doc, line)
  if (NUMBER_LINE_RE.test(text)) return 'number'
  return LABEL_VALUE.test(text) ? 'labelled' : 'text'
}

/**
 * A key line must be a line of text known by fixed text of its own (`bd`, `ba`, `sqft`): a number
 * alone or a line of text repeats in any form (a phone number, then a budget), and so does a table
 * row of a text and an amount (an item's, then a summary's): rows of tables are rows.ts's.
 */
function keyShaped(spec: UnitLine): boolean {
  return 'pattern' in spec && spec.pattern !== null && spec.pattern !== NUMBER_LINE && hasFixedText(spec.pattern)
}

/** A marked line: one of a form of its own, fixed text, a number alone or a row of cells. */
function marked(spec: UnitLine): boolean {
  return keyShaped(spec) || ('cells' in spec && spec.cells.length >= 2) || ('pattern' in spec && spec.pattern === NUMBER_LINE)
}

/**
 * The content indices of key lines one card apart, from content index `from`: a run of cards. Key
 * lines one after the other are rows of a table, not cards, and a summary row (`Subtotal`) is none.
 */
function keysFrom(doc: Doc, lines: number[], from: number, key: UnitLine, gap: number): number[] {
  const keys = [from]
  while (keys.length < MAX_ITEMS) {
    const last = keys[keys.length - 1]!
    let next = -1
    for (let j = last + 1; j < lines.length && j <= last + gap; j++) {
      if (isKey(doc, lines[j]!, key)) {
        next = j
        break
      }
    }
    if (next <= last + 1) break
    keys.push(next)
  }
  return keys
}

function isKey(doc: Doc, line: number, key: UnitLine): boolean {
  return unitLineFits(doc, line, key) && !isSummary(doc, line)
}

/** The kinds of the lines between a card's key and its value line (exclusive), from the key outwards. */
function pathOf(doc: Doc, lines: number[], key: number, offset: number): LineClass[] {
  const out: LineClass[] = []
  const step = Math.sign(offset)
  for (let i = key + step; i !== key + offset; i += step) out.push(lineClass(doc, lines[i]!))
  return out
}

/**
 * The value line's content index in the card keyed at `keys[c]`, or -1 when the card does not read
 * like the sample's. `label`: where the lines between the key and the value differ (an optional
 * `Réduction lot` line), the card's line with the sample's label, on the same side of the key.
 */
function valueLine(doc: Doc, lines: number[], keys: number[], c: number, offset: number, path: LineClass[], spec: UnitLine | null, gap: number, label?: string): number {
  const v = keys[c]! + offset
  // Inside its own card: not past the next card's key, nor before the previous one's.
  const hi = c + 1 < keys.length ? keys[c + 1]! : Math.min(lines.length, keys[c]! + gap + SLACK)
  const lo = c > 0 ? keys[c - 1]! : Math.max(-1, keys[c]! - gap - SLACK)
  if (v >= 0 && v < lines.length && !(offset > 0 && v >= hi) && !(offset < 0 && v <= lo)) {
    const between = pathOf(doc, lines, keys[c]!, offset)
    const fits = between.length === path.length && between.every((k, i) => k === path[i]) && (!spec || unitLineFits(doc, lines[v]!, spec))
    if (fits && (!label || lineLabel(doc, lines[v]!) === label)) return v
  }
  if (!label || offset === 0) return -1
  const step = Math.sign(offset)
  for (let l = keys[c]! + step; l > lo && l < hi; l += step) if (lineLabel(doc, lines[l]!) === label && (!spec || unitLineFits(doc, lines[l]!, spec))) return l
  return -1
}

/** A line's own label: its first cell when others follow (`Montant net⇥3,57 €`), or the words before its colon. */
function lineLabel(doc: Doc, line: number): string | null {
  return labelPart(doc, line)?.label ?? null
}

function labelPart(doc: Doc, line: number): { label: string; end: number } | null {
  const text = lineText(doc, line)
  const m = doc.lineTab[line] ? /^\s*([^\t\d]+?)\s*\t\s*\S/u.exec(text) : LABEL_VALUE.exec(text)
  const label = m ? squash(m[1]!) : ''
  return label ? { label, end: doc.lineStart[line]! + m!.index + m![1]!.length } : null
}

/** The label of the value's line, when the value comes after it (not a name cell that is the value). */
function labelBefore(doc: Doc, line: number, span: Span): string | undefined {
  const part = labelPart(doc, line)
  return part && span[0] >= part.end ? part.label : undefined
}

/** `count`: how many cards the sample shows; `marks`: see the rule. */
export type LearnedCards = { key: UnitLine; at: number; gap: number; ordinal: number; count: number; marks: Mark[] }
type Mark = { offset: number; line: UnitLine }

/**
 * Which highlighted values sit in cards of the sample, found together: the key is the line, among
 * those holding a highlighted value, that repeats one card apart after the first card, with the
 * most fields at the same offset from it in every card. `fields`: the indices of the fields to try.
 */
export function findCards(doc: Doc, spans: Array<Span | null>, fields: number[], variable: Span[]): Map<number, LearnedCards> {
  const { index } = contentLines(doc)
  const at = new Map<number, number>()
  for (const i of fields) {
    const span = spans[i]
    if (!span || lineOf(doc, span[0]) !== lineOf(doc, span[1])) continue
    const c = index.get(lineOf(doc, span[0]))
    if (c !== undefined) at.set(i, c)
  }
  // An email may show two sets of cards (its flights, its passengers): each found among the fields the others left.
  const out = new Map<number, LearnedCards>()
  for (let found = cardSet(doc, spans, at, variable); found; found = cardSet(doc, spans, at, variable)) {
    for (const i of found.members) {
      out.set(i, found.cards)
      at.delete(i)
    }
  }
  return out
}

/** The set of cards holding the most of the fields in `at` (field index → content line), or null. */
function cardSet(doc: Doc, spans: Array<Span | null>, at: ReadonlyMap<number, number>, variable: Span[]): { cards: LearnedCards; members: number[] } | null {
  const { lines, index } = contentLines(doc)
  let best: { cards: LearnedCards; members: number[] } | null = null
  // The key is a highlighted value's line, or a line of fixed text and a number near one that no
  // one highlighted (`Max capacity: 2 guests` under a room's type and its guest's name).
  // A heading that only numbers the card (`Room 1`) is left out: senders drop it when there is one card.
  const candidates = new Set(at.values())
  for (const a of at.values()) for (let k = Math.max(0, a - NEAR_KEY); k <= a + NEAR_KEY && k < lines.length; k++) if (!COUNTER_HEADING.test(lineText(doc, lines[k]!))) candidates.add(k)
  for (const kc of candidates) {
    const key = specOf(doc, lines[kc]!, variable)
    if (!key || !keyShaped(key)) continue
    const keys = keysFrom(doc, lines, kc, key, MAX_CARD_LINES)
    if (keys.length < 2) continue
    const gaps = keys.slice(1).map((k, j) => k - keys[j]!)
    const gap = Math.max(...gaps)
    const minGap = Math.min(...gaps)
    // The user highlights the first card: a key line a card above means these are not its cards.
    let above = false
    for (let j = kc - 1; j >= 0 && j >= kc - gap; j--) if (isKey(doc, lines[j]!, key)) above = true
    if (above) continue
    const members: number[] = []
    const marks: Mark[] = []
    for (const [i, a] of at) {
      const offset = a - kc
      if (Math.abs(offset) >= minGap) continue
      const own = offset === 0 ? null : specOf(doc, lines[a]!, variable)
      if (offset !== 0 && !own) continue
      const path = pathOf(doc, lines, kc, offset)
      const label = offset === 0 ? undefined : labelBefore(doc, lines[a]!, spans[i]!)
      const read = (spec: UnitLine | null) => keys.map((_, c) => valueLine(doc, lines, keys, c, offset, path, spec, gap, label))
      let spec = own
      let found = read(spec)
      // A value that is its whole line and whose form differs between cards (`10/10`, `64%`, `B+`): by its place alone.
      if (found.some((v) => v < 0) && offset !== 0 && wholeLine(doc, lines[a]!, spans[i]!)) found = read((spec = { pattern: ANY_LINE }))
      // …and one that opens its line before a separator, whatever follows (`Pearl District — Studio A`, `Hawthorne — Garden Room`).
      const leading = found.some((v) => v < 0) && offset !== 0 ? leadingValue(doc, lines[a]!, spans[i]!) : null
      if (leading) found = read((spec = { pattern: leading }))
      if (found.some((v) => v < 0)) continue
      // Items differ: the same text in every card is the cards' template, not their data.
      const texts = new Set(found.map((v) => squash(lineText(doc, lines[v]!))))
      if (offset !== 0 && texts.size < 2) continue
      members.push(i)
      if (spec && spec === own && marked(spec) && !marks.some((m) => m.offset === offset)) marks.push({ offset, line: spec })
    }
    // Cards are known by more than one field: a key with one field is any line that repeats.
    if (members.length < 2) continue
    // Another field highlighted in a later card (the return flight's number): the cards are
    // sections of one email, each read as values of its own, not items.
    const offsets = members.map((i) => at.get(i)! - kc)
    const lo = keys[1]! + Math.min(0, ...offsets)
    const hi = keys[keys.length - 1]! + Math.max(0, ...offsets)
    if (spans.some((span, i) => span && !members.includes(i) && within(index.get(lineOf(doc, span[0])), lo, hi))) continue
    // Each card right under a heading of its own (`Billing address`, `Delivery address`): sections
    // of one email that look alike, not items.
    const top = Math.min(0, ...offsets)
    const headings = keys.map((k) => (k + top - 1 >= 0 ? lines[k + top - 1]! : -1))
    const heading = (l: number) => l >= 0 && !hasDigit(lineText(doc, l)) && !overlaps(variable, doc.lineStart[l]!, doc.lineEnd[l]!) && wordsOf(lineText(doc, l)).length <= 6
    if (headings.every(heading) && new Set(headings.map((l) => squash(lineText(doc, l)))).size === headings.length) continue
    // The key that reaches more of the sample's cards wins over one that finds a field more in
    // fewer of them (`Need to cancel? …`, which a waitlisted card words otherwise, against the
    // `Add to calendar` line every card has).
    if (best && members.length * keys.length <= best.members.length * best.cards.count) continue
    best = { cards: { key, at: kc, gap, ordinal: ordinalOf(doc, lines, kc, key, gap), count: keys.length, marks }, members }
  }
  return best
}

function within(at: number | undefined, lo: number, hi: number): boolean {
  return at !== undefined && at >= lo && at <= hi
}

/** How many runs of the key come before the one at content index `kc`. */
function ordinalOf(doc: Doc, lines: number[], kc: number, key: UnitLine, gap: number): number {
  let seen = 0
  for (let j = 0; j < kc; j++) {
    if (!isKey(doc, lines[j]!, key)) continue
    const run = keysFrom(doc, lines, j, key, gap + SLACK)
    if (run.includes(kc)) break
    seen++
    j = run[run.length - 1]!
  }
  return seen
}

/** The field's cards rule: its line's offset from the key and how it is read there. */
export function learnCards(doc: Doc, span: Span, field: FieldTemplate, variable: Span[], cards: LearnedCards): CardsRule | null {
  const { lines, index } = contentLines(doc)
  const line = lineOf(doc, span[0])
  const a = index.get(line)
  if (a === undefined) return null
  const offset = a - cards.at
  const text = lineText(doc, line)
  const whole = squash(text) === squash(doc.text.slice(span[0], span[1]))
  const capture = whole ? null : (cellCapture(doc, span) ?? linePattern(doc, line, span, variable))
  if (!whole && !capture) return null
  const label = offset === 0 ? undefined : labelBefore(doc, line, span)
  const rule: CardsRule = {
    kind: 'cards',
    key: cards.key,
    offset,
    path: pathOf(doc, lines, cards.at, offset),
    line: offset === 0 ? null : specOf(doc, line, variable),
    ...(capture ? { capture } : {}),
    gap: cards.gap,
    ordinal: cards.ordinal,
    marks: cards.marks,
    ...(label ? { label } : {}),
  }
  const sample = squash(doc.text.slice(span[0], span[1]))
  let got = applyCards(doc, rule, field)
  // A value before a separator whose line goes on otherwise in other cards: read before the separator.
  const leading = got && offset !== 0 && !whole && got.items.some((v) => v === '') ? leadingValue(doc, line, span) : null
  if (leading) {
    const loose: CardsRule = { ...rule, line: { pattern: leading }, capture: leading }
    const all = applyCards(doc, loose, field)
    if (all && all.items.every((v) => v !== '') && squash(all.items[0]!) === sample) {
      rule.line = loose.line
      rule.capture = leading
      got = all
    }
  }
  if (!got || squash(got.items[0] ?? '') !== sample) return null
  // The sample's own cards show the value in other short forms (`10/10`, `64%`, `B+`) where the
  // field has no type: any such form is the field's, each card's line found by its place.
  if (offset !== 0 && whole && !field.type && got.items.some((v) => v === '')) {
    const placed: CardsRule = { ...rule, line: { pattern: ANY_LINE } }
    const loose: FieldTemplate = { ...field, shape: 'text', shapeOptions: {} }
    const all = applyCards(doc, placed, loose)
    // Short tokens only (grades, sizes): a name in one card and a phone number in the next are two things.
    if (all && all.items.every((v) => v !== '' && v.length <= 6 && !/\s/.test(v)) && squash(all.items[0]!) === sample) {
      field.shape = 'text'
      field.shapeOptions = {}
      return placed
    }
  }
  return rule
}

/** What may follow a value that opens its line: a separator, then the line's other text. */
const SEPARATOR_AFTER = /^\s*([—–·•|/]|-(?=\s))\s/u

/**
 * The pattern of a line that opens with the value and goes on after a separator with text that
 * differs between cards (`Pearl District — Studio A (Heated)`): the value before the separator.
 */
function leadingValue(doc: Doc, line: number, span: Span): string | null {
  if (doc.lineTab[line] || doc.text.slice(doc.lineStart[line]!, span[0]).trim() !== '') return null
  const sep = SEPARATOR_AFTER.exec(doc.text.slice(span[1], doc.lineEnd[line]!))
  return sep ? `^\\s*(.+?)\\s*${escapeRe(sep[1]!)}\\s.*$` : null
}

/** A value that is a whole cell of its row (`Classic Single Room` of `Classic Single Room⇥CHF 696.40`): that cell, by its place. */
function cellCapture(doc: Doc, span: Span): string | null {
  if (!doc.lineTab[lineOf(doc, span[0])]) return null
  const cell = cellBounds(doc, span[0])
  if (squash(doc.text.slice(cell.start, cell.end)) !== squash(doc.text.slice(span[0], span[1]))) return null
  return `^(?:[^\\t]*\\t){${cell.index}}\\s*([^\\t]+?)\\s*(?:\\t|$)`
}

const keysCache = new WeakMap<Doc, Map<string, { keys: number[]; hole: boolean } | null>>()
/** The fields of one set of cards share their keys: keyed by what finds them, worked out once per rule. */
const ruleKeys = new WeakMap<CardsRule, string>()

/** The target's cards: the rule's ordinal run of key lines; `hole`: a key further on, as if a card read otherwise. */
function findKeys(doc: Doc, rule: CardsRule): { keys: number[]; hole: boolean } | null {
  let cacheKey = ruleKeys.get(rule)
  if (cacheKey === undefined) ruleKeys.set(rule, (cacheKey = JSON.stringify([rule.key, rule.gap, rule.ordinal])))
  let byKey = keysCache.get(doc)
  if (!byKey) keysCache.set(doc, (byKey = new Map()))
  if (byKey.has(cacheKey)) return byKey.get(cacheKey)!
  const { lines } = contentLines(doc)
  let found: { keys: number[]; hole: boolean } | null = null
  let seen = 0
  const reach = rule.gap + SLACK
  for (let j = 0; j < lines.length; j++) {
    if (!isKey(doc, lines[j]!, rule.key)) continue
    const keys = keysFrom(doc, lines, j, rule.key, reach)
    if (seen++ === rule.ordinal) {
      const keyClass = lineClass(doc, lines[j]!)
      // A card whose key line reads otherwise (`Studio | 1 ba | 636 sqft` under `2 bd | 1 ba | …`)
      // is known by the card's other marked lines, where a card has them: it is read, its values
      // on the key line left empty, and the cards go on after it.
      for (;;) {
        const last = keys[keys.length - 1]!
        let k = last + 2
        while (k < lines.length && k <= last + reach && !cardWithoutKey(doc, lines, k, rule, keyClass, last, lines.length)) k++
        if (k >= lines.length || k > last + reach || keys.length >= MAX_ITEMS) break
        keys.push(...keysFrom(doc, lines, k, rule.key, reach))
      }
      // …and so is such a card before the first (`Studio` as the first listing).
      for (;;) {
        const first = keys[0]!
        let k = first - 2
        while (k >= 0 && k >= first - reach && !cardWithoutKey(doc, lines, k, rule, keyClass, -1, first)) k--
        if (k < 0 || k < first - reach || keys.length >= MAX_ITEMS) break
        keys.unshift(k)
      }
      // A key further on: a card between does not read as one, so the cards read may not be all.
      const last = keys[keys.length - 1]!
      let hole = false
      for (let k = last + reach + 1; k < lines.length && k <= last + 2 * reach && !hole; k++) hole = isKey(doc, lines[k]!, rule.key)
      found = { keys, hole }
      break
    }
    j = keys[keys.length - 1]!
  }
  byKey.set(cacheKey, found)
  return found
}

/**
 * Whether content line `k` may be a card's key line that does not read as one: a line of the key's
 * kind with every marked line of a card where a card has it, between content lines `lo` and `hi`.
 */
function cardWithoutKey(doc: Doc, lines: number[], k: number, rule: CardsRule, keyClass: LineClass, lo: number, hi: number): boolean {
  const marks = rule.marks ?? []
  // A row of cells is too common a line to stand for a key that reads otherwise (`Class⇥Economy (K)`).
  if (marks.length === 0 || keyClass === 'cells' || lineClass(doc, lines[k]!) !== keyClass) return false
  return marks.every((m) => {
    const v = k + m.offset
    return v > lo && v < hi && unitLineFits(doc, lines[v]!, m.line)
  })
}

export function applyCards(doc: Doc, rule: CardsRule, field: FieldTemplate): { value: string; penalty: number; items: string[]; cut?: string } | null {
  const found = findKeys(doc, rule)
  if (!found) return null
  const { lines } = contentLines(doc)
  const items = found.keys.map((_, c) => {
    const v = valueLine(doc, lines, found.keys, c, rule.offset, rule.path, rule.line, rule.gap, rule.label)
    if (v < 0) return ''
    const text = lineText(doc, lines[v]!)
    const value = cleanValue(rule.capture ? (compiled(rule.capture).exec(text)?.[1] ?? '') : text)
    return value !== '' && acceptable(value, field) ? value : ''
  })
  if (items.every((v) => v === '')) return null
  const missing = items.some((v) => v === '')
  return {
    value: items.join('\n'),
    items,
    penalty: missing || found.hole ? 0.3 : 0,
    ...(found.hole ? { cut: `a card after the ${found.keys.length} read does not read like them` } : {}),
  }
}

export const cardsRule: RuleHandler<'cards'> = {
  baseConfidence: 0.9,
  apply: (doc, rule, field) => applyCards(doc, rule, field),
  describe: (rule) => `cards:${rule.offset >= 0 ? '+' : ''}${rule.offset}${rule.ordinal > 0 ? ` #${rule.ordinal + 1}` : ''}`,
}
