/**
 * Snapping a highlight to the whole value the user meant (docs/decisions/024). Browsers select
 * words by their own rules: a double-click on `NW-104750` selects `104750`, a drag easily starts
 * inside a word (`ofia Dub`) or stops before the cents. A field trained on half a value learns the
 * wrong boundaries, so the selection grows to whole values before it is named:
 *
 * 1. whitespace and stray punctuation at the edges are dropped (`$84.88.` → `$84.88`);
 * 2. each edge that falls inside a token grows to the token's end, a token being letters and
 *    digits joined by `-`, `_`, `.`, `/`, `@`, `'`, `&` (any two word characters) or by `,` and `:`
 *    (two digits: `1,234.56`, `10:30`), so ids, emails, amounts and numeric dates stay whole;
 * 3. a value that overlaps an amount with its currency (`$84.88`, `€ 12,00`, `84.88 USD`) or a
 *    date written with a month name (`Nov 23, 2026`, `23 November 2026`) grows to all of it.
 *
 * It never shrinks a selection into the middle of a token and never grows across a line break.
 */

const WORD = /[\p{L}\p{N}]/u
const DIGIT = /\p{N}/u
/** Join two word characters into one token. */
const WORD_JOINERS = new Set(['-', '_', '.', '/', '@', "'", '’', '&'])
/** Join two digits only: `1,234` and `10:30` are one value, `Dubois, Sofia` is two. */
const DIGIT_JOINERS = new Set([',', ':'])
/** Dropped from the selection's edges (a sentence's full stop, a label's colon, brackets). */
const LEADING_JUNK = /^[\s.,;:!?()[\]{}"“”«»]+/u
const TRAILING_JUNK = /[\s.,;:!?()[\]{}"“”«»]+$/u

const CURRENCY_SYMBOL = '[$€£¥₹₩₽₺₪₫฿]'
const CURRENCY_CODE = '(?:USD|EUR|GBP|CAD|AUD|NZD|CHF|JPY|CNY|INR|SEK|NOK|DKK|PLN|CZK|MXN|BRL|ZAR|SGD|HKD)'
const NUMBER = '-?\\d{1,3}(?:[,.\\u00a0\\u202f]\\d{3})*(?:[.,]\\d+)?|-?\\d+(?:[.,]\\d+)?'
const MONTH =
  '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?'
const DAY = '\\d{1,2}(?:st|nd|rd|th)?'

/** Values that are one value although they hold spaces or symbols. */
const WHOLE_VALUES: RegExp[] = [
  // $84.88, US$ 1,234.50, -$5.00, €12,00
  new RegExp(`(?:[A-Z]{1,3})?${CURRENCY_SYMBOL}[ \\u00a0]?(?:${NUMBER})|-${CURRENCY_SYMBOL}(?:${NUMBER})`, 'gu'),
  // 84.88 USD, 12,00 €
  new RegExp(`(?<![\\p{L}\\p{N}.,])(?:${NUMBER})[ \\u00a0]?(?:${CURRENCY_SYMBOL}|${CURRENCY_CODE}(?![\\p{L}]))`, 'gu'),
  // USD 84.88
  new RegExp(`(?<![\\p{L}])${CURRENCY_CODE}[ \\u00a0]?(?:${NUMBER})`, 'gu'),
  // Nov 23, 2026 / November 23rd 2026 / Sunday, Nov 23, 2026
  new RegExp(`(?<![\\p{L}])${MONTH}[ \\u00a0]${DAY}(?:,?[ \\u00a0]\\d{4})?(?![\\p{L}\\p{N}])`, 'gu'),
  // 23 Nov 2026 / 23rd of November, 2026
  new RegExp(`(?<![\\p{L}\\p{N}])${DAY}[ \\u00a0](?:of[ \\u00a0])?${MONTH}(?:,?[ \\u00a0]\\d{4})?(?![\\p{L}\\p{N}])`, 'gu'),
]

function isWord(ch: string | undefined): boolean {
  return ch !== undefined && WORD.test(ch)
}

/** Whether text[i] belongs to a token (a word character, or a joiner between two of them). */
function isTokenChar(text: string, i: number): boolean {
  const ch = text[i]
  if (ch === undefined) return false
  if (isWord(ch)) return true
  const before = text[i - 1]
  const after = text[i + 1]
  if (WORD_JOINERS.has(ch)) return isWord(before) && isWord(after)
  if (DIGIT_JOINERS.has(ch)) return before !== undefined && after !== undefined && DIGIT.test(before) && DIGIT.test(after)
  return false
}

function trimEdges(text: string, start: number, end: number): [number, number] {
  const raw = text.slice(start, end)
  const leading = raw.length - raw.replace(LEADING_JUNK, '').length
  const trailing = raw.length - raw.replace(TRAILING_JUNK, '').length
  if (leading >= raw.length) return [start, start]
  return [start + leading, end - trailing]
}

/**
 * The [start, end) of the whole value around text[start, end), or null when the selection holds
 * no value (only whitespace or punctuation).
 */
export function snapSelection(text: string, start: number, end: number): { start: number; end: number } | null {
  let [from, to] = trimEdges(text, Math.max(0, Math.min(start, end)), Math.min(text.length, Math.max(start, end)))
  if (from >= to) return null
  for (let pass = 0; pass < 3; pass++) {
    const [before, after] = [from, to]
    // Grow each edge that cuts a token.
    while (from > 0 && isTokenChar(text, from - 1) && isTokenChar(text, from)) from--
    while (to < text.length && isTokenChar(text, to) && isTokenChar(text, to - 1)) to++
    // Grow to any amount or date the selection overlaps, on the same line.
    for (const pattern of WHOLE_VALUES) {
      for (const match of text.matchAll(pattern)) {
        const mStart = match.index
        const mEnd = mStart + match[0].length
        if (mEnd <= from || mStart >= to) continue
        if (mStart < from && text.slice(mStart, from).includes('\n')) continue
        if (mEnd > to && text.slice(to, mEnd).includes('\n')) continue
        from = Math.min(from, mStart)
        to = Math.max(to, mEnd)
      }
    }
    if (from === before && to === after) break
  }
  return { start: from, end: to }
}
