import { cellBounds, cellsOf, cleanValue, lineOf, lineText, type Doc } from '../../doc'
import { findAnchor, HONORIFIC, HONORIFIC_SOURCE, isConstantWord, isLabelLine, lineHasWords, lineWordsOf, opensLine, sameValue, skipGap, wordsOf } from '../anchors'
import { fitsShape, isDateWord, isStrong } from '../../shapes'
import { acceptable, applyExtent } from '../extent'
import type { Span } from '../spans'
import type { Extent, FieldTemplate, Rule, RuleHandler } from '../types'
import { withoutPenalty } from './candidates'
import { compiled, escapeRe, linePattern, MAX_PATTERN_LINE } from './pattern'
import { isSummary } from './rows'

/** What a landmark rule may skip before a value at the start of its line: a number, or quote marks. */
export const LEAD = /^(?:\S*\d\S*(?:\s+\p{Lu}{1,3})?|[^\p{L}\p{N}\s]{1,3})$/u
/** A number, or a postcode with its letters (`3511 LN Utrecht`), or quote marks. */
const LEAD_SKIP = /^(?:\S*\d\S*(?:\s+\p{Lu}{1,3}(?=\s))?\s+|[^\p{L}\p{N}\s]{1,3}\s*)/u

export function findLandmarks(doc: Doc, landmark: string[], prefix = false, core?: number): number[] {
  const found = landmarkLines(doc, landmark, prefix)
  if (found.length > 0 || !core) return found
  // The sentence opened with a name that changes (`Olu O'Brien left a 4-star review`): its words
  // after the name, anywhere in a line.
  const out: number[] = []
  for (const { first } of findAnchor(doc, landmark.slice(-core))) {
    const line = doc.tokens[first]!.line
    if (out[out.length - 1] !== line && doc.lineEnd[line]! - doc.lineStart[line]! <= 300) out.push(line)
  }
  return out
}

function landmarkLines(doc: Doc, landmark: string[], prefix: boolean): number[] {
  const out: number[] = []
  const key = landmark.join(' ')
  let previous = -1
  for (const { first } of findAnchor(doc, landmark)) {
    const line = doc.tokens[first]!.line
    if (line === previous) continue
    previous = line
    if (prefix) {
      // The words open the line: nothing but punctuation before them.
      if (!opensLine(doc, first)) continue
      out.push(line)
      continue
    }
    // A landmark is a short line of its own; long lines are never compared word by word.
    if (doc.lineEnd[line]! - doc.lineStart[line]! > 300) continue
    if (wordsOf(lineText(doc, line)).join(' ') === key) out.push(line)
  }
  return out
}

/**
 * A line that can anchor what follows it: a line of fixed text, or one that opens with fixed words
 * and goes on with a value (`Delivered to: 12 Main St`), which then anchors by those words.
 */
/** A line of fixed text as a landmark: its words, whether they only open the line, and its core (see Rule). */
type Landmark = { words: string[]; prefix: boolean; core?: number }

const NAMED_HEADING = /^\s*((?:\p{L}+\s+){1,5}?(?:from|by|for|with|at|von|bei|par|chez|de|da))\s+\p{Lu}\p{L}*(?:\s+\S+){0,5}\s*$/u

export function landmarkOf(doc: Doc, line: number, variable: Span[]): Landmark | null {
  const text = lineText(doc, line)
  if (isLabelLine(text, doc, line, variable)) {
    const words = wordsOf(text)
    // `Tuesday` over a date is the date's own weekday: it changes with the date.
    if (words.every(isDateWord)) return null
    // A heading that names its sender (`Order Confirmation from Hollow Oak Outfitters`): the name is
    // data nobody highlighted, which another shop's email words otherwise; the words before it anchor.
    const named = NAMED_HEADING.exec(text)
    if (named && words.length <= 12) return { words: wordsOf(named[1]!), prefix: true }
    if (words.length > 0 && words.length <= 8) return { words, prefix: false }
    // A longer sentence of fixed words (`Thank-you for your prompt attention to this matter.`)
    // anchors by its opening words, below.
    if (words.length === 0) return null
  }
  const words: string[] = []
  const capitals: boolean[] = []
  for (let i = doc.lineToken[line]!; i < doc.tokens.length && words.length < 6; i++) {
    const t = doc.tokens[i]!
    if (t.line !== line) break
    if (!t.word) continue
    if (!isConstantWord(doc, i, variable)) break
    words.push(t.norm)
    capitals.push(/^\p{Lu}/u.test(doc.text.slice(t.start, t.end)))
  }
  // A long sentence of fixed words anchors by its opening ones. A title alone (`Miss` before a
  // name) is the person's, not the template's.
  if (words.length < 1 || words.every(isDateWord) || (words.length === 1 && HONORIFIC.test(words[0]!))) return null
  const opening = words.slice(0, 5)
  // …unless it opens with a name (two or more capitalised words, then a lower-case one): the words
  // after the name are what other emails share.
  const name = capitals.findIndex((c) => !c)
  const core = name >= 2 && opening.length - name >= 2 ? opening.length - name : 0
  return { words: opening, prefix: true, ...(core ? { core } : {}) }
}

/** The line `offset` non-blank lines below `line`, or -1. */
export function lineBelow(doc: Doc, line: number, offset: number): number {
  let l = line
  let n = 0
  while (n < offset) {
    l++
    if (l >= doc.lineStart.length) return -1
    if (lineText(doc, l) !== '') n++
  }
  return l
}

export function startOfCell(doc: Doc, line: number, cell: number, skipLead = false): number {
  const cells = cellsOf(doc, line)
  if (cell >= cells.length) return -1
  const start = doc.lineStart[line]! + cells.slice(0, cell).reduce((n, c) => n + c.length + 1, 0)
  let p = skipGap(doc, start, '')
  if (skipLead && p >= 0) {
    // A leading number (`75002 Paris`) or quote mark: the value starts after it.
    const m = LEAD_SKIP.exec(doc.text.slice(p, Math.min(doc.lineEnd[line]!, p + 40)))
    if (!m) return -1
    p += m[0].length
  }
  return p
}

/**
 * The blocks after a landmark: the rest of the landmark's own block, then each run of lines up to
 * a blank line (an address, a card), at most `count` non-empty ones. A block longer than any
 * address or card ends the list.
 */
function blocksBelow(doc: Doc, landmark: number, count: number): number[][] {
  const lines = doc.lineStart.length
  const out: number[][] = []
  let current: number[] = []
  for (let l = landmark + 1; l < lines && out.length < count; l++) {
    if (lineText(doc, l) === '') {
      if (current.length > 0) out.push(current)
      current = []
      continue
    }
    current.push(l)
    if (current.length > MAX_BLOCK) return out
  }
  if (current.length > 0 && out.length < count) out.push(current)
  return out
}
const MAX_BLOCK = 30
/** A landmark anchors the value's block at most this many blocks below it. */
const MAX_BLOCKS = 3

/** A line's kind, for aligning blocks: words `a`, anything with a digit `9`, a label's colon kept. */
export function lineKind(text: string): string {
  let out = ''
  for (const token of text.split(/[\s\t]+/)) {
    const core = token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}:,]+$/gu, '')
    if (core === '') continue
    // `2nd`, `LS1` and `4AP` (letters and digits) are not `203` (a house number): a line 2 is not a street.
    const kind = !/\d/.test(core) ? 'a' : /\p{L}/u.test(core) ? 'x' : '9'
    // A label's colon and a comma (`Portland, OR 97209` is not `Unit 7`) tell lines apart.
    const mark = core.endsWith(':') ? ':' : core.endsWith(',') ? ',' : ''
    if (!out.endsWith(kind)) out += kind
    out += mark
  }
  return out
}

/**
 * A block line's kind as `lineKind`, knowing two lines of an address that come and go: a second
 * line (`Suite 210`, `c/o Reception`, `2nd floor`) and a state or province code alone (`UT`).
 * Their plain kinds (`a9`, `a`) are those of a street or a town, so when one is absent the
 * alignment could not tell which line went, or took a town for the second line.
 */
export function blockLineKind(text: string): string {
  const t = text.trim().replace(/^[•·▪◦*–-]\s+/u, '')
  if (ADDRESS_LINE_2.test(t)) return 'L'
  if (/^\p{Lu}{2,3}$/u.test(t)) return 'A'
  return lineKind(text)
}
const ADDRESS_LINE_2 =
  /^(?:suite|ste\.?|apt\.?|apartment|unit|flat|floor|fl\.|bldg\.?|building|room|rm\.?|c\/o|attn\.?:?|p\.?\s?o\.?\s?box|postfach|\d+(?:st|nd|rd|th)\s+floor|\d+(?:e|er|ème)\s+étage|étage|bâtiment|piso|planta|stock|etage|whg\.?)(?=[\s.,:#\d]|$)/iu

/**
 * Where the sample block's line `index` is in the target's block, aligning the two by their lines'
 * kinds (an optional company or phone line may come and go). -1 when that line is absent or when
 * two equally good alignments disagree about it: then the value is not read rather than guessed.
 */
export function alignBlock(
  sample: string[],
  target: string[],
  index: number,
  mayTieBreak: (j: number) => boolean = () => true,
  holdsValue: (j: number) => boolean = () => false,
): number {
  const n = sample.length
  const m = target.length
  // The value's own line is data: its kind varies with the value (`grace34@example.com` is not
  // `tom.alvarez@example.net`'s kind), so a line holding a value of the field's shape matches it.
  // So does a line of words and a number in another order (`Torstraße 51` for `175 Chemin des Écoliers`).
  // Both asked once per target line, not at each step of the alignment.
  const holds = target.map((_, j) => holdsValue(j))
  const reordered = target.map((kind) => sameParts(sample[index] ?? '', kind))
  const same = (i: number, j: number) => sample[i] === target[j] || (i === index && (holds[j]! || reordered[j]!))
  // A line holding the value's shape is better evidence than a kind shared by any line of words:
  // the value's line taken there outweighs dropping the block's first line (an optional company
  // above a name). Parts in another order are weaker evidence than the same kind.
  const sub = (i: number, j: number) => (i === index && holds[j] ? -0.75 : sample[i] === target[j] ? 0 : same(i, j) ? 0.5 : 1)
  // A block's first and last lines (a name, a country) are the least likely to be the optional
  // ones: dropping them costs a little more, so `Name / Company?` loses the company, not the name.
  const del = (i: number) => (i === 0 || i === n - 1 ? 1.5 : 1)
  const INF = 1e9
  const F = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(INF))
  const G = Array.from({ length: n + 2 }, () => new Array<number>(m + 2).fill(INF))
  F[0]![0] = 0
  for (let i = 0; i <= n; i++)
    for (let j = 0; j <= m; j++) {
      const f = F[i]![j]!
      if (f === INF) continue
      if (i < n && j < m) F[i + 1]![j + 1] = Math.min(F[i + 1]![j + 1]!, f + sub(i, j))
      if (i < n) F[i + 1]![j] = Math.min(F[i + 1]![j]!, f + del(i))
      if (j < m) F[i]![j + 1] = Math.min(F[i]![j + 1]!, f + 1)
    }
  G[n]![m] = 0
  for (let i = n; i >= 0; i--)
    for (let j = m; j >= 0; j--) {
      if (i === n && j === m) continue
      let g = INF
      if (i < n && j < m) g = Math.min(g, sub(i, j) + G[i + 1]![j + 1]!)
      if (i < n) g = Math.min(g, del(i) + G[i + 1]![j]!)
      if (j < m) g = Math.min(g, 1 + G[i]![j + 1]!)
      G[i]![j] = g
    }
  const best = F[n]![m]!
  const placesOf = (i: number) => {
    const places = new Set<number>()
    for (let j = 0; j <= m; j++) {
      const f = F[i]![j]!
      if (f === INF) continue
      if (j < m && f + sub(i, j) + G[i + 1]![j + 1]! === best) places.add(same(i, j) ? j : -2 - j)
      if (f + del(i) + G[i + 1]![j]! === best) places.add(-1)
    }
    return places
  }
  // Equally good alignments disagree (`Leeds` after an optional `c/o Reception`, both words). A line
  // keeps its distance from the nearer end of its block: the town stays third from the end when a
  // line above it comes or goes. A line as far from both ends stays unread, and so does a line that
  // another sample line would claim the same way (which of two look-alikes is gone cannot be told)
  // or a table row (`Late fee  $15.50`: its label, not its place, says which row it is).
  const tieBroken = (i: number, places: Set<number>) => {
    const fromStart = i
    const fromEnd = n - 1 - i
    if (fromStart === fromEnd) return -1
    const j = fromStart < fromEnd ? i : m - 1 - fromEnd
    return j >= 0 && j < m && places.has(j) ? j : -1
  }
  const places = placesOf(index)
  if (places.size !== 1) {
    const j = tieBroken(index, places)
    if (j < 0 || !mayTieBreak(j)) return -1
    for (let i = 0; i < n; i++) {
      if (i === index) continue
      const other = placesOf(i)
      if (other.size > 1 && tieBroken(i, other) === j) return -1
    }
    return j
  }
  const [place] = places
  // A line of another kind in its place is not the value's line (`2nd floor` may be; the footer is not).
  return place! >= 0 ? place! : place! <= -2 && sample.length === target.length ? -2 - place! : -1
}

/**
 * Two line kinds of words with a number at one end, either end (`175 Chemin des Écoliers`,
 * `Torstraße 51`, `120 NW 23rd Ave`): a street's line. Not a label's line nor a town's (`Austin,
 * TX 78701`), nor words around a number (`Halfvolle melk 1 l`), nor a row of several (an item's).
 */
function sameParts(a: string, b: string): boolean {
  const street = (k: string) => /^9a[ax]*$|^a[ax]*9$/.test(k)
  return street(a) && street(b)
}

/** Shapes distinctive enough that a whole line of that shape is taken for the value's line. */
const DISTINCT_SHAPES = new Set(['money', 'date', 'time', 'email', 'url', 'phone'])

/** A line that is one value of the field's (distinctive) shape, as the value's line was in the sample. */
function holdsShapedValue(line: string, field: FieldTemplate): boolean {
  const value = line.trim()
  return DISTINCT_SHAPES.has(field.shape) && value !== '' && !value.includes('\t') && fitsShape(value, field.shape, field.shapeOptions)
}

function applyLandmark(doc: Doc, rule: Extract<Rule, { kind: 'landmark' }>, field: FieldTemplate): string | null {
  const landmarks = findLandmarks(doc, rule.landmark, rule.prefix, rule.core)
  const ordered = rule.ordinal < landmarks.length ? [landmarks[rule.ordinal]!, ...landmarks] : landmarks
  // A person's title (`Ms`, `Dr`) in front of the value marks its line, as an email's shape does.
  const titled = rule.capture?.includes(HONORIFIC_SOURCE) ?? false
  for (const lm of ordered) {
    let line: number
    if (rule.block && (rule.offset > 1 || (rule.blocks ?? 0) > 0)) {
      const block = blocksBelow(doc, lm, (rule.blocks ?? 0) + 1)[rule.blocks ?? 0]
      if (!block) continue
      const kindOf = rule.addressKinds ? blockLineKind : lineKind
      const at = alignBlock(
        rule.block,
        block.map((l) => kindOf(lineText(doc, l))),
        rule.offset - 1,
        (j) => !lineText(doc, block[j]!).includes('\t'),
        (j) => holdsShapedValue(lineText(doc, block[j]!), field) || (titled && compiled(rule.capture!).test(lineText(doc, block[j]!))),
      )
      if (at < 0) continue
      line = block[at]!
    } else if (rule.offset < 0) {
      // Right above the landmark, in its block; a landmark the email shows more than once (`View
      // invoice` under each of several invoices) is under each of several values, not this one's.
      if (landmarks.length !== 1) return null
      line = lm - 1
      if (line < 0 || lineText(doc, line) === '') continue
    } else {
      line = lineBelow(doc, lm, rule.offset)
    }
    if (line < 0) continue
    if (rule.capture) {
      // The value sits inside its line (`Vuelo IB 5528 · 4 may 2023`): the line's pattern finds it.
      if (doc.lineEnd[line]! - doc.lineStart[line]! > MAX_PATTERN_LINE) continue
      const m = compiled(rule.capture).exec(lineText(doc, line))
      const value = cleanValue(m?.[1] ?? '')
      if (m && acceptable(value, field)) return value
      continue
    }
    const start = startOfCell(doc, line, rule.cell, rule.skipLead)
    if (start < 0 || lineOf(doc, start) !== line || !lineHasWords(doc, line, rule.lineWords)) continue
    const got = applyExtent(doc, start, rule.extent, field)
    // Without a label, the word that ended the value is the only check that this is the right line.
    if (got?.missed) continue
    const value = got ? cleanValue(got.value) : ''
    if (acceptable(value, field)) return value
  }
  return null
}

/** A short line of words between blank lines: a section's heading (`Company`, `Additional notes`). */
function headingAlone(doc: Doc, l: number): boolean {
  const text = lineText(doc, l)
  const blank = (k: number) => k < 0 || k >= doc.lineStart.length || lineText(doc, k) === ''
  const words = wordsOf(text).length
  return blank(l - 1) && blank(l + 1) && !/[\d,]/.test(text) && words >= 1 && words <= 4
}

/**
 * The value as the k-th part of a record whose parts a `;` or `|` separates (`Matthäus; Nguyễn;
 * m@example.com; +49 39 5925511`): the parts after it come and go (no phone, no company), so the
 * line is read by the parts before it, not by the whole line's form.
 */
function delimitedPart(doc: Doc, line: number, span: Span): string | null {
  if (doc.lineTab[line]) return null
  const ls = doc.lineStart[line]!
  const text = lineText(doc, line)
  for (const sep of [';', '|']) {
    // (Either stands for itself in a character class.)
    const re = escapeRe(sep)
    const parts = text.split(sep)
    if (parts.length < 3) continue
    let offset = 0
    for (let k = 0; k < parts.length; k++) {
      const p = parts[k]!
      const start = ls + offset + (p.length - p.trimStart().length)
      const end = ls + offset + p.trimEnd().length
      if (k > 0 && start === span[0] && end === span[1]) return `^\\s*(?:[^${sep}]*${re}){${k}}\\s*([^${sep}]+?)\\s*(?:${re}|$)`
      offset += p.length + 1
    }
  }
  return null
}

export function learnLandmarks(doc: Doc, span: Span, field: FieldTemplate, variable: Span[], extents: Extent[]): Rule[] {
  const line = lineOf(doc, span[0])
  const cell = cellBounds(doc, span[0])
  const lead = doc.text.slice(cell.start, span[0]).trim()
  const skipLead = lead !== ''
  let captures: Array<string | undefined> = [undefined]
  let last: string | null = null
  let part: string | null = null
  if (skipLead && !LEAD.test(lead)) {
    const pattern = lineOf(doc, span[1]) === line ? linePattern(doc, line, span, variable) : null
    // A reference, amount or date that ends its line (`Portland, OR 97209`) is also found as the
    // line's last token, when the words before it (a state, a city) change from one email to the next.
    // Not after a label of its own (`Tax: NY Sales Tax 8.875%  $17.00`): that line is known by its
    // label, and without the label the next row's amount (the total, when there is no tax) reads as it.
    const labelled = /^\p{L}[\p{L} .'’-]{0,30}:/u.test(lead)
    last = !labelled && isStrong(field.shape) && !/\s/.test(doc.text.slice(span[0], span[1])) && doc.text.slice(span[1], doc.lineEnd[line]).trim() === '' ? '^.*\\s(\\S+)\\s*$' : null
    part = delimitedPart(doc, line, span)
    // A record's line is read by its parts alone: the whole line's form (a phone of three groups
    // here, four there) would read the wrong part when a part after the value is missing.
    captures = part ? [part] : [pattern, last].filter((c): c is string => c !== null)
    if (captures.length === 0) return []
  }
  // Words before the value are its line's label; words after it belong to the next value.
  const lineWords = lineWordsOf(doc, line, span, variable, true)
  const fillsLine = lineText(doc, line).trim() === doc.text.slice(span[0], span[1]).trim()
  const rules: Rule[] = []
  type LandmarkRule = Extract<Rule, { kind: 'landmark' }>
  const ruleFor = (anchor: Landmark, ordinal: number, offset: number, extent: Extent, capture: string | undefined, place: Partial<LandmarkRule>): LandmarkRule => ({
    kind: 'landmark',
    landmark: anchor.words,
    ...(anchor.prefix ? { prefix: true } : {}),
    ...(anchor.core ? { core: anchor.core } : {}),
    ordinal,
    offset,
    cell: cell.index,
    extent,
    // The last-token capture is for lines whose words before the value change (a city, a state).
    lineWords: capture === last || capture === part ? [] : lineWords,
    skipLead,
    ...place,
    ...(capture ? { capture } : {}),
  })
  let crossed = 0
  // Two landmarks, or a third above the value's own block when both are lines in it: those may be
  // data nobody highlighted (`Attn: Facilities Dept.`, `c/o Reception` in an address), which other
  // emails word otherwise, while the block's heading (`Ship To`) stays.
  let inBlock = 0
  for (let l = line - 1; l >= 0 && l >= line - 20 && rules.length < (inBlock === 2 ? 3 : 2); l--) {
    const text = lineText(doc, l)
    if (text === '') {
      if (l + 1 <= line && lineText(doc, l + 1) !== '') crossed++
      if (crossed > MAX_BLOCKS) break
      continue
    }
    if (crossed === 0 && inBlock === 2) continue
    const anchor = landmarkOf(doc, l, variable)
    if (!anchor) continue
    // In the value's own block, words and a number without a label's colon (`Unit 7`, `Apt 4B`,
    // `Suite 210`) are a line of the same record, data that comes and goes, not a heading.
    if (crossed === 0 && anchor.prefix && /\d/.test(text) && !text.includes(':')) continue
    const ordinal = findLandmarks(doc, anchor.words, anchor.prefix).indexOf(l)
    if (ordinal < 0) continue
    // The value's line as a place in the n-th block under the landmark, so lines that come and go
    // in that block or in the blocks between are aligned, never counted through.
    const blocks = blocksBelow(doc, l, MAX_BLOCKS + 1)
    const which = blocks.findIndex((b) => b.includes(line))
    if (which < 0) continue
    const block = blocks[which]!
    const offset = block.indexOf(line) + 1
    const kinds = block.map((b) => blockLineKind(lineText(doc, b)))
    for (const [extent, capture] of extents.flatMap((e) => captures.map((c) => [e, c] as const))) {
      const rule = ruleFor(anchor, ordinal, offset, extent, capture, {
        block: kinds,
        addressKinds: true,
        ...(which > 0 ? { blocks: which } : {}),
        // The nearest line above, a label or a question ending in `:` or `?`, in the block just
        // above the value's: it names this value, so without it the value is absent.
        // So does a short heading alone in its block right over an answer alone on its line
        // (`Company`, `Additional notes` over a form's answer): another heading's answer is not
        // this value. (Not a greeting, `Hello,` over a sentence.)
        ...(rules.length === 0 && which === 0 && !anchor.prefix && (/[:?]\s*$/.test(text) || (block.length === 1 && fillsLine && headingAlone(doc, l))) ? { asks: true as const } : {}),
      })
      if (sameValue(applyLandmark(doc, rule, field), doc.text.slice(span[0], span[1]))) {
        rules.push(rule)
        if (crossed === 0) inBlock++
        if (!capture || captures.length === 1) break
      }
    }
  }
  // Last, the line right below, when it is fixed text (a table's header under a receipt's id and
  // date): the landmarks above may be optional sections (a coupon's box) that other emails leave
  // out. A value of a form of its own, or on a line with words of its own, so that another line in
  // its place does not read as it; and not above a summary row (`Total`), where the last of any
  // number of items is.
  const below = line + 1
  const anchor =
    below < doc.lineStart.length && lineText(doc, below) !== '' && (isStrong(field.shape) || lineWords.length > 0) && !isSummary(doc, below) ? landmarkOf(doc, below, variable) : null
  if (anchor) {
    const found = findLandmarks(doc, anchor.words, anchor.prefix)
    const ordinal = found.length === 1 ? found.indexOf(below) : -1
    for (const [extent, capture] of ordinal < 0 ? [] : extents.flatMap((e) => captures.map((c) => [e, c] as const))) {
      const rule = ruleFor(anchor, ordinal, -1, extent, capture, {})
      if (sameValue(applyLandmark(doc, rule, field), doc.text.slice(span[0], span[1]))) {
        rules.push(rule)
        break
      }
    }
  }
  return rules
}

export const landmarkRule: RuleHandler<'landmark'> = {
  baseConfidence: 0.7,
  apply: (doc, rule, field) => withoutPenalty(applyLandmark(doc, rule, field)),
  describe: (rule) => `landmark:"${rule.landmark.join(' ')}"${rule.blocks ? `, block ${rule.blocks + 1}` : ''}${rule.offset < 0 ? '' : '+'}${rule.offset}`,
}
