import { cleanValue, lineOf, lineText, tokenAt, type Doc } from '../doc'
import { detectShape, fitsShape, hasDigit, isStrong, matchShapeAt, skeletonOf } from '../shapes'
import { cellEnd, startsLineOrCell, tokensAfter, wordsAfter, wordsOf } from './anchors'
import { MAX_ENDS } from './schema'
import { spanAt, type Span } from './spans'
import type { Extent, FieldTemplate } from './types'

/** `missed`: the word that ends the value in the sample was not found, so the value ran to the end of its cell. */
const QUOTE_PAIRS: Record<string, string> = { '"': '"', '“': '”', '„': '“', '«': '»', '‘': '’' }
const CODE_IN_BRACKETS = /^\([^\s(),]+(?:,\s*[^\s(),]+)*\)/

export function applyExtent(doc: Doc, start: number, extent: Extent, field: FieldTemplate): { value: string; end: number; missed?: boolean } | null {
  const text = doc.text
  switch (extent.kind) {
    case 'shape': {
      // A value of a shape ends with its cell (`Thu 7 Sep⇥13.5` is a date and a number, not `Thu 7 Sep 13`).
      let m = matchShapeAt(text, start, field.shape, field.shapeOptions)
      if (m?.includes('\t')) m = matchShapeAt(text.slice(0, cellEnd(doc, start)), start, field.shape, field.shapeOptions)
      // A match that stops inside a longer token (`web` of `web@2024.1.13`) is a fragment, not the value.
      if (m && FRAGMENT_AFTER.test(text.slice(start + m.length, start + m.length + 2))) return null
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
        // A full stop that ends the sentence, not one inside the value: `Ltd.` in `für Café Olé Ltd..`,
        // `example.com`.
        if (ok && extent.stop.length === 1 && extent.stop[0] === '.' && /^[.\p{L}\p{N}]/u.test(text.slice(t.end, t.end + 1))) continue
        if (ok && t.start > start) return { value: text.slice(start, t.start), end: t.start }
      }
      return { value: text.slice(start, end), end, missed: true }
    }
    case 'until-punct': {
      const end = cellEnd(doc, start)
      let first = -1
      for (let i = start + 1; i < end; i++) {
        // A comma or semicolon ends a value where it touches it (`San José, CA`); a bracket or a dash only after a space.
        if (text[i] !== extent.stop || !(TIGHT.includes(extent.stop) || /\s/.test(text[i - 1]!))) continue
        // A bracket of words is part of a name (`Woolly Bugger (6 pk) (HTW-6)`); the code after it, one token in
        // brackets or a list of them (`(PROD207, PROD207_6)`), ends it.
        if (extent.stop === '(' && !CODE_IN_BRACKETS.test(text.slice(i, Math.min(end, i + 40)))) {
          if (first < 0) first = i
          continue
        }
        return { value: text.slice(start, i), end: i }
      }
      if (first >= 0) return { value: text.slice(start, first), end: first }
      // A value in quotes (`created by "Søren Wójcik".`, where the sample read `"Grace Lindström
      // (Peña Hermanos S.A.)"`) ends at its closing quote when what followed it is absent.
      const close = QUOTE_PAIRS[text[start - 1] ?? '']
      const quoted = close ? text.indexOf(close, start + 1) : -1
      if (quoted > start && quoted < end) return { value: text.slice(start, quoted), end: quoted }
      return { value: text.slice(start, end), end, missed: true }
    }
    case 'tail': {
      const end = cellEnd(doc, start)
      const m = tailRe(extent.pattern).exec(text.slice(start, end))
      if (!m) return { value: text.slice(start, end), end, missed: true }
      return { value: m[1]!, end: start + m[1]!.length }
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
    case 'digits': {
      DIGIT_GROUPS.lastIndex = start
      const m = DIGIT_GROUPS.exec(text)
      // Sticky: a match starts at `start` or there is none.
      return m && start + m[0].length <= cellEnd(doc, start) ? { value: m[0], end: start + m[0].length } : null
    }
    case 'lines': {
      const first = lineOf(doc, start)
      // The text that ends the value is where it should start: the value is not there.
      if (extent.stop && startsWithWords(text.slice(start, doc.lineEnd[first]!), extent.stop)) return null
      let last = first
      for (let l = first + 1; l < doc.lineStart.length && l < first + 60; l++) {
        const lt = lineText(doc, l)
        if (lt === '') {
          if (extent.stop === null && !extent.paragraphs) break
          continue
        }
        if (extent.stop && startsWithWords(lt, extent.stop)) break
        if (extent.ends?.some((words) => startsWithWords(lt, words))) break
        if (extent.bullets && !BULLETED.test(lt)) break
        // A rule line (`--`, `____`) ends a block of text such as a message or a description.
        if (!/[\p{L}\p{N}]/u.test(lt)) break
        // So does the start of a quoted email: a message never runs into the one it replies to.
        if (QUOTE_START.test(lt)) break
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

export function acceptable(value: string, field: FieldTemplate): boolean {
  if (value === '') return false
  if (isStrong(field.shape)) return fitsShape(value, field.shape, field.shapeOptions)
  const limit = field.sampleValue.includes('\n') ? 5000 : Math.max(200, field.sampleValue.length * 6)
  return value.length <= limit
}

const tailCache = new Map<string, RegExp>()
/** The value before a `tail` extent's fixed ending in `text` (`Oak Desk` of `Oak Desk × 2`), or null. */
export function beforeTail(text: string, pattern: string): string | null {
  return tailRe(pattern).exec(text)?.[1] ?? null
}

function tailRe(pattern: string): RegExp {
  let re = tailCache.get(pattern)
  if (!re) {
    re = new RegExp(`^(.+?)${pattern}$`, 'u')
    if (tailCache.size > 2000) tailCache.clear()
    tailCache.set(pattern, re)
  }
  return re
}

/**
 * The rest of a cell after the value as a pattern: numbers free, punctuation as
 * written (`× 4` → `\s*×\s*\S*\d\S*\s*`). Null when the rest is plain words (then words end the value).
 */
function tailPattern(doc: Doc, from: number, to: number, variable: Span[]): string | null {
  const rest = doc.text.slice(from, to)
  if (rest.trim() === '' || rest.length > 60 || rest.includes('\t')) return null
  // A quantity's marker (`2x`, `3 ×`): the number before it is the value.
  if (/^\s*[x×]\s*$/iu.test(rest) && /\d$/.test(doc.text.slice(Math.max(0, from - 1), from))) return '\\s*[x×]\\s*'
  let out = ''
  let free = false
  let i = from
  while (i < to) {
    // Another value in the tail (a date) would make the split ambiguous, unless it is a number (a quantity).
    const v = spanAt(variable, i, i + 1)
    if (v && !/^\S*\d\S*$/.test(doc.text.slice(v[0], v[1])) && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(doc.text.slice(v[0], v[1]))) return null
    // An email address after the value (`Jane Doe jane.doe42@example.com`) is known by its form,
    // whether or not this one has a digit.
    const email = /^[^\s@]+@[^\s@]+\.[^\s@]+/.exec(doc.text.slice(i, to))
    if (email && (i === from || /\s/.test(doc.text[i - 1]!))) {
      out += '[^\\s@]+@[^\\s@]+'
      free = true
      i += email[0].length
      continue
    }
    const m = /^\S*\d\S*/.exec(doc.text.slice(i, to))
    if (m && (i === from || /\s/.test(doc.text[i - 1]!))) {
      out += '\\S*\\d\\S*'
      free = true
      i += m[0].length
      continue
    }
    const c = doc.text[i]!
    // Words in the tail may be data (`, OR 97209`): a tail is punctuation, numbers and values only.
    if (/[\p{L}]/u.test(c)) return null
    out += /\s/.test(c) ? '\\s*' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    i++
  }
  return free ? out.replace(/(?:\\s\*)+/g, '\\s*') + '\\s*' : null
}

/**
 * The opening constant words of the next line with text after an offset (at most three).
 * `beforeData`: the words before the line's first number or value will do (`Order` of `Order #2461`).
 */
function nextLineWords(doc: Doc, end: number, variable: Span[], beforeData = false): string[] | null {
  const l = nextLine(doc, end)
  if (l < 0) return null
  const value = spanAt(variable, doc.lineStart[l]!, doc.lineEnd[l]!)
  if (value && !beforeData) return null
  const words = wordsOf(lineText(doc, l).slice(0, value ? value[0] - doc.lineStart[l]! : 200)).slice(0, 3)
  if (!beforeData) return words.length > 0 && !words.some(hasDigit) ? words : null
  const cut = words.findIndex(hasDigit)
  const fixed = cut < 0 ? words : words.slice(0, cut)
  return fixed.length > 0 ? fixed : null
}

/**
 * The opening fixed words (two or more, before any number or value) of the lines after the one
 * that follows a message in the sample: `View submission`, `This message was` of a form's footer.
 * A message in another email may be followed by them directly (an optional question between is
 * left out), and must end there rather than run on through the footer.
 */
function endingLines(doc: Doc, end: number, variable: Span[]): string[][] {
  const out: string[][] = []
  for (let l = nextLine(doc, end), seen = 0; l >= 0 && seen < MAX_ENDS; seen++) {
    const words = nextLineWords(doc, doc.lineStart[l]!, variable, true)
    if (words && words.length >= 2) out.push(words)
    l = nextLine(doc, doc.lineStart[l]!)
  }
  return out
}

const FRAGMENT_AFTER = /^[@/_.+:-][\p{L}\p{N}]/u
const DIGIT_GROUPS = /\d+(?:[ \u00a0]\d+)*/y

/** The first line of a quoted or forwarded email: `> …`, `On … wrote:`, `-----Original Message-----`. */
const QUOTE_START = /^(?:>|(?:on|le|am|el|em|op|il)\s.{4,200}(?:wrote|a écrit|schrieb|escribió|escreveu|schreef|ha scritto)\s?:$|-{2,}\s*(?:original message|forwarded message|message transféré|weitergeleitete nachricht|mensaje reenviado)\s*-{2,})/iu

/** A list's bullet as bodies render it (html-to-text writes `• ` before an `<li>`). */
export const BULLET_MARK = '[•◦▪‣·*–-]'
/** A line of a bulleted list: `• Planting & borders`, `- Lighting`. */
const BULLETED = new RegExp(`^[ \\t]*${BULLET_MARK}[ \\t]+\\S`, 'u')
const BULLET = new RegExp(`^[ \\t]*${BULLET_MARK}[ \\t]+`, 'u')

/**
 * A value read as a bulleted list, as the user highlighted it: a browser's selection of a list
 * leaves its markers out, so the sample's value had none (rules read and compare the bullets).
 */
export function withoutBullets(value: string, extent: Extent): string {
  return extent.kind === 'lines' && extent.bullets ? value.split('\n').map((l) => l.replace(BULLET, '')).join('\n') : value
}

/** The next line with text after an offset, or -1. */
function nextLine(doc: Doc, end: number): number {
  for (let l = lineOf(doc, end) + 1; l < doc.lineStart.length; l++) if (lineText(doc, l).trim() !== '') return l
  return -1
}

/** Sentences, not a name or a title: four words or more, ending as a sentence does. */
export function isProse(value: string): boolean {
  return value.split(/\s+/).length >= 4 && /[.!?…)"”]$/u.test(value)
}

const SEPARATORS = '([{<·•|–—-/'
const TIGHT = ',;'

export function learnExtent(doc: Doc, span: Span, field: FieldTemplate, variable: Span[]): Extent[] {
  const [start, end] = span
  const value = cleanValue(doc.text.slice(start, end))
  const out: Extent[] = []
  if (doc.text.slice(start, end).includes('\n')) {
    const paragraphs = /\n[ \t]*\n/.test(doc.text.slice(start, end))
    const after = wordsAfter(doc, end, variable)
    let stop = after.length > 0 && startsLineOrCell(doc, doc.tokens[after[0]!]!.start) ? after.map((i) => doc.tokens[i]!.norm) : null
    // A message of several paragraphs ends where the fixed text after it begins, however far below.
    if (paragraphs && !stop) stop = nextLineWords(doc, end, variable)
    const ends = paragraphs ? endingLines(doc, end, variable) : []
    // A bulleted list (checkboxes a form lists as `• Planting`): its items, however many, and no further.
    const lines = doc.text.slice(doc.lineStart[lineOf(doc, start)]!, end).split('\n')
    const bullets = !paragraphs && lines.every((l) => BULLETED.test(l))
    out.push({ kind: 'lines', stop, ...(paragraphs ? { paragraphs } : {}), ...(ends.length > 0 ? { ends } : {}), ...(bullets ? { bullets } : {}) })
    return out
  }
  // A message of one paragraph in the sample (a review, a note) may have several in another email:
  // it runs to the fixed line after it, as a message of several paragraphs does.
  const line = lineOf(doc, start)
  if (field.shape === 'text' && !doc.lineTab[line] && isProse(value) && lineText(doc, line).trim() === value) {
    const stop = nextLineWords(doc, end, variable, true)
    // A line of one word after it (a name signing the message) may be data, not where messages end.
    if (stop && wordsOf(lineText(doc, nextLine(doc, end))).length >= 2) {
      const ends = endingLines(doc, end, variable)
      out.push({ kind: 'lines', stop, paragraphs: true, ...(ends.length > 0 ? { ends } : {}) })
    }
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
    // What follows in the cell has numbers or values of its own (` × 4`): the value is what comes before it.
    const tail = tailPattern(doc, end, ce, variable)
    if (tail) out.push({ kind: 'tail', pattern: tail })
    // A separator after a space ends the value whatever follows it: the words after it may be data (`(DUB)`).
    const separator = doc.text[rest]!
    if ((rest > end && SEPARATORS.includes(separator)) || (TIGHT.includes(separator) && !value.includes(separator))) out.push({ kind: 'until-punct', stop: separator })
    // A postcode of digit groups before a town (`411 03 Göteborg`): the town is data, the digits are not words.
    if (/^\d+(?:[ \u00a0]\d+)+$/.test(value) && /^[ \u00a0]+\p{L}/u.test(doc.text.slice(end, ce))) out.push({ kind: 'digits' })
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
