import { cleanValue, lineOf, lineText, normWord, type Doc } from '../../doc'
import { detectShape, shapeSource } from '../../shapes'
import { HONORIFIC_SOURCE, sameValue, TITLE_BEFORE, tokenIndex } from '../anchors'
import { acceptable } from '../extent'
import { spanIndexFrom, type Span } from '../spans'
import type { FieldTemplate, Rule, RuleHandler } from '../types'
import { withoutPenalty } from './candidates'

/** List-rule patterns are matched against lines no longer than this, so they stay linear. */
export const MAX_PATTERN_LINE = 400

const patternCache = new Map<string, RegExp>()
export function compiled(pattern: string): RegExp {
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
  // The sample's value was the n-th of `count` such lines: with another number of them (an optional
  // billing address, a return flight), which one is missing cannot be told, so none is taken.
  if (rule.count !== undefined && rule.count > 1 && matches.length !== rule.count) return null
  // A line with a number the sample showed once (`Guest 1 name: …`) now several times: the sample's
  // one block is repeated, and the first is not the whole answer.
  if (rule.count === 1 && matches.length > 1 && rule.pattern.includes('\\S*\\d\\S*')) return null
  return matches[rule.ordinal]?.value ?? null
}

/**
 * The values of every line of the form the sample showed the value's line in, when the sample
 * showed that line once and this email shows it several times: the sample's one item (an overdue
 * invoice's sentence) is repeated here, and the first alone is not the whole answer. Null otherwise.
 */
export function repeatedLines(doc: Doc, rules: readonly Rule[], field: FieldTemplate): string[] | null {
  const rule = rules.find((r) => r.kind === 'pattern' && r.count === 1 && r.pattern.startsWith('^'))
  if (!rule || rule.kind !== 'pattern') return null
  // Two such lines need their first word twice: most emails are ruled out by the word index alone.
  const lead = LEAD_WORD.exec(rule.pattern)?.[1]
  if (lead && (tokenIndex(doc).get(normWord(lead))?.length ?? 0) < 2) return null
  const matches = patternMatches(doc, rule.pattern, field)
  return matches.length > 1 ? matches.map((m) => m.value) : null
}

/** A line pattern's first word (`Invoice` of `^\s*Invoices?\s+…`), without the plural the pattern allows. */
const LEAD_WORD = /^\^\\s\*(\p{L}+?)(?:s\?)?(?!\p{L})/u

/** Text as a regex source that matches it literally. */
export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * A run of non-space characters with a digit: a number, an id, an amount. Chinese and Japanese
 * write no space between a label and its value (`数量：3`), so their letters and full-width
 * punctuation end the run: the label stays fixed text.
 */
const NUMBER_RUN = /[^\s\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]*\d[^\s\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]*/gu

/** A state or province code after a city's comma, before its postcode (`, OR 97209`, `, ON K1P`). */
const STATE_CODE = /,\s*\p{Lu}{2,3}(?=\s+[\p{L}\p{N}]*\d)/gu

/**
 * A line pattern for a repeated section: the line's fixed text literal, numbers and other fields'
 * values free, the value captured. `2 x Blue Widget — $10.00` → `^\s*\S*\d\S*\s+x\s+(.+?)\s*—\s*\S*\d\S*\s*$`.
 */
/** The part of [s, e) without the spaces and punctuation at its ends. */
function trimSpan(text: string, s: number, e: number): Span {
  while (s < e && !/[\p{L}\p{N}]/u.test(text[s]!)) s++
  while (e > s && !/[\p{L}\p{N}]/u.test(text[e - 1]!)) e--
  return [s, e]
}

export function linePattern(doc: Doc, line: number, span: Span, variable: Span[], range?: Span, optional: Span[] = []): string | null {
  // `range`: a part of the line (a table cell) to make the pattern of, instead of the whole line.
  // `optional`: parts that other lines may leave out, each a separator and free text (` / Maria Semple`).
  const ls = range ? range[0] : doc.lineStart[line]!
  const le = range ? range[1] : doc.lineEnd[line]!
  if (le - ls > MAX_PATTERN_LINE || span[1] > le) return null
  type Piece = [number, number, string]
  // Text may gain words from one email to the next (`Student` → `Child (under 12)`); ids and amounts do not.
  const free = (s: number, e: number) => {
    const text = doc.text.slice(s, e)
    const shape = detectShape(text).shape
    // An amount that ends the line (an item's `$9.00 USD`) by its form; elsewhere free text may
    // also take a cell some lines add after it (`9,99 €⇥-5 %`).
    if (shape === 'money' && /\s/.test(text) && doc.text.slice(e, le).trim() === '') return moneySource(text) ?? '.+?'
    return shape === 'text' || /\s/.test(text) ? '.+?' : '\\S+?'
  }
  // Another value of words right beside the value that is a date (`le mercredi 17 avril entre 9h00
  // et 13h00`): read by its shape, so it does not swallow the value's words.
  const other = (s: number, e: number) => {
    const text = doc.text.slice(s, e)
    const touches = (e <= span[0] ? doc.text.slice(e, span[0]) : doc.text.slice(span[1], s)).trim() === ''
    const source = touches && /\s/.test(text) ? shapeSource(detectShape(text).shape) : null
    return source ? `(?:${source})` : free(s, e)
  }
  const pieces: Piece[] = [[span[0], span[1], `(${free(span[0], span[1])})`]]
  // A title right before the value (`Ms Ngozi Álvarez`) is any title: the next person is `Mr`.
  const title = TITLE_BEFORE.exec(doc.text.slice(ls, span[0]))
  if (title) pieces.push([ls + title.index, span[0], HONORIFIC_SOURCE])
  for (const [s, e] of optional) {
    const sep = /^\s*[^\p{L}\p{N}\s]+\s*/u.exec(doc.text.slice(s, e))?.[0] ?? ''
    pieces.push([s, e, `(?:${literal(sep)}.+?)?`])
  }
  for (let i = spanIndexFrom(variable, ls); i < variable.length && variable[i]![0] < le; i++) {
    const [s, e] = variable[i]!
    if (s < ls || e > le || optional.some(([os, oe]) => s < oe && e > os)) continue
    if (e <= span[0] || s >= span[1]) {
      pieces.push([s, e, other(s, e)])
      continue
    }
    // A span of data around the value (a date and its time read as one `Friday, October 2, 2026 |
    // 2:30pm`): its parts before and after the value are data still, not the line's fixed text.
    for (const [ps, pe] of [trimSpan(doc.text, s, span[0]), trimSpan(doc.text, span[1], e)]) if (pe > ps && /[\p{L}\p{N}]/u.test(doc.text.slice(ps, pe))) pieces.push([ps, pe, other(ps, pe)])
  }
  NUMBER_RUN.lastIndex = 0
  const text = doc.text.slice(ls, le)
  let m: RegExpExecArray | null
  while ((m = NUMBER_RUN.exec(text)) !== null) {
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

/** A currency's sign with up to three letters before it (`US$`, `€`), in a pattern. */
const SIGN_SOURCE = '[^\\s\\d]{0,3}\\p{Sc}'

/**
 * An amount with its currency written apart (`$9.00 USD`, `€ 12,00`, `190,00 EUR`): a symbol or
 * code where the sample had one, the number between, and a code after it that other emails may
 * leave out. Free text in its place would let any words end a line (`Location: New York, US`).
 */
function moneySource(text: string): string | null {
  const first = text.search(/\d/)
  const last = text.search(/\d(?=\D*$)/)
  if (first < 0) return null
  const lead = text.slice(0, first).trim()
  const tail = text.slice(last + 1).trim()
  const unsigned = lead.replace(/^[-−]/, '')
  const sign = unsigned !== lead ? '[-−]?' : ''
  const symbol = (part: string) => (/\p{Sc}/u.test(part) ? SIGN_SOURCE : /^\p{Lu}{2,4}\.?$/u.test(part) ? '\\p{Lu}{2,4}\\.?' : null)
  const before = unsigned === '' ? '' : symbol(unsigned)
  // A code after a symbol (`$9.00 USD`) is the optional code below; after a bare number it is the currency.
  const after = tail === '' || (before && /^\p{Lu}{3}$/u.test(tail)) ? '' : symbol(tail)
  if (before === null || after === null || (before === '' && after === '')) return null
  const number = "\\d(?:[\\d.,'\\u00a0\\u202f]|\\s(?=\\d{3}\\b))*"
  // A currency's sign goes where its own custom puts it (`44.90 €`, `£35.00`): a shop that
  // takes several currencies writes each its way, so a sign may stand on either side.
  const eitherSide = (before === SIGN_SOURCE && after === '') || (after === SIGN_SOURCE && before === '')
  const body = eitherSide ? `(?:${SIGN_SOURCE}\\s?${number}|${number}\\s?${SIGN_SOURCE})` : `${before}${before ? '\\s?' : ''}${number}${after ? `\\s?${after}` : ''}`
  return `(?:${sign}${body}(?:\\s\\p{Lu}{3})?)`
}

/** Fixed text of a line pattern: whitespace of any width, punctuation and words as written. */
function literal(text: string): string {
  const trimmed = text.trim()
  if (trimmed === '') return text === '' ? '' : '\\s+'
  const body = trimmed
    .split(/\s+/)
    .map((w) =>
      /^\p{L}{4,}$/u.test(w) && normWord(w) !== w.toLowerCase()
        ? `${escapeRe(w.slice(0, -1))}s?`
        : /^\p{L}{3,}$/u.test(w)
          ? `${escapeRe(w)}s?`
          : // Leader dots and rules (`Bibimbap ........ $12.00`) pad to a width: any length of them fits.
            escapeRe(w).replace(/((?:\\?[^\p{L}\p{N}\s\\])(?:\\)?)\1{2,}/gu, (_, c: string) => `${c}{2,}`),
    )
    .join('\\s+')
  // Spaces around punctuation come and go (`Dotted × 2`, `Dotted× 2`); around a word they stay.
  const lead = /^\s/.test(text) ? (/^[\p{L}\p{N}]/u.test(trimmed) ? '\\s+' : '\\s*') : ''
  const tail = /\s$/.test(text) ? (/[\p{L}\p{N}]$/u.test(trimmed) ? '\\s+' : '\\s*') : ''
  return `${lead}${body}${tail}`
}

export function learnPattern(doc: Doc, span: Span, field: FieldTemplate, variable: Span[]): Rule | null {
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
  // A code of capitals (a state between a city and its postcode: `Portland, OR 97209`) is data too:
  // a pattern whose only fixed text it is would find another address with the same state.
  if (!/[^\s\d,.;]/u.test(fixed.replace(STATE_CODE, '').replace(/\S*\d\S*/g, ''))) return null
  const learned = linePattern(doc, line, span, variable)
  return learned ? ruleOfPattern(doc, line, span, withOptionalLead(learned), field) : null
}

/** The pattern rule that reads the sample's value on its line: the n-th of the lines it matches. */
function ruleOfPattern(doc: Doc, line: number, span: Span, pattern: string, field: FieldTemplate): Rule | null {
  const matches = patternMatches(doc, pattern, field)
  const want = doc.text.slice(span[0], span[1])
  const ordinal = matches.findIndex((m) => m.line === line && sameValue(m.value, want))
  return ordinal < 0 ? null : { kind: 'pattern', pattern, ordinal, count: matches.length }
}

/** Fixed words right before the value that start the pattern of a line's tail (learnTailPattern). */
const TAIL_WORDS = 3

/**
 * The line's pattern from the last few fixed words before the value (`sera livré le <date> (…).`):
 * text further back on the line may be data nobody highlighted (`expédié par la Boutique Lumière`),
 * which the whole line's pattern takes for fixed. Read only when that pattern finds nothing.
 */
export function learnTailPattern(doc: Doc, span: Span, field: FieldTemplate, variable: Span[]): Rule | null {
  const line = lineOf(doc, span[0])
  if (lineOf(doc, span[1]) !== line || doc.lineEnd[line]! - doc.lineStart[line]! > MAX_PATTERN_LINE) return null
  const ls = doc.lineStart[line]!
  const words = [...doc.text.slice(ls, span[0]).matchAll(/\S+/gu)].reverse()
  let start = -1
  let count = 0
  for (const w of words) {
    const s = ls + w.index
    const e = s + w[0].length
    // Other values (a date, a number) between the words and the value stay free in the pattern.
    if (/\d/.test(w[0]) || variable.some(([vs, ve]) => s < ve && e > vs)) continue
    if (/\p{L}{2,}/u.test(w[0]) && ++count === TAIL_WORDS) {
      start = s
      break
    }
  }
  if (start < 0 || doc.text.slice(ls, start).trim() === '') return null
  const learned = linePattern(doc, line, span, variable, [start, doc.lineEnd[line]!])
  return learned ? ruleOfPattern(doc, line, span, learned.replace(/^\^\\s\*/, '(?<![\\p{L}\\p{N}])'), field) : null
}

/**
 * A value of words after another value and a connecting word (`Shipping: $5.00 via Flat rate`):
 * senders leave the first value and the word out when there is nothing to say (`Shipping: Local
 * pickup`), so that part of the pattern is optional, and the value read then must have a letter (an
 * amount alone, `Shipping: $5.00`, is not the method).
 */
function withOptionalLead(pattern: string): string {
  const m = OPTIONAL_LEAD.exec(pattern)
  if (!m) return pattern
  return `${pattern.slice(0, m.index)}(?:${m[1]})?(?=[^\\t]*\\p{L})(.+?)${pattern.slice(m.index + m[0].length)}`
}
const CONNECTORS = 'via|by|with|using|per|par|mit|über|por|con|avec'
const OPTIONAL_LEAD = new RegExp(`((?:\\\\S\\+\\?|\\\\S\\*\\\\d\\\\S\\*)\\\\s\\+(?:${CONNECTORS})s\\?\\\\s\\+)\\(\\.\\+\\?\\)`, 'u')

export const patternRule: RuleHandler<'pattern'> = {
  baseConfidence: 0.85,
  apply: (doc, rule, field) => withoutPenalty(applyPattern(doc, rule, field)),
  describe: (rule) => `line-pattern${rule.ordinal > 0 ? `#${rule.ordinal + 1}` : ''}`,
}
