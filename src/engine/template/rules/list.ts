import { cellsOf, cleanValue, lineOf, lineText, type Doc } from '../../doc'
import { squash, wordsOf } from '../anchors'
import { acceptable } from '../extent'
import type { Span } from '../spans'
import type { FieldTemplate, Rule, RuleHandler } from '../types'
import { findLandmarks, landmarkOf, lineKind } from './landmark'
import { compiled, linePattern, MAX_PATTERN_LINE } from './pattern'
import { isItemSubLine, isSummary, pastOptionLines } from './rows'

/** A bullet, a list number or a quantity (`2 x`, `1×`) starts a line of a repeated section. */
const LIST_MARKER = /^\s*(?:[•·▪◦*–-]|\d{1,2}[.)]|\d{1,3}\s?[x×])\s+\S/

/** A heading that counts the lines under it: `Resources (3):`, `Participants (12)`. */
const COUNTED_HEADING = /\((\d{1,3})\)\s*:?\s*$/

/**
 * The lines a counted heading announces, each a value; null when fewer follow it. A blank line may
 * part them from the heading. More lines than it counts, up to a blank line: the lines of one form
 * that the first item has not, as many as there are lines too many, are details under some items
 * (an achievement's `0.70 km · 5.8% avg grade · 4:08`); with no such kind, none is read.
 */
function countedLines(doc: Doc, heading: number, field: FieldTemplate, detailKind?: string): { values: string[]; details?: string } | null {
  const n = Number(COUNTED_HEADING.exec(lineText(doc, heading))?.[1] ?? 0)
  if (n < 1) return null
  const end = doc.lineStart.length
  let l = heading + 1
  if (l < end && lineText(doc, l) === '') l++
  const block: number[] = []
  for (; l < end && block.length < n * 3; l++) {
    if (lineText(doc, l) === '' || doc.lineTab[l]) break
    block.push(l)
  }
  // Lines too many that cannot be told from the items: which are the items is not known.
  const kinds = block.map((b) => lineKind(lineText(doc, b)))
  const details = block.length <= n ? null : detailKind && kinds.slice(1).includes(detailKind) ? detailKind : detailKindOf(kinds, block.length - n)
  if (block.length > n && !details) return null
  const lines = details ? block.filter((_, i) => i === 0 || kinds[i] !== details) : block
  if (lines.length !== n) return null
  const values = lines.map((b) => cleanValue(lineText(doc, b)))
  return values.every((v) => acceptable(v, field)) ? { values, ...(details ? { details } : {}) } : null
}

/** The kind (lineKind) of exactly `count` of the lines that the first line is not of, if one kind is. */
function detailKindOf(kinds: string[], count: number): string | null {
  const tally = new Map<string, number>()
  for (const k of kinds) tally.set(k, (tally.get(k) ?? 0) + 1)
  const found = [...tally].filter(([k, c]) => c === count && k !== kinds[0])
  return found.length === 1 ? found[0]![0] : null
}

/** The value after the heading's words and a colon on their line, when they do not count it. */
function singleLabelled(doc: Doc, line: number, words: string[], field: FieldTemplate): string | null {
  const text = lineText(doc, line)
  const colon = text.indexOf(':')
  if (colon < 0 || COUNTED_HEADING.test(text) || wordsOf(text.slice(0, colon)).join(' ') !== words.join(' ')) return null
  const value = cleanValue(text.slice(colon + 1))
  return value !== '' && acceptable(value, field) ? value : null
}

function applyList(doc: Doc, rule: Extract<Rule, { kind: 'list' }>, field: FieldTemplate): { value: string; cut?: string } | null {
  if (rule.counted) {
    const headings = findLandmarks(doc, rule.landmark, true)
    for (const lm of headings) {
      const got = countedLines(doc, lm, field, rule.details)
      if (got) return { value: got.values.join('\n') }
    }
    // One of them, labelled in the singular on its own line (`Resource: Conference Room A`).
    for (const lm of headings) {
      const value = singleLabelled(doc, lm, rule.landmark, field)
      if (value) return { value }
    }
    return null
  }
  const re = compiled(rule.pattern)
  const item = (l: number) => (l < doc.lineStart.length && lineText(doc, l).length <= MAX_PATTERN_LINE ? re.exec(lineText(doc, l)) : null)
  for (const lm of findLandmarks(doc, rule.landmark, rule.prefix)) {
    const values: string[] = []
    let l = lm + 1
    while (l < doc.lineStart.length && !/[\p{L}\p{N}]/u.test(lineText(doc, l))) l++
    for (; l < doc.lineStart.length; l++) {
      if (lineText(doc, l).length > MAX_PATTERN_LINE) break
      let m = item(l)
      if (!m && values.length > 0) {
        // An item's option lines under it (`Location: London, UK`), when another item follows them.
        const next = pastOptionLines(l, doc.lineStart.length, (k) => isItemSubLine(doc, k), (k) => item(k) !== null)
        if (next >= 0) m = item((l = next))
      }
      if (!m) break
      const value = cleanValue(m[1] ?? '')
      if (!acceptable(value, field)) break
      values.push(value)
    }
    if (values.length > 0) {
      // A row of cells like the items' right after them, not a summary, may be an item laid out
      // otherwise (a discount cell more): the items read may not be all.
      const cut = l < doc.lineStart.length && rowLikeItems(doc, l, l - 1)
      return { value: values.join('\n'), ...(cut ? { cut: `the items end at a row that does not read like them (${values.length} read)` } : {}) }
    }
  }
  return null
}

function rowLikeItems(doc: Doc, line: number, item: number): boolean {
  if (!doc.lineTab[line] || !doc.lineTab[item] || isSummary(doc, line)) return false
  return Math.abs(cellsOf(doc, line).length - cellsOf(doc, item).length) <= 1
}

/**
 * Lines of text under a heading that counts them (`Resources (2):` over two names), the value the
 * first and the whole line: a list, though its lines have no form of their own. Read as many lines
 * as the heading counts. A sender that shows one of them may label it instead (`Resource: Conference
 * Room A`): that line is read as the one value. A heading that does not count them (`Resource:` over
 * one line) is not this list.
 */
function learnCountedList(doc: Doc, span: Span, field: FieldTemplate): Rule | null {
  const line = lineOf(doc, span[0])
  if (doc.lineTab[line] || squash(lineText(doc, line)) !== squash(doc.text.slice(span[0], span[1]))) return null
  const heading = line - 1 >= 0 && lineText(doc, line - 1) === '' ? line - 2 : line - 1
  if (heading < 0 || doc.lineTab[heading]) return null
  const text = lineText(doc, heading)
  const m = COUNTED_HEADING.exec(text)
  const got = m && Number(m[1]) >= 2 ? countedLines(doc, heading, field) : null
  if (!got) return null
  const words = wordsOf(text.slice(0, m!.index))
  if (words.length === 0 || words.length > 4) return null
  return { kind: 'list', landmark: words, prefix: true, pattern: '^\\s*(.+?)\\s*$', counted: true, ...(got.details ? { details: got.details } : {}) }
}

/**
 * Parts of the value's line that the next line leaves out: a separator and words that line does not
 * have (` / Maria Semple` in `Where’d You Go, Bernadette / Maria Semple. Barcode: …` over `Moana.
 * Barcode: …`), data nobody highlighted that some items have and others not.
 */
function absentParts(doc: Doc, line: number, span: Span, variable: Span[]): Span[] {
  const next = line + 1
  if (next >= doc.lineStart.length || lineText(doc, next) === '') return []
  const theirs = new Set(wordsOf(lineText(doc, next)))
  const ls = doc.lineStart[line]!
  const text = lineText(doc, line)
  const out: Span[] = []
  // A separator, then words the next line lacks, up to the next punctuation or word it has.
  const part = /\s*[/|·–—(]\s*/gu
  const word = /[\p{L}'’-]+/uy
  const gap = /\s+/y
  let m: RegExpExecArray | null
  while ((m = part.exec(text)) !== null) {
    const s = ls + m.index
    let e = s + m[0].length
    let pos = e - ls
    for (;;) {
      word.lastIndex = pos
      const w = word.exec(text)
      if (!w || wordsOf(w[0]).some((x) => theirs.has(x))) break
      e = ls + word.lastIndex
      gap.lastIndex = word.lastIndex
      const g = gap.exec(text)
      if (!g) break
      pos = word.lastIndex + g[0].length
    }
    if (e === s + m[0].length || (s < span[1] && e > span[0]) || variable.some(([vs, ve]) => vs < e && ve > s)) continue
    out.push([s, e])
  }
  return out
}

/** A line of an answer: any text but another question. */
const ANSWER_LINE = '^(?![^\\n]*\\?\\s*$)\\s*(.+?)\\s*$'
const ANSWER_RE = new RegExp(ANSWER_LINE, 'u')

/**
 * Whether the value's line is the first of two or more short lines of words, without digits,
 * between a question (a line ending in `?`) and the next: the choices a form's respondent ticked.
 * (Where the next question does not end in `?`, its line reads like a choice: no list.)
 */
function choicesUnderQuestion(doc: Doc, line: number): boolean {
  const question = (l: number) => /\?\s*$/.test(lineText(doc, l))
  // (Text another sample shows otherwise is variable, and choices are: only the form of a line
  // tells a choice from an address or a date.)
  const choice = (l: number) => l < doc.lineStart.length && ANSWER_RE.test(lineText(doc, l)) && !/[\d@]/.test(lineText(doc, l)) && lineText(doc, l).trim().split(/\s+/).length <= 6
  let q = line - 1
  while (q >= 0 && lineText(doc, q).trim() === '') q--
  let end = line
  while (choice(end)) end++
  let next = end
  while (next < doc.lineStart.length && lineText(doc, next).trim() === '') next++
  return q >= 0 && question(q) && end - line >= 2 && next < doc.lineStart.length && question(next)
}

export function learnList(doc: Doc, span: Span, field: FieldTemplate, variable: Span[], repeated: boolean): Rule | null {
  const line = lineOf(doc, span[0])
  if (lineOf(doc, span[1]) !== line) return null
  const counted = learnCountedList(doc, span, field)
  if (counted) return counted
  let pattern = linePattern(doc, line, span, variable)
  // A line that is nothing but the value has no shape to recognise its siblings by, unless it
  // answers a question with several lines of words (a form's `Which services…?`, one choice a line).
  if (pattern && /^\^\\s\*\((?:\.\+\?|\\S\+\?)\)\\s\*\$$/.test(pattern)) pattern = choicesUnderQuestion(doc, line) ? ANSWER_LINE : null
  if (!pattern) return null
  const fitsWith = (re: RegExp) => (l: number) => doc.lineEnd[l]! - doc.lineStart[l]! <= MAX_PATTERN_LINE && re.test(lineText(doc, l))
  let fits = fitsWith(compiled(pattern))
  // The next line reads like this one but for a part it leaves out: that part is optional.
  if (line + 1 < doc.lineStart.length && !fits(line + 1)) {
    const optional = absentParts(doc, line, span, variable)
    const loose = optional.length > 0 ? linePattern(doc, line, span, variable, undefined, optional) : null
    if (loose && fitsWith(compiled(loose))(line + 1)) {
      pattern = loose
      fits = fitsWith(compiled(pattern))
    }
  }
  let first = line
  while (first > 0 && fits(first - 1)) first--
  let last = line
  while (last + 1 < doc.lineStart.length && fits(last + 1)) last++
  // Only a run of look-alike lines, a list marker, or another body shows a repeated section.
  if (last === first && !repeated && !LIST_MARKER.test(lineText(doc, line))) return null
  // The user highlights a list's first item (as for rows): look-alike lines above the value's
  // make them the lines of one block (an address whose town is the value), not a list.
  if (first < line) return null
  let lm = first - 1
  while (lm >= 0 && lineText(doc, lm) === '') lm--
  // The landmark is the nearest line of fixed text above the run (a rule line like ---- is skipped).
  while (lm >= 0 && !/[\p{L}\p{N}]/u.test(lineText(doc, lm))) lm--
  const anchor = lm >= 0 ? landmarkOf(doc, lm, variable) : null
  if (!anchor) return null
  const rule: Rule = { kind: 'list', landmark: anchor.words, pattern, ...(anchor.prefix ? { prefix: true } : {}) }
  const got = applyList(doc, rule, field)
  const want = squash(doc.text.slice(span[0], span[1]))
  return got !== null && got.value.split('\n').some((v) => squash(v) === want) ? rule : null
}

export const listRule: RuleHandler<'list'> = {
  baseConfidence: 0.9,
  apply: (doc, rule, field) => {
    const got = applyList(doc, rule, field)
    return got ? { value: got.value, penalty: got.cut ? 0.3 : 0, ...(got.cut ? { cut: got.cut } : {}) } : null
  },
  describe: (rule) => `list:"${rule.landmark.join(' ')}"${rule.counted ? ' (counted)' : ''}`,
}
