import { lineOf, normWord, tokenAt, type Doc } from '../doc'
import { hasDigit } from '../shapes'
import { overlaps, spanAt, type Span } from './spans'

const MAX_ANCHOR_WORDS = 4
const MAX_ANCHOR_HITS = 2_000
export const DEFAULT_SKIP = ':|=>»•·–—*'

const WORD = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu
export function wordsOf(text: string): string[] {
  return (text.match(WORD) ?? []).map(normWord)
}

/**
 * A title before a person's name (`Ms Ngozi Álvarez`, `Herr Müller`, `Sra. Peña`): it changes
 * with the person, so it is neither fixed text around a value nor a landmark.
 */
const TITLES = 'Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Herr|Frau|Mme|Mlle|Sr|Sra|Srta|Dhr|Mevr'
export const HONORIFIC = new RegExp(`^(?:${TITLES})$`, 'i')
/** Any titles and the space after them (`Ms Dr`), in a line pattern. */
export const HONORIFIC_SOURCE = `(?:(?:${TITLES})\\.?\\s+)+`
/** A capitalised title that ends a text, before the name that follows it. */
export const TITLE_BEFORE = new RegExp(`(?<![\\p{L}\\p{N}])(?:(?:${TITLES})\\.?\\s+)+$`, 'u')

/** Word tokens that read as fixed template text: no digits, not another field's value. */
export function isConstantWord(doc: Doc, i: number, variable: Span[]): boolean {
  const t = doc.tokens[i]!
  return t.word && !hasDigit(t.norm) && !overlaps(variable, t.start, t.end)
}

const indexCache = new WeakMap<Doc, Map<string, number[]>>()
export function tokenIndex(doc: Doc): Map<string, number[]> {
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
export const WILDCARD = '*'

/** Every place the anchor's words appear in a row (punctuation between them ignored). */
export function findAnchor(doc: Doc, anchor: string[]): Array<{ first: number; last: number }> {
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

/**
 * Whether a word token opens its line: nothing but punctuation before it. Scanned from the line's
 * start and stopping at the first word, so a long line with many candidates costs once per check.
 */
export function opensLine(doc: Doc, token: number): boolean {
  let first = doc.lineToken[doc.tokens[token]!.line]!
  while (first < token && !doc.tokens[first]!.word) first++
  return first === token
}

/** Whether every word of an anchor (wildcards aside) appears somewhere in the email. */
export function anchorShown(doc: Doc, anchor: string[]): boolean {
  const index = tokenIndex(doc)
  return anchor.every((w) => w === WILDCARD || index.has(w))
}

/** Constant words of a line outside a span: what a rule without a label checks the line by. */
export function lineWordsOf(doc: Doc, line: number, span: Span, variable: Span[], beforeOnly = false): string[] {
  const out: string[] = []
  for (let i = doc.lineToken[line]!; i < doc.tokens.length; i++) {
    const t = doc.tokens[i]!
    if (t.line !== line || (beforeOnly && t.start >= span[0])) break
    if (t.start < span[1] && t.end > span[0]) continue
    // A code of capitals (a state, a postcode's letters) is data that changes, not the line's words.
    if (isConstantWord(doc, i, variable) && !/^\p{Lu}{1,3}$/u.test(doc.text.slice(t.start, t.end))) out.push(t.norm)
  }
  return out
}

/** Whether the words appear in the line, in order (the line may hold more). */
export function lineHasWords(doc: Doc, line: number, words: string[]): boolean {
  if (words.length === 0) return true
  let k = 0
  for (let i = doc.lineToken[line]!; i < doc.tokens.length && k < words.length; i++) {
    const t = doc.tokens[i]!
    if (t.line !== line) break
    if (t.norm === words[k]) k++
  }
  return k === words.length
}

export function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13
}

/** Whether only whitespace and punctuation lie between the start of the line or cell and an offset. */
export function startsLineOrCell(doc: Doc, offset: number): boolean {
  // A label does not sit after a hundred separators: the scan stays short on hostile lines.
  for (let i = offset - 1; i >= 0 && i >= offset - 100; i--) {
    const c = doc.text.charCodeAt(i)
    if (c === 10 || c === 9) return true
    if (c === 32) continue
    if (/[\p{L}\p{N}]/u.test(doc.text[i]!)) return false
  }
  return offset <= 100
}

export function gapIsStrong(gap: string): boolean {
  return /[\t\n:|=]/.test(gap)
}

/** Skips separators after an anchor; returns where the value starts, or -1. */
export function skipGap(doc: Doc, pos: number, skip: string): number {
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
export function cellEnd(doc: Doc, pos: number): number {
  const line = lineOf(doc, pos)
  const le = doc.lineEnd[line]!
  if (!doc.lineTab[line]) return le
  for (let i = pos; i < le; i++) if (doc.text.charCodeAt(i) === 9) return i
  return le
}

/** Start of the cell holding `pos`, likewise bounded by its line. */
export function cellStart(doc: Doc, pos: number): number {
  const line = lineOf(doc, pos)
  const ls = doc.lineStart[line]!
  if (!doc.lineTab[line]) return ls
  for (let i = pos - 1; i >= ls; i--) if (doc.text.charCodeAt(i) === 9) return i + 1
  return ls
}

/** Tokens following an offset on the same line, up to n, or [] if one of them is variable. */
export function tokensAfter(doc: Doc, offset: number, n: number, variable: Span[]): string[] {
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

/**
 * The constant words right before a value, nearest last, stopping at another field's value.
 * A word with digits in it becomes a wildcard: `Discount (SAVE10)` anchors as `discount *`.
 */
export function wordsBefore(doc: Doc, start: number, variable: Span[]): string[] {
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
export function wordsAfter(doc: Doc, end: number, variable: Span[]): number[] {
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

export function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase()
}

export function sameValue(got: string | null, want: string): boolean {
  return got !== null && squash(got) === squash(want)
}

export function isLabelLine(text: string, doc: Doc, line: number, variable: Span[]): boolean {
  if (text === '' || text.length > 80 || hasDigit(text) || !/\p{L}/u.test(text)) return false
  return !overlaps(variable, doc.lineStart[line]!, doc.lineEnd[line]!)
}
