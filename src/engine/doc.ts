import type { Docs, View } from './template'

/**
 * A rendered email body as the template learner sees it: lines, table cells (tab-separated)
 * and word tokens with their offsets. HTML and plain-text bodies end in the same form.
 */
export type Token = {
  start: number
  end: number
  /** Lower-cased text, plural -s dropped (see normWord). */
  norm: string
  line: number
  /** Letters or digits (false for a single punctuation character). */
  word: boolean
}

export type Doc = {
  text: string
  lineStart: number[]
  lineEnd: number[]
  tokens: Token[]
  /** Index of the first token on each line (tokens.length when the line has none). */
  lineToken: number[]
  /** Whether each line has table cells (a tab). */
  lineTab: boolean[]
}

const ZERO_WIDTH = /[\u200b-\u200d\u2060\u00ad\ufeff]|\u034f/g

/** Plain-text body → the same line and cell form as converted HTML. */
export function normalisePlainText(text: string, maxChars = 1_000_000): string {
  const source = text.length > maxChars ? text.slice(0, maxChars) : text
  const lines = source.replace(ZERO_WIDTH, '').split(/\r\n|\r|\n/)
  const out: string[] = []
  for (const raw of lines) {
    // Two or more spaces, a tab, or ` | ` separate columns of a plain-text table.
    const line = raw
      .replace(/[\u00a0\u2000-\u200a\u202f\u205f\u3000]/g, ' ')
      .trim()
      .replace(/\s*\t\s*|\s+\|\s+| {2,}/g, '\t')
      .replace(/[ \f\v]+/g, ' ')
    if (line === '') {
      if (out.length > 0 && out[out.length - 1] !== '') out.push('')
    } else {
      out.push(line)
    }
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop()
  return out.join('\n')
}

const classCache = new Map<number, number>()
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u
/** 0: space, 1: word character, 2: punctuation. */
function charClass(c: number, ch: string): number {
  if (c < 128) {
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return 1
    return c <= 32 ? 0 : 2
  }
  let k = classCache.get(c)
  if (k === undefined) {
    k = WORD_CHAR.test(ch) ? 1 : /\s/.test(ch) ? 0 : 2
    if (classCache.size < 10_000) classCache.set(c, k)
  }
  return k
}

function isApostrophe(c: number): boolean {
  return c === 39 || c === 0x2019
}

/** Lines, cells and tokens of a rendered body. A hand-written scanner: this runs on every email. */
export function buildDoc(text: string): Doc {
  const lineStart: number[] = [0]
  const lineEnd: number[] = []
  const lineToken: number[] = [0]
  const lineTab: boolean[] = [false]
  const tokens: Token[] = []
  const n = text.length
  let line = 0
  let i = 0
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 10) {
      lineEnd.push(i)
      line++
      lineStart.push(i + 1)
      lineToken.push(tokens.length)
      lineTab.push(false)
      i++
      continue
    }
    if (c === 9) lineTab[line] = true
    const k = charClass(c, text[i]!)
    if (k === 0) {
      i++
      continue
    }
    const start = i
    if (k === 1) {
      // Lower-case ASCII words (and numbers) are their own norm: no cache lookup for them.
      let plain = c >= 48 && c <= 57 ? true : c >= 97 && c <= 122
      i++
      for (;;) {
        while (i < n) {
          const d = text.charCodeAt(i)
          if (d < 128) {
            if (charClass(d, '') !== 1) break
            if (d >= 65 && d <= 90) plain = false
          } else {
            if (charClass(d, text[i]!) !== 1) break
            plain = false
          }
          i++
        }
        // `O'Brien`, `don’t`: an apostrophe between letters stays inside the word.
        if (i + 1 < n && isApostrophe(text.charCodeAt(i)) && charClass(text.charCodeAt(i + 1), text[i + 1]!) === 1) {
          const next = text.charCodeAt(i + 1)
          if (text.charCodeAt(i) !== 39 || !((next >= 48 && next <= 57) || (next >= 97 && next <= 122))) plain = false
          i += 2
          continue
        }
        break
      }
      const norm = plain ? (i - start > 3 && text.charCodeAt(i - 1) === 115 && text.charCodeAt(i - 2) !== 115 ? text.slice(start, i - 1) : text.slice(start, i)) : normWord(text.slice(start, i))
      tokens.push({ start, end: i, norm, line, word: true })
    } else {
      // One punctuation character (a surrogate pair counts as one).
      i += c >= 0xd800 && c <= 0xdbff && i + 1 < n ? 2 : 1
      tokens.push({ start, end: i, norm: text.slice(start, i), line, word: false })
    }
  }
  lineEnd.push(n)
  return { text, lineStart, lineEnd, tokens, lineToken, lineTab }
}

const LAZY = Symbol('lazy docs')
type LazyState = { sources: Partial<Record<View, () => string>>; built: Partial<Record<View, Doc>> }
type LazyDocs = Docs & { [LAZY]: LazyState }

function viewGetter(view: View) {
  return function (this: LazyDocs): Doc {
    const state = this[LAZY]
    return (state.built[view] ??= buildDoc(state.sources[view]!()))
  }
}
const VIEW_GETTERS: Record<View, (this: LazyDocs) => Doc> = { html: viewGetter('html'), text: viewGetter('text'), subject: viewGetter('subject') }

/**
 * The docs of an email's views, each built on first read: an enumerable property per view that
 * has a source. The getters are shared by every email. A getter made per email gives each its own
 * hidden class, which V8 keeps in old space: every body and doc it reaches then survives the young
 * collections until a full one (in bench:extract, 1.9 MB promoted per scavenge instead of 0.3).
 */
export function createLazyDocs(sources: Partial<Record<View, () => string>>): Docs {
  const docs = {} as LazyDocs
  Object.defineProperty(docs, LAZY, { value: { sources, built: {} } satisfies LazyState })
  for (const view of Object.keys(sources) as View[]) Object.defineProperty(docs, view, { enumerable: true, get: VIEW_GETTERS[view] })
  return docs
}

/** Lower-cased, with a plural -s dropped, so `1 night` and `3 nights` share their label. */
export function normWord(word: string): string {
  let norm = normCache.get(word)
  if (norm === undefined) {
    const w = word.toLowerCase()
    norm = w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w
    // toLowerCase is slow on two-byte strings (any text with a curly quote or a dash), and the
    // same words come back in every email of a template: remember them.
    if (normCache.size >= 50_000) normCache.clear()
    normCache.set(word, norm)
  }
  return norm
}
const normCache = new Map<string, string>()

/** The line containing an offset. */
export function lineOf(doc: Doc, offset: number): number {
  let lo = 0
  let hi = doc.lineStart.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (doc.lineStart[mid]! <= offset) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** First token whose start is at or after an offset. */
export function tokenAt(doc: Doc, offset: number): number {
  let lo = 0
  let hi = doc.tokens.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (doc.tokens[mid]!.start < offset) lo = mid + 1
    else hi = mid
  }
  return lo
}

export function lineText(doc: Doc, line: number): string {
  return doc.text.slice(doc.lineStart[line], doc.lineEnd[line])
}

/** Start and end offsets of the tab-separated cell containing an offset. */
export function cellBounds(doc: Doc, offset: number): { start: number; end: number; index: number; count: number; line: number } {
  const line = lineOf(doc, offset)
  const ls = doc.lineStart[line]!
  const le = doc.lineEnd[line]!
  let start = ls
  let index = 0
  for (let i = ls; i < offset; i++) {
    if (doc.text.charCodeAt(i) === 9) {
      start = i + 1
      index++
    }
  }
  let end = doc.text.indexOf('\t', offset)
  if (end === -1 || end > le) end = le
  let count = 1
  for (let i = ls; i < le; i++) if (doc.text.charCodeAt(i) === 9) count++
  return { start, end, index, count, line }
}

const cellCache = new WeakMap<Doc, Array<readonly string[] | undefined>>()
/** A line's cells (the whole line when it has none). Kept per line: row rules read the same lines many times. */
export function cellsOf(doc: Doc, line: number): readonly string[] {
  let lines = cellCache.get(doc)
  if (!lines) cellCache.set(doc, (lines = []))
  return (lines[line] ??= lineText(doc, line).split('\t'))
}

/** Collapses whitespace the way a value is compared and reported. */
export function cleanValue(raw: string): string {
  if (!raw.includes('\n')) return raw.replace(/\s+/g, ' ').trim()
  // Lines keep their breaks; paragraphs keep one blank line between them, as a message shows them.
  return raw
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
