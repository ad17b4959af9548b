import type { ExtractionField, FieldType } from '../shared/contracts/extraction'
import { buildDoc, cellBounds, cellsOf, cleanValue, lineOf, lineText, normWord, tokenAt, type Doc } from './doc'
import { cellClass, detectShape, findShapeSpans, fitsShape, hasDigit, isStrong, matchShapeAt, sameSkeleton, skeletonOf, type CellClass, type Shape, type ShapeOptions } from './shapes'

/**
 * The template learner: from one sample and the values the user highlighted, it learns for each
 * field the anchors around the value (labels before it, landmarks after it, table headers above
 * it) and the value's shape, and applies them to later emails of the same sender template.
 * Anchors come first; positions are the last resort.
 */

/** Where a value ends once its start is known. */
export type Extent =
  | { kind: 'shape' }
  | { kind: 'until'; stop: string[] }
  | { kind: 'cell' }
  /** Up to the next number on the line (`Paris 75002`). */
  | { kind: 'until-digit' }
  /** Up to the next value of a shape (`Team plan Apr 1, 2024 – May 1, 2024`). */
  | { kind: 'until-shape'; shape: Shape; skeleton: string }
  | { kind: 'lines'; stop: string[] | null }

type AnchorFit = {
  /** The sample's label was separated from the value by a tab, line break or colon. */
  strongGap: boolean
  /** The sample's label started a line or cell. */
  atStart: boolean
  /** Tokens right after the value on its line in the sample ([] when the value ended its cell). */
  after: string[]
}

export type Rule =
  | ({ kind: 'label'; anchor: string[]; ordinal: number; skip: string; extent: Extent } & AnchorFit)
  | { kind: 'suffix'; anchor: string[]; ordinal: number; strongGap: boolean; lineWords: string[] }
  | { kind: 'column'; header: string[]; column: number; signature: CellClass[]; extent: Extent }
  | { kind: 'list'; landmark: string[]; prefix?: boolean; pattern: string }
  /** A whole-line pattern (`Requester: … <(value)>`), for values inside a line with no label right before them. */
  | { kind: 'pattern'; pattern: string; ordinal: number }
  /** `prefix`: the landmark line starts with these words and goes on with variable text (`Delivered to: …`). */
  | { kind: 'landmark'; landmark: string[]; prefix?: boolean; ordinal: number; offset: number; cell: number; extent: Extent; lineWords: string[]; skipLead: boolean }
  | { kind: 'position'; line: number; cell: number; extent: Extent; lineWords: string[]; skipLead: boolean }

export type View = 'html' | 'text' | 'subject'

export type FieldTemplate = {
  name: string
  type?: FieldType
  sampleValue: string
  shape: Shape
  shapeOptions: ShapeOptions
  /** Learned from the sample's numeric dates: 01/02 means 1 February. */
  dayFirst?: boolean
  rules: Partial<Record<View, Rule[]>>
}

export type Template = {
  version: 1
  fields: FieldTemplate[]
  /** The sample's lines of fixed text: a rule without a label never returns one of them as a value. */
  fixed: string[]
}

export type Docs = Partial<Record<View, Doc>>

export type FieldMatch = { value: string; confidence: number; rule: string }

const MAX_ANCHOR_WORDS = 4
const MAX_ANCHOR_HITS = 2_000
const DEFAULT_SKIP = ':|=>»•·–—*'
const BASE_CONFIDENCE: Record<Rule['kind'], number> = {
  column: 0.95,
  list: 0.9,
  label: 0.92,
  pattern: 0.85,
  suffix: 0.8,
  landmark: 0.7,
  position: 0.35,
}
/** What a landmark rule may skip before a value at the start of its line: a number, or quote marks. */
const LEAD = /^(?:\S*\d\S*|[^\p{L}\p{N}\s]{1,3})$/u
const LEAD_SKIP = /^(?:\S*\d\S*\s+|[^\p{L}\p{N}\s]{1,3}\s*)/u
/** A bullet, a list number or a quantity (`2 x`, `1×`) starts a line of a repeated section. */
const LIST_MARKER = /^\s*(?:[•·▪◦*–-]|\d{1,2}[.)]|\d{1,3}\s?[x×])\s+\S/
/** List-rule patterns are matched against lines no longer than this, so they stay linear. */
const MAX_PATTERN_LINE = 400

// ── small helpers ──

const WORD = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu
function wordsOf(text: string): string[] {
  return (text.match(WORD) ?? []).map(normWord)
}

type Span = [number, number]

/**
 * Sorts spans and merges those that overlap, so lookups can binary-search. Learning asks "is this
 * token variable?" for every token it looks at; a linear scan of thousands of spans made hostile
 * samples quadratic.
 */
function mergeSpans(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a[0] - b[0])
  const out: Span[] = []
  for (const [s, e] of sorted) {
    const last = out[out.length - 1]
    if (last && s < last[1]) last[1] = Math.max(last[1], e)
    else out.push([s, e])
  }
  return out
}

/** The merged span overlapping [start, end), if any (spans sorted and merged). */
function spanAt(spans: Span[], start: number, end: number): Span | undefined {
  let lo = 0
  let hi = spans.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const [s, e] = spans[mid]!
    if (e <= start) lo = mid + 1
    else if (s >= end) hi = mid - 1
    else return spans[mid]
  }
  return undefined
}

/** Index of the first span ending after `pos`. */
function spanIndexFrom(spans: Span[], pos: number): number {
  let lo = 0
  let hi = spans.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (spans[mid]![1] <= pos) lo = mid + 1
    else hi = mid
  }
  return lo
}

function overlaps(spans: Span[], start: number, end: number): boolean {
  return spanAt(spans, start, end) !== undefined
}

/** Word tokens that read as fixed template text: no digits, not another field's value. */
function isConstantWord(doc: Doc, i: number, variable: Span[]): boolean {
  const t = doc.tokens[i]!
  return t.word && !hasDigit(t.norm) && !overlaps(variable, t.start, t.end)
}

const indexCache = new WeakMap<Doc, Map<string, number[]>>()
function tokenIndex(doc: Doc): Map<string, number[]> {
  let index = indexCache.get(doc)
  if (!index) {
    index = new Map()
    const tokens = doc.tokens
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!
      if (!t.word) continue
      const list = index.get(t.norm)
      if (list) list.push(i)
      else index.set(t.norm, [i])
    }
    indexCache.set(doc, index)
  }
  return index
}

function nextWord(doc: Doc, i: number): number {
  for (let j = i + 1; j < doc.tokens.length; j++) if (doc.tokens[j]!.word) return j
  return -1
}

/** An anchor word that stands for any one word (a number inside a label, like SAVE10). */
const WILDCARD = '*'

/** Every place the anchor's words appear in a row (punctuation between them ignored). */
function findAnchor(doc: Doc, anchor: string[]): Array<{ first: number; last: number }> {
  const starts = tokenIndex(doc).get(anchor[0]!) ?? []
  const out: Array<{ first: number; last: number }> = []
  // A real label occurs a handful of times; thousands of them is hostile input, read in part.
  for (const first of starts.length > MAX_ANCHOR_HITS ? starts.slice(0, MAX_ANCHOR_HITS) : starts) {
    let t = first
    let ok = true
    for (let k = 1; k < anchor.length; k++) {
      t = nextWord(doc, t)
      if (t < 0 || (anchor[k] !== WILDCARD && doc.tokens[t]!.norm !== anchor[k])) {
        ok = false
        break
      }
    }
    if (ok) out.push({ first, last: t })
  }
  return out
}

/** Constant words of a line outside a span: what a rule without a label checks the line by. */
function lineWordsOf(doc: Doc, line: number, span: Span, variable: Span[], beforeOnly = false): string[] {
  const out: string[] = []
  for (let i = doc.lineToken[line]!; i < doc.tokens.length; i++) {
    const t = doc.tokens[i]!
    if (t.line !== line || (beforeOnly && t.start >= span[0])) break
    if (t.start < span[1] && t.end > span[0]) continue
    if (isConstantWord(doc, i, variable)) out.push(t.norm)
  }
  return out
}

/** Whether the words appear in the line, in order (the line may hold more). */
function lineHasWords(doc: Doc, line: number, words: string[]): boolean {
  if (words.length === 0) return true
  let k = 0
  for (let i = doc.lineToken[line]!; i < doc.tokens.length && k < words.length; i++) {
    const t = doc.tokens[i]!
    if (t.line !== line) break
    if (t.norm === words[k]) k++
  }
  return k === words.length
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13
}

/** Whether only whitespace and punctuation lie between the start of the line or cell and an offset. */
function startsLineOrCell(doc: Doc, offset: number): boolean {
  // A label does not sit after a hundred separators: the scan stays short on hostile lines.
  for (let i = offset - 1; i >= 0 && i >= offset - 100; i--) {
    const c = doc.text.charCodeAt(i)
    if (c === 10 || c === 9) return true
    if (c === 32) continue
    if (/[\p{L}\p{N}]/u.test(doc.text[i]!)) return false
  }
  return offset <= 100
}

function gapIsStrong(gap: string): boolean {
  return /[\t\n:|=]/.test(gap)
}

/** Skips separators after an anchor; returns where the value starts, or -1. */
function skipGap(doc: Doc, pos: number, skip: string): number {
  const text = doc.text
  let p = pos
  while (p < text.length) {
    const c = text.charCodeAt(p)
    if (isSpace(c) || skip.includes(text[p]!)) p++
    else break
  }
  return p < text.length ? p : -1
}

/** End of the cell holding `pos`: never searched past its line, so long lines cost no more than once. */
function cellEnd(doc: Doc, pos: number): number {
  const line = lineOf(doc, pos)
  const le = doc.lineEnd[line]!
  if (!doc.lineTab[line]) return le
  for (let i = pos; i < le; i++) if (doc.text.charCodeAt(i) === 9) return i
  return le
}

/** Start of the cell holding `pos`, likewise bounded by its line. */
function cellStart(doc: Doc, pos: number): number {
  const line = lineOf(doc, pos)
  const ls = doc.lineStart[line]!
  if (!doc.lineTab[line]) return ls
  for (let i = pos - 1; i >= ls; i--) if (doc.text.charCodeAt(i) === 9) return i + 1
  return ls
}

/** Tokens following an offset on the same line, up to n, or [] if one of them is variable. */
function tokensAfter(doc: Doc, offset: number, n: number, variable: Span[]): string[] {
  const line = lineOf(doc, offset)
  const end = cellEnd(doc, offset)
  const out: string[] = []
  for (let i = tokenAt(doc, offset); i < doc.tokens.length && out.length < n; i++) {
    const t = doc.tokens[i]!
    if (t.line !== line || t.start >= end) break
    if (overlaps(variable, t.start, t.end) || hasDigit(t.norm)) break
    out.push(t.norm)
  }
  return out
}

type Candidate = { start: number; value: string; fit: number }

// ── extents ──

/** `missed`: the word that ends the value in the sample was not found, so the value ran to the end of its cell. */
function applyExtent(doc: Doc, start: number, extent: Extent, field: FieldTemplate): { value: string; end: number; missed?: boolean } | null {
  const text = doc.text
  switch (extent.kind) {
    case 'shape': {
      const m = matchShapeAt(text, start, field.shape, field.shapeOptions)
      return m ? { value: m, end: start + m.length } : null
    }
    case 'cell': {
      const end = cellEnd(doc, start)
      return { value: text.slice(start, end), end }
    }
    case 'until': {
      const line = lineOf(doc, start)
      const end = cellEnd(doc, start)
      for (let i = tokenAt(doc, start + 1); i < doc.tokens.length; i++) {
        const t = doc.tokens[i]!
        if (t.line !== line) break
        if (t.norm !== extent.stop[0]) continue
        let ok = true
        for (let k = 1, j = i; k < extent.stop.length; k++) {
          j++
          if (j >= doc.tokens.length || doc.tokens[j]!.norm !== extent.stop[k]) {
            ok = false
            break
          }
        }
        if (ok && t.start > start) return { value: text.slice(start, t.start), end: t.start }
      }
      return { value: text.slice(start, end), end, missed: true }
    }
    case 'until-digit': {
      const line = lineOf(doc, start)
      const end = cellEnd(doc, start)
      for (let i = tokenAt(doc, start + 1); i < doc.tokens.length; i++) {
        const t = doc.tokens[i]!
        if (t.line !== line || t.start >= end) break
        if (hasDigit(t.norm)) return { value: text.slice(start, t.start), end: t.start }
      }
      return { value: text.slice(start, end), end }
    }
    case 'until-shape': {
      const line = lineOf(doc, start)
      const end = cellEnd(doc, start)
      let firstAny = -1
      for (let i = tokenAt(doc, start + 1); i < doc.tokens.length; i++) {
        const t = doc.tokens[i]!
        if (t.line !== line || t.start >= end) break
        const m = matchShapeAt(text, t.start, extent.shape, { withTime: true, currencySuffix: true })
        if (m === null) continue
        // The sample's form first (`Apr 18, 2025`), so `seats × 3 Apr 18` is not read as a date.
        if (skeletonOf(m) === extent.skeleton) return { value: text.slice(start, t.start), end: t.start }
        if (firstAny < 0) firstAny = t.start
      }
      if (firstAny >= 0) return { value: text.slice(start, firstAny), end: firstAny }
      return { value: text.slice(start, end), end }
    }
    case 'lines': {
      const first = lineOf(doc, start)
      let last = first
      for (let l = first + 1; l < doc.lineStart.length && l < first + 60; l++) {
        const lt = lineText(doc, l)
        if (lt === '') {
          if (extent.stop === null) break
          continue
        }
        if (extent.stop && startsWithWords(lt, extent.stop)) break
        // A rule line (`--`, `____`) ends a block of text such as a message or a description.
        if (!/[\p{L}\p{N}]/u.test(lt)) break
        last = l
      }
      const end = doc.lineEnd[last]!
      return { value: text.slice(start, end), end }
    }
  }
}

function startsWithWords(line: string, words: string[]): boolean {
  const w = wordsOf(line.slice(0, 200))
  for (let i = 0; i < words.length; i++) if (w[i] !== words[i]) return false
  return true
}

function acceptable(value: string, field: FieldTemplate): boolean {
  if (value === '') return false
  if (isStrong(field.shape)) return fitsShape(value, field.shape, field.shapeOptions)
  const limit = field.sampleValue.includes('\n') ? 5000 : Math.max(200, field.sampleValue.length * 6)
  return value.length <= limit
}

// ── rule application ──

function labelCandidates(doc: Doc, rule: Extract<Rule, { kind: 'label' }>, field: FieldTemplate): Candidate[] {
  const out: Candidate[] = []
  for (const { first, last } of findAnchor(doc, rule.anchor)) {
    const anchorEnd = doc.tokens[last]!.end
    const start = skipGap(doc, anchorEnd, rule.skip)
    if (start < 0) continue
    // The value must follow the label closely: at most the next line.
    if (lineOf(doc, start) - doc.tokens[last]!.line > 1) continue
    const got = applyExtent(doc, start, rule.extent, field)
    if (!got) continue
    const value = cleanValue(got.value)
    let relaxed = false
    if (!acceptable(value, field)) {
      // An id of another form (a branch called `main` where the sample had `release/2.4`) is still
      // taken after a label that ends, as in the sample, in a colon, tab or line break.
      if (field.shape !== 'id' || /\s/.test(value) || value.length > 80 || !/[\p{L}\p{N}]/u.test(value)) continue
      relaxed = true
    }
    let fit = relaxed ? -0.5 : 0
    const strong = gapIsStrong(doc.text.slice(anchorEnd, start))
    // Free text after a label that was followed by a colon, tab or line break needs one here too.
    if (rule.strongGap && !strong && (!isStrong(field.shape) || relaxed)) continue
    if (strong === rule.strongGap) fit++
    if (startsLineOrCell(doc, doc.tokens[first]!.start) === rule.atStart) fit++
    const after = tokensAfter(doc, got.end, rule.after.length || 1, [])
    if (rule.after.length === 0 ? got.end >= cellEnd(doc, got.end) || after.length === 0 : rule.after.every((w, k) => after[k] === w)) fit++
    out.push({ start, value, fit })
  }
  return out
}

function pick(candidates: Candidate[], ordinal: number): { candidate: Candidate; fit: number } | null {
  if (candidates.length === 0) return null
  let best = -1
  for (const c of candidates) if (c.fit > best) best = c.fit
  const group = candidates.filter((c) => c.fit === best)
  const candidate = group[Math.min(ordinal, group.length - 1)]!
  return { candidate, fit: best }
}

function suffixCandidates(doc: Doc, rule: Extract<Rule, { kind: 'suffix' }>, field: FieldTemplate): Candidate[] {
  const out: Candidate[] = []
  for (const { first } of findAnchor(doc, rule.anchor)) {
    const anchorStart = doc.tokens[first]!.start
    let end = anchorStart
    while (end > 0 && (isSpace(doc.text.charCodeAt(end - 1)) || DEFAULT_SKIP.includes(doc.text[end - 1]!))) end--
    if (end <= 0) continue
    const line = lineOf(doc, end - 1)
    if (line !== doc.tokens[first]!.line || !lineHasWords(doc, line, rule.lineWords)) continue
    const start = cellStart(doc, end - 1)
    const value = cleanValue(doc.text.slice(start, end))
    if (!acceptable(value, field)) continue
    const fit = gapIsStrong(doc.text.slice(end, anchorStart)) === rule.strongGap ? 1 : 0
    out.push({ start, value, fit })
  }
  return out
}

function applyColumn(doc: Doc, rule: Extract<Rule, { kind: 'column' }>, field: FieldTemplate): string | null {
  const lines = doc.lineStart.length
  // Only lines holding the header's first word can be the header.
  const firstWord = rule.header.find((h) => h !== '')?.split(' ')[0]
  const candidates = firstWord ? (tokenIndex(doc).get(firstWord) ?? []).map((i) => doc.tokens[i]!.line) : []
  let previous = -1
  for (const h of candidates) {
    if (h === previous) continue
    previous = h
    const cells = cellsOf(doc, h)
    if (cells.length !== rule.header.length) continue
    if (!cells.every((c, i) => normCell(c) === rule.header[i])) continue
    const values: string[] = []
    for (let l = h + 1; l < lines; l++) {
      const row = cellsOf(doc, l)
      if (!rowFits(row, rule.signature)) break
      const cellStart = doc.lineStart[l]! + row.slice(0, rule.column).reduce((n, c) => n + c.length + 1, 0)
      const start = skipGap(doc, cellStart, '')
      if (start < 0) break
      const got = applyExtent(doc, start, rule.extent, field)
      const value = got ? cleanValue(got.value) : ''
      if (!acceptable(value, field)) break
      values.push(value)
    }
    if (values.length > 0) return values.join('\n')
  }
  return null
}

function normCell(cell: string): string {
  return wordsOf(cell).join(' ')
}

function rowFits(row: string[], signature: CellClass[]): boolean {
  if (row.length !== signature.length) return false
  for (let i = 0; i < row.length; i++) {
    const want = signature[i]!
    const got = cellClass(row[i]!)
    if (want === 'num' && got !== 'num') return false
    if (want === 'empty' && got !== 'empty') return false
    if (want === 'text' && got === 'empty') return false
  }
  return true
}

function isLabelLine(text: string, doc: Doc, line: number, variable: Span[]): boolean {
  if (text === '' || text.length > 80 || hasDigit(text) || !/\p{L}/u.test(text)) return false
  return !overlaps(variable, doc.lineStart[line]!, doc.lineEnd[line]!)
}

function findLandmarks(doc: Doc, landmark: string[], prefix = false): number[] {
  const out: number[] = []
  const key = landmark.join(' ')
  let previous = -1
  for (const { first } of findAnchor(doc, landmark)) {
    const line = doc.tokens[first]!.line
    if (line === previous) continue
    previous = line
    if (prefix) {
      // The words open the line: nothing but punctuation before them.
      if (doc.lineToken[line] !== first && doc.tokens.slice(doc.lineToken[line], first).some((t) => t.word)) continue
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
function landmarkOf(doc: Doc, line: number, variable: Span[]): { words: string[]; prefix: boolean } | null {
  const text = lineText(doc, line)
  if (isLabelLine(text, doc, line, variable)) {
    const words = wordsOf(text)
    return words.length > 0 && words.length <= 8 ? { words, prefix: false } : null
  }
  const words: string[] = []
  for (let i = doc.lineToken[line]!; i < doc.tokens.length && words.length < 6; i++) {
    const t = doc.tokens[i]!
    if (t.line !== line) break
    if (!t.word) continue
    if (!isConstantWord(doc, i, variable)) break
    words.push(t.norm)
  }
  return words.length >= 1 && words.length <= 5 ? { words, prefix: true } : null
}

function applyList(doc: Doc, rule: Extract<Rule, { kind: 'list' }>, field: FieldTemplate): string | null {
  const re = compiled(rule.pattern)
  for (const lm of findLandmarks(doc, rule.landmark, rule.prefix)) {
    const values: string[] = []
    let l = lm + 1
    while (l < doc.lineStart.length && !/[\p{L}\p{N}]/u.test(lineText(doc, l))) l++
    for (; l < doc.lineStart.length; l++) {
      const text = lineText(doc, l)
      if (text.length > MAX_PATTERN_LINE) break
      const m = re.exec(text)
      if (!m) break
      const value = cleanValue(m[1] ?? '')
      if (!acceptable(value, field)) break
      values.push(value)
    }
    if (values.length > 0) return values.join('\n')
  }
  return null
}

const patternCache = new Map<string, RegExp>()
function compiled(pattern: string): RegExp {
  let re = patternCache.get(pattern)
  if (!re) {
    re = new RegExp(pattern, 'iu')
    if (patternCache.size > 5000) patternCache.clear()
    patternCache.set(pattern, re)
  }
  return re
}

function patternMatches(doc: Doc, pattern: string, field: FieldTemplate): Array<{ line: number; value: string }> {
  const re = compiled(pattern)
  const out: Array<{ line: number; value: string }> = []
  for (let l = 0; l < doc.lineStart.length; l++) {
    if (doc.lineEnd[l]! - doc.lineStart[l]! > MAX_PATTERN_LINE) continue
    const m = re.exec(lineText(doc, l))
    if (!m) continue
    const value = cleanValue(m[1] ?? '')
    if (acceptable(value, field)) out.push({ line: l, value })
  }
  return out
}

function applyPattern(doc: Doc, rule: Extract<Rule, { kind: 'pattern' }>, field: FieldTemplate): string | null {
  const matches = patternMatches(doc, rule.pattern, field)
  if (matches.length === 0) return null
  return matches[Math.min(rule.ordinal, matches.length - 1)]!.value
}

/** The line `offset` non-blank lines below `line`, or -1. */
function lineBelow(doc: Doc, line: number, offset: number): number {
  let l = line
  let n = 0
  while (n < offset) {
    l++
    if (l >= doc.lineStart.length) return -1
    if (lineText(doc, l) !== '') n++
  }
  return l
}

function startOfCell(doc: Doc, line: number, cell: number, skipLead = false): number {
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

function applyLandmark(doc: Doc, rule: Extract<Rule, { kind: 'landmark' }>, field: FieldTemplate): string | null {
  const landmarks = findLandmarks(doc, rule.landmark, rule.prefix)
  const ordered = rule.ordinal < landmarks.length ? [landmarks[rule.ordinal]!, ...landmarks] : landmarks
  for (const lm of ordered) {
    const line = lineBelow(doc, lm, rule.offset)
    if (line < 0) continue
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

function applyPosition(doc: Doc, rule: Extract<Rule, { kind: 'position' }>, field: FieldTemplate): string | null {
  const line = lineBelow(doc, -1, rule.line + 1)
  if (line < 0) return null
  const start = startOfCell(doc, line, rule.cell, rule.skipLead)
  if (start < 0 || lineOf(doc, start) !== line || !lineHasWords(doc, line, rule.lineWords)) return null
  const got = applyExtent(doc, start, rule.extent, field)
  if (!got || got.missed) return null
  const value = cleanValue(got.value)
  return acceptable(value, field) ? value : null
}

export function describeRule(rule: Rule): string {
  switch (rule.kind) {
    case 'label':
      return `label:"${rule.anchor.join(' ')}"${rule.ordinal > 0 ? `#${rule.ordinal + 1}` : ''}`
    case 'suffix':
      return `before:"${rule.anchor.join(' ')}"`
    case 'column':
      return `column:"${rule.header[rule.column]}"`
    case 'list':
      return `list:"${rule.landmark.join(' ')}"`
    case 'pattern':
      return `line-pattern${rule.ordinal > 0 ? `#${rule.ordinal + 1}` : ''}`
    case 'landmark':
      return `landmark:"${rule.landmark.join(' ')}"+${rule.offset}`
    case 'position':
      return `position:line ${rule.line + 1}`
  }
}

/** Applies one rule; the value and a confidence, or null. */
export function applyRule(doc: Doc, rule: Rule, field: FieldTemplate): FieldMatch | null {
  let value: string | null = null
  let confidence = BASE_CONFIDENCE[rule.kind]
  switch (rule.kind) {
    case 'label': {
      const picked = pick(labelCandidates(doc, rule, field), rule.ordinal)
      if (!picked) return null
      value = picked.candidate.value
      confidence -= Math.max(0, 3 - picked.fit) * 0.08
      break
    }
    case 'suffix': {
      const picked = pick(suffixCandidates(doc, rule, field), rule.ordinal)
      if (!picked) return null
      value = picked.candidate.value
      confidence -= (1 - Math.min(1, picked.fit)) * 0.1
      break
    }
    case 'column':
      value = applyColumn(doc, rule, field)
      break
    case 'list':
      value = applyList(doc, rule, field)
      break
    case 'pattern':
      value = applyPattern(doc, rule, field)
      break
    case 'landmark':
      value = applyLandmark(doc, rule, field)
      break
    case 'position':
      value = applyPosition(doc, rule, field)
      break
  }
  if (value === null) return null
  if (field.shape === 'id' && !value.includes('\n') && !sameSkeleton(value, field.shapeOptions)) confidence -= 0.1
  if (!isStrong(field.shape) && value.length > field.sampleValue.length * 3 + 40) confidence -= 0.2
  return { value, confidence: Math.max(0.05, Math.min(1, confidence)), rule: describeRule(rule) }
}

// ── learning ──

/** Occurrences of the highlighted text in a body, whitespace-insensitive. */
function findOccurrences(doc: Doc, value: string): Span[] {
  const parts = value.trim().split(/\s+/).filter(Boolean)
  if (parts.length === 0) return []
  const body = parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+')
  // A value that starts or ends with a letter or digit must not be cut out of a longer word or number.
  const lead = /^[\p{L}\p{N}]/u.test(parts[0]!) ? '(?<![\\p{L}\\p{N}])' : ''
  const tail = /[\p{L}\p{N}]$/u.test(parts[parts.length - 1]!) ? '(?![\\p{L}\\p{N}])' : ''
  const source = `${lead}${body}${tail}`
  for (const flags of ['gu', 'giu']) {
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

function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase()
}

function chooseOccurrence(doc: Doc, spans: Span[], field: ExtractionField): Span {
  const ctx = field.context
  if (ctx?.before || ctx?.after) {
    let best = spans[Math.min(ctx.occurrence ?? 0, spans.length - 1)]!
    // Context that matches nowhere (another rendering of the body) leaves the default occurrence.
    let bestScore = Math.min(6, Math.max(1, (ctx.before?.trim().length ?? 0) + (ctx.after?.trim().length ?? 0)) - 1)
    for (const span of spans) {
      let score = 0
      if (ctx.before) {
        const before = squash(doc.text.slice(Math.max(0, span[0] - ctx.before.length * 2 - 20), span[0]))
        const want = squash(ctx.before)
        const n = commonSuffix(before, want)
        // `Total:` must not match inside `Subtotal:`: a whole match ends at a word boundary.
        score += n === want.length && /[\p{L}\p{N}]/u.test(before[before.length - n - 1] ?? '') ? n - 0.5 : n
      }
      if (ctx.after) {
        const after = squash(doc.text.slice(span[1], span[1] + ctx.after.length * 2 + 20))
        const want = squash(ctx.after)
        const n = commonPrefix(after, want)
        score += n === want.length && /[\p{L}\p{N}]/u.test(after[n] ?? '') ? n - 0.5 : n
      }
      if (score > bestScore) {
        best = span
        bestScore = score
      }
    }
    return best
  }
  return spans[Math.min(ctx?.occurrence ?? 0, spans.length - 1)]!
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

/**
 * The constant words right before a value, nearest last, stopping at another field's value.
 * A word with digits in it becomes a wildcard: `Discount (SAVE10)` anchors as `discount *`.
 */
function wordsBefore(doc: Doc, start: number, variable: Span[]): string[] {
  const out: string[] = []
  const startLine = lineOf(doc, start)
  for (let i = tokenAt(doc, start) - 1; i >= 0 && out.length < MAX_ANCHOR_WORDS; i--) {
    const t = doc.tokens[i]!
    if (startLine - t.line > 2) break
    const v = spanAt(variable, t.start, t.end)
    if (v) {
      // Another field's value of one word (an id) is a wildcard; a longer one ends the label.
      let words = 0
      let j = i
      while (j >= 0 && doc.tokens[j]!.end > v[0]) {
        if (doc.tokens[j]!.word) words++
        j--
      }
      if (words !== 1 || out[0] === WILDCARD) break
      out.unshift(WILDCARD)
      i = j + 1
      continue
    }
    if (!t.word) continue
    if (hasDigit(t.norm)) {
      if (out[0] === WILDCARD) break
      out.unshift(WILDCARD)
      continue
    }
    out.unshift(t.norm)
  }
  while (out[0] === WILDCARD) out.shift()
  return out
}

/** The constant words right after a value (possibly on the next line). */
function wordsAfter(doc: Doc, end: number, variable: Span[]): number[] {
  const out: number[] = []
  const endLine = lineOf(doc, Math.max(0, end - 1))
  for (let i = tokenAt(doc, end); i < doc.tokens.length && out.length < 3; i++) {
    const t = doc.tokens[i]!
    if (t.line - endLine > 1) break
    if (!t.word) {
      if (overlaps(variable, t.start, t.end)) break
      continue
    }
    if (!isConstantWord(doc, i, variable)) break
    out.push(i)
  }
  return out
}

function learnExtent(doc: Doc, span: Span, field: FieldTemplate, variable: Span[]): Extent[] {
  const [start, end] = span
  const value = cleanValue(doc.text.slice(start, end))
  const out: Extent[] = []
  if (doc.text.slice(start, end).includes('\n')) {
    const after = wordsAfter(doc, end, variable)
    const stop = after.length > 0 && startsLineOrCell(doc, doc.tokens[after[0]!]!.start) ? after.map((i) => doc.tokens[i]!.norm) : null
    out.push({ kind: 'lines', stop })
    return out
  }
  if (isStrong(field.shape)) {
    const m = matchShapeAt(doc.text, start, field.shape, field.shapeOptions)
    if (m !== null && cleanValue(m) === value) out.push({ kind: 'shape' })
  }
  const ce = cellEnd(doc, start)
  let rest = end
  while (rest < ce && doc.text.charCodeAt(rest) === 32) rest++
  if (rest >= ce) {
    out.push({ kind: 'cell' })
  } else {
    const stop = tokensAfter(doc, end, 2, variable)
    if (stop.length > 0) out.push({ kind: 'until', stop })
    else {
      const next = doc.tokens[tokenAt(doc, end)]
      const following = next ? spanAt(variable, next.start, next.start + 1) : undefined
      if (following && following[0] === next!.start) {
        const followingText = doc.text.slice(following[0], following[1])
        const { shape } = detectShape(followingText)
        const m = isStrong(shape) && shape !== 'id' ? matchShapeAt(doc.text, following[0], shape, { withTime: true, currencySuffix: true }) : null
        if (m !== null) out.push({ kind: 'until-shape', shape, skeleton: skeletonOf(m) })
      }
      if (next && next.start < ce && hasDigit(next.norm) && !hasDigit(value)) out.push({ kind: 'until-digit' })
    }
  }
  return out
}

function sameValue(got: string | null, want: string): boolean {
  return got !== null && squash(got) === squash(want)
}

function learnLabel(doc: Doc, span: Span, field: FieldTemplate, variable: Span[], extents: Extent[]): Rule | null {
  const before = wordsBefore(doc, span[0], variable)
  if (before.length === 0) return null
  // The gap between the label (its last word, or the wildcard) and the value holds only separators.
  let gapStart = span[0]
  for (let i = tokenAt(doc, span[0]) - 1; i >= 0; i--) {
    if (doc.tokens[i]!.word) {
      gapStart = doc.tokens[i]!.end
      break
    }
  }
  const gap = doc.text.slice(gapStart, span[0])
  if (/[\p{L}\p{N}]/u.test(gap)) return null
  const lead = doc.text[span[0]]!
  const skip = [...new Set((DEFAULT_SKIP + gap.replace(/[\s\p{L}\p{N}]/gu, '')).split(''))].filter((c) => c !== lead).join('')
  const ce = cellEnd(doc, span[1])
  const afterTokens = span[1] >= ce ? [] : tokensAfter(doc, span[1], 2, variable)
  let best: Rule | null = null
  let bestScore = Infinity
  for (const extent of extents) {
    for (let n = 1; n <= before.length; n++) {
      const anchor = before.slice(before.length - n)
      if (anchor[0] === WILDCARD) continue
      const rule: Extract<Rule, { kind: 'label' }> = {
        kind: 'label',
        anchor,
        ordinal: 0,
        skip,
        extent,
        strongGap: gapIsStrong(gap),
        atStart: false,
        after: afterTokens,
      }
      const located = findAnchor(doc, anchor).find(({ last }) => doc.tokens[last]!.end <= span[0] && skipGap(doc, doc.tokens[last]!.end, skip) === span[0])
      if (!located) continue
      // A label on the line above is that whole line (`Order number` over `12345`), not its last words.
      const labelLine = doc.tokens[located.first]!.line
      if (labelLine !== lineOf(doc, span[0]) && !startsLineOrCell(doc, doc.tokens[located.first]!.start)) continue
      rule.atStart = startsLineOrCell(doc, doc.tokens[located.first]!.start)
      const candidates = labelCandidates(doc, rule, field)
      let top = -1
      for (const c of candidates) if (c.fit > top) top = c.fit
      const group = candidates.filter((c) => c.fit === top)
      const ordinal = group.findIndex((c) => c.start === span[0])
      if (ordinal < 0 || !sameValue(group[ordinal]!.value, doc.text.slice(span[0], span[1]))) continue
      rule.ordinal = ordinal
      // Best: a whole label (from the start of its line or cell) that finds only this value. A
      // shared word (`number` in Order number and Tracking number) is a last choice.
      const score = ordinal * 100 + Math.min(candidates.length, 9) * 10 + (rule.atStart ? 0 : 5) + n * 0.1
      if (!best || score < bestScore) {
        best = rule
        bestScore = score
      }
    }
  }
  return best
}

function learnSuffix(doc: Doc, span: Span, field: FieldTemplate, variable: Span[]): Rule | null {
  const after = wordsAfter(doc, span[1], variable)
  const line = lineOf(doc, span[0])
  // A suffix is a word on the value's own line (`3 items`, `$25.00 due`); the next line is a landmark's job.
  const sameLine = after.filter((i) => doc.tokens[i]!.line === line)
  if (sameLine.length === 0) return null
  const gap = doc.text.slice(span[1], doc.tokens[sameLine[0]!]!.start)
  if (/[\p{L}\p{N}]/u.test(gap)) return null
  // The value must start its line or cell, where the rule starts it again.
  if (!startsLineOrCell(doc, span[0])) return null
  const lineWords = lineWordsOf(doc, line, span, variable)
  for (let n = 1; n <= sameLine.length; n++) {
    const rule: Extract<Rule, { kind: 'suffix' }> = {
      kind: 'suffix',
      anchor: sameLine.slice(0, n).map((i) => doc.tokens[i]!.norm),
      ordinal: 0,
      strongGap: gapIsStrong(gap),
      lineWords,
    }
    const candidates = suffixCandidates(doc, rule, field)
    let top = -1
    for (const c of candidates) if (c.fit > top) top = c.fit
    const group = candidates.filter((c) => c.fit === top)
    const ordinal = group.findIndex((c) => c.start <= span[0] && sameValue(c.value, doc.text.slice(span[0], span[1])))
    if (ordinal >= 0) {
      rule.ordinal = ordinal
      return rule
    }
  }
  return null
}

function learnColumn(doc: Doc, span: Span, field: FieldTemplate, variable: Span[], extents: Extent[]): Rule | null {
  const cell = cellBounds(doc, span[0])
  if (cell.count < 2) return null
  const lead = doc.text.slice(cell.start, span[0])
  if (lead.trim() !== '') return null
  const extent = extents.find((e) => e.kind !== 'lines')
  if (!extent) return null
  const row = cellsOf(doc, cell.line)
  const signature = row.map(cellClass)
  // Two-column rows of text are key–value tables, not line items: line items there carry a number.
  if (row.length < 3 && !signature.includes('num')) return null
  // 'Total | | $210.01' under 'Tax | | $16.01' is a summary (label, gap, value), not a line item.
  if (row.slice(0, cell.index).some((c) => c.trim() === '')) return null
  for (let h = cell.line - 1; h >= 0 && h >= cell.line - 40; h--) {
    const cells = cellsOf(doc, h)
    if (cells.length !== row.length || lineText(doc, h) === '') return null
    const isHeader = cells.every((c) => c.trim() === '' || (!hasDigit(c) && c.length <= 40)) && cells.some((c) => c.trim() !== '')
    if (isHeader && !overlaps(variable, doc.lineStart[h]!, doc.lineEnd[h]!)) {
      const rule: Rule = { kind: 'column', header: cells.map(normCell), column: cell.index, signature, extent }
      const got = applyColumn(doc, rule, field)
      if (got === null) return null
      const want = squash(doc.text.slice(span[0], span[1]))
      return got.split('\n').some((v) => squash(v) === want) ? rule : null
    }
    if (!rowFits(cells, signature)) return null
  }
  return null
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * A line pattern for a repeated section: the line's fixed text literal, numbers and other fields'
 * values free, the value captured. `2 x Blue Widget — $10.00` → `^\s*\S*\d\S*\s+x\s+(.+?)\s*—\s*\S*\d\S*\s*$`.
 */
function linePattern(doc: Doc, line: number, span: Span, variable: Span[]): string | null {
  const ls = doc.lineStart[line]!
  const le = doc.lineEnd[line]!
  if (le - ls > MAX_PATTERN_LINE || span[1] > le) return null
  type Piece = [number, number, string]
  // Text may gain words from one email to the next (`Student` → `Child (under 12)`); ids and amounts do not.
  const free = (s: number, e: number) => (detectShape(doc.text.slice(s, e)).shape === 'text' ? '.+?' : '\\S+?')
  const pieces: Piece[] = [[span[0], span[1], `(${free(span[0], span[1])})`]]
  for (let i = spanIndexFrom(variable, ls); i < variable.length && variable[i]![0] < le; i++) {
    const [s, e] = variable[i]!
    if (s >= ls && e <= le && (e <= span[0] || s >= span[1])) pieces.push([s, e, free(s, e)])
  }
  const numbers = /\S*\d\S*/g
  const text = doc.text.slice(ls, le)
  let m: RegExpExecArray | null
  while ((m = numbers.exec(text)) !== null) {
    const s = ls + m.index
    const e = s + m[0].length
    if (!pieces.some(([ps, pe]) => s < pe && e > ps)) pieces.push([s, e, '\\S*\\d\\S*'])
  }
  pieces.sort((a, b) => a[0] - b[0])
  let pattern = '^\\s*'
  let pos = ls
  let freeCount = 0
  for (const [s, e, re] of pieces) {
    if (s < pos) return null
    pattern += literal(doc.text.slice(pos, s))
    pattern += re
    if (!re.startsWith('(')) freeCount++
    pos = e
  }
  pattern += `${literal(doc.text.slice(pos, le))}\\s*$`
  return freeCount > 6 ? null : pattern
}

/** Fixed text of a line pattern: whitespace of any width, punctuation and words as written. */
function literal(text: string): string {
  const trimmed = text.trim()
  if (trimmed === '') return text === '' ? '' : '\\s+'
  const body = trimmed
    .split(/\s+/)
    .map((w) => (/^\p{L}{4,}$/u.test(w) && normWord(w) !== w.toLowerCase() ? `${escapeRe(w.slice(0, -1))}s?` : /^\p{L}{3,}$/u.test(w) ? `${escapeRe(w)}s?` : escapeRe(w)))
    .join('\\s+')
  return `${/^\s/.test(text) ? '\\s+' : ''}${body}${/\s$/.test(text) ? '\\s+' : ''}`
}

function learnList(doc: Doc, span: Span, field: FieldTemplate, variable: Span[], repeated: boolean): Rule | null {
  const line = lineOf(doc, span[0])
  if (lineOf(doc, span[1]) !== line) return null
  const pattern = linePattern(doc, line, span, variable)
  // A line that is nothing but the value has no shape to recognise its siblings by.
  if (!pattern || /^\^\\s\*\((?:\.\+\?|\\S\+\?)\)\\s\*\$$/.test(pattern)) return null
  const re = compiled(pattern)
  const fits = (l: number) => doc.lineEnd[l]! - doc.lineStart[l]! <= MAX_PATTERN_LINE && re.test(lineText(doc, l))
  let first = line
  while (first > 0 && fits(first - 1)) first--
  let last = line
  while (last + 1 < doc.lineStart.length && fits(last + 1)) last++
  // Only a run of look-alike lines, a list marker, or another body shows a repeated section.
  if (last === first && !repeated && !LIST_MARKER.test(lineText(doc, line))) return null
  let lm = first - 1
  while (lm >= 0 && lineText(doc, lm) === '') lm--
  // The landmark is the nearest line of fixed text above the run (a rule line like ---- is skipped).
  while (lm >= 0 && !/[\p{L}\p{N}]/u.test(lineText(doc, lm))) lm--
  const anchor = lm >= 0 ? landmarkOf(doc, lm, variable) : null
  if (!anchor) return null
  const rule: Rule = { kind: 'list', landmark: anchor.words, pattern, ...(anchor.prefix ? { prefix: true } : {}) }
  const got = applyList(doc, rule, field)
  const want = squash(doc.text.slice(span[0], span[1]))
  return got !== null && got.split('\n').some((v) => squash(v) === want) ? rule : null
}

function learnPattern(doc: Doc, span: Span, field: FieldTemplate, variable: Span[]): Rule | null {
  const line = lineOf(doc, span[0])
  if (lineOf(doc, span[1]) !== line || doc.lineEnd[line]! - doc.lineStart[line]! > MAX_PATTERN_LINE) return null
  // Without fixed text on the line (a word, or punctuation such as quotes around the value) the
  // pattern would match any line.
  const ls = doc.lineStart[line]!
  let fixed = doc.text.slice(ls, span[0]) + doc.text.slice(span[1], doc.lineEnd[line])
  for (let i = spanIndexFrom(variable, ls); i < variable.length && variable[i]![0] < doc.lineEnd[line]!; i++) {
    const [s, e] = variable[i]!
    if (s >= ls && e <= doc.lineEnd[line]!) fixed = fixed.replace(doc.text.slice(s, e), '')
  }
  if (!/[^\s\d]/u.test(fixed.replace(/\S*\d\S*/g, ''))) return null
  const pattern = linePattern(doc, line, span, variable)
  if (!pattern) return null
  const matches = patternMatches(doc, pattern, field)
  const want = doc.text.slice(span[0], span[1])
  const ordinal = matches.findIndex((m) => m.line === line && sameValue(m.value, want))
  return ordinal < 0 ? null : { kind: 'pattern', pattern, ordinal }
}

function learnLandmarks(doc: Doc, span: Span, field: FieldTemplate, variable: Span[], extents: Extent[]): Rule[] {
  const line = lineOf(doc, span[0])
  const cell = cellBounds(doc, span[0])
  const lead = doc.text.slice(cell.start, span[0]).trim()
  const skipLead = lead !== ''
  if (skipLead && !LEAD.test(lead)) return []
  // Words before the value are its line's label; words after it belong to the next value.
  const lineWords = lineWordsOf(doc, line, span, variable, true)
  const rules: Rule[] = []
  let offset = 0
  for (let l = line - 1; l >= 0 && l >= line - 8 && rules.length < 2; l--) {
    const text = lineText(doc, l)
    if (text === '') continue
    offset++
    const anchor = landmarkOf(doc, l, variable)
    if (!anchor) continue
    const landmark = anchor.words
    const ordinal = findLandmarks(doc, landmark, anchor.prefix).indexOf(l)
    if (ordinal < 0) continue
    for (const extent of extents) {
      const rule: Rule = { kind: 'landmark', landmark, ...(anchor.prefix ? { prefix: true } : {}), ordinal, offset, cell: cell.index, extent, lineWords, skipLead }
      if (sameValue(applyLandmark(doc, rule, field), doc.text.slice(span[0], span[1]))) {
        rules.push(rule)
        break
      }
    }
  }
  return rules
}

function learnPosition(doc: Doc, span: Span, field: FieldTemplate, variable: Span[], extents: Extent[]): Rule | null {
  const line = lineOf(doc, span[0])
  const cell = cellBounds(doc, span[0])
  const lead = doc.text.slice(cell.start, span[0]).trim()
  const skipLead = lead !== ''
  if (skipLead && !LEAD.test(lead)) return null
  let index = -1
  for (let l = 0; l <= line; l++) if (lineText(doc, l) !== '') index++
  const lineWords = lineWordsOf(doc, line, span, variable, true)
  for (const extent of extents) {
    const rule: Rule = { kind: 'position', line: index, cell: cell.index, extent, lineWords, skipLead }
    if (sameValue(applyPosition(doc, rule, field), doc.text.slice(span[0], span[1]))) return rule
  }
  return null
}

function learnRules(doc: Doc, span: Span, field: FieldTemplate, variable: Span[], view: View): Rule[] {
  const others = variable.filter((s) => s[1] <= span[0] || s[0] >= span[1])
  const extents = learnExtent(doc, span, field, others)
  const rules: Rule[] = []
  const push = (rule: Rule | null) => {
    if (rule) rules.push(rule)
  }
  if (view !== 'subject') {
    const repeated = Object.values(field.rules).some((list) => list?.some((r) => r.kind === 'column' || r.kind === 'list'))
    push(learnColumn(doc, span, field, others, extents))
    push(learnList(doc, span, field, others, repeated))
  }
  push(learnLabel(doc, span, field, others, extents))
  push(learnSuffix(doc, span, field, others))
  push(learnPattern(doc, span, field, others))
  if (view !== 'subject') {
    rules.push(...learnLandmarks(doc, span, field, others, extents))
    push(learnPosition(doc, span, field, others, extents))
  }
  return rules
}

function guessDayFirst(value: string): boolean | undefined {
  const m = /(\d{1,2})[-/.](\d{1,2})[-/.](\d{2,4})/.exec(value)
  if (!m) return undefined
  if (+m[1]! > 12) return true
  if (+m[2]! > 12) return false
  return undefined
}

/** Learns a template from the sample's rendered bodies and the highlighted fields. */
export function learnTemplate(docs: Docs, fields: ExtractionField[]): Template {
  const templates: FieldTemplate[] = fields.map((f) => {
    const { shape, options } = detectShape(f.value, f.type)
    const t: FieldTemplate = { name: f.name, sampleValue: cleanValue(f.value), shape, shapeOptions: options, rules: {} }
    if (f.type) t.type = f.type
    const dayFirst = guessDayFirst(f.value)
    if (dayFirst !== undefined) t.dayFirst = dayFirst
    return t
  })
  for (const view of ['html', 'text', 'subject'] as const) {
    const doc = docs[view]
    if (!doc) continue
    const found = fields.map((f) => findOccurrences(doc, f.value))
    const spans: Array<Span | null> = fields.map((f, i) => (found[i]!.length > 0 ? chooseOccurrence(doc, found[i]!, f) : null))
    // Every occurrence of a highlighted value is variable text, never an anchor; so are dates, amounts, links.
    const variable = mergeSpans([...found.flatMap((list) => list.slice(0, 50)), ...findShapeSpans(doc.text)])
    fields.forEach((_, i) => {
      const span = spans[i]
      if (!span) return
      // The subject is only a fallback for values the body does not show.
      if (view === 'subject' && (templates[i]!.rules.html?.length || templates[i]!.rules.text?.length)) return
      const rules = learnRules(doc, span, templates[i]!, variable, view)
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
  return { version: 1, fields: templates, fixed: [...fixed] }
}

/** Which learned rules to try on which of the target's bodies, best first. Bodies are built on first use. */
function plan(field: FieldTemplate, docs: Docs): Array<[View, Rule[]]> {
  const out: Array<[View, Rule[]]> = []
  const html = 'html' in docs
  const text = 'text' in docs
  const r = field.rules
  if (html && r.html) out.push(['html', r.html])
  if (text && r.text) out.push(['text', r.text])
  if (html && !r.html && r.text) out.push(['html', r.text])
  if (text && r.html) out.push(['text', r.html])
  if (html && r.html && r.text) out.push(['html', r.text])
  if ('subject' in docs && r.subject) out.push(['subject', r.subject])
  return out
}

/** Whether a label rule's words appear nowhere in the document: then the field is most likely absent. */
function labelAbsent(doc: Doc, rules: Rule[]): boolean {
  const index = tokenIndex(doc)
  return rules.some((r) => r.kind === 'label' && r.anchor.some((w) => w !== WILDCARD && !index.has(w)))
}

export function extractField(field: FieldTemplate, docs: Docs, fixed: ReadonlySet<string> = new Set(), deadline = Infinity): FieldMatch | null {
  let bodyWithoutLabel = false
  for (const [view, rules] of plan(field, docs)) {
    if (performance.now() > deadline) return null
    // The HTML and text bodies carry the same content: a label missing from one is missing from both.
    if (bodyWithoutLabel && view !== 'subject') continue
    const doc = docs[view]
    if (!doc) continue
    // Positions are a last resort, never a way around a label the email no longer has.
    const absent = labelAbsent(doc, rules)
    for (const rule of rules) {
      const unlabelled = rule.kind === 'landmark' || rule.kind === 'position'
      if (absent && unlabelled) continue
      const match = applyRule(doc, rule, field)
      // Without a label, a line the sample showed as fixed text is the template, not a value.
      if (match && !(unlabelled && fixed.has(squash(match.value)))) return match
    }
    if (absent && view !== 'subject' && rules === (view === 'html' ? field.rules.html : field.rules.text)) bodyWithoutLabel = true
  }
  return null
}

/** Rendered bodies → documents, each built the first time a rule reads it. */
export function lazyDocs(sources: Partial<Record<View, () => string>>): Docs {
  const docs: Docs = {}
  for (const [view, source] of Object.entries(sources) as Array<[View, () => string]>) {
    let doc: Doc | undefined
    Object.defineProperty(docs, view, { enumerable: true, get: () => (doc ??= buildDoc(source())) })
  }
  return docs
}
