import type { CellValue, FieldType } from '../shared/contracts/extraction'

const MONTH_INDEX: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
}

/**
 * Parses an amount as written: `$12,345.67`, `1.234,56 €`, `(45.00)`, `-€5`, `12 345,50 kr`.
 * The last separator followed by one or two digits is the decimal point.
 */
export function parseAmount(text: string): number | null {
  const negative = /^\s*[-−–(]|[-−–]\s*[^\d\s]*\d|\)\s*$/.test(text.trim())
  const digits = text.replace(/[^\d.,'\u202f\u00a0 ]/g, '').trim()
  if (!/\d/.test(digits)) return null
  const compact = digits.replace(/[\s'\u202f\u00a0]/g, '')
  const m = /^(.*?)[.,](\d{1,2})$/.exec(compact)
  let value: number
  if (m && !(m[2]!.length === 3)) {
    const whole = m[1]!.replace(/[.,]/g, '')
    value = Number(`${whole || '0'}.${m[2]}`)
  } else {
    // No decimal part: a 3-digit group after a separator is thousands (`1,234`, `1.234`).
    const last = /[.,](\d+)$/.exec(compact)
    if (last && last[1]!.length !== 3 && (compact.match(/[.,]/g)?.length ?? 0) === 1) value = Number(compact.replace(',', '.'))
    else value = Number(compact.replace(/[.,]/g, ''))
  }
  if (!Number.isFinite(value)) return null
  return negative ? -value : value
}

const pad = (n: number) => String(n).padStart(2, '0')

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || d > 31) return false
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

function twoDigitYear(y: number): number {
  return y < 100 ? 2000 + y : y
}

export type DateOptions = {
  /** 01/02/2024 means 1 February (true) or January 2 (false, the default). */
  dayFirst?: boolean
  /** For dates without a year: the email's own date (ISO). */
  reference?: string | null
}

/** Parses a date (and time) as written into ISO 8601: `2024-01-05` or `2024-01-05T14:30`. */
export function parseDate(text: string, options: DateOptions = {}): string | null {
  const t = text.trim().toLowerCase()
  let y: number | undefined
  let m: number | undefined
  let d: number | undefined
  let rest: string
  let match: RegExpExecArray | null
  if ((match = /(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/.exec(t))) {
    y = +match[1]!
    m = +match[2]!
    d = +match[3]!
    rest = t.slice(match.index + match[0].length)
  } else if ((match = /(?<!\d)(\d{4})[\s-]([a-z]{3})[a-z]*\.?[\s-](\d{1,2})(?!\d)/.exec(t)) && MONTH_INDEX[match[2]!]) {
    // `2023 Sep 07`, year first with the month's name.
    y = +match[1]!
    m = MONTH_INDEX[match[2]!]
    d = +match[3]!
    rest = t.slice(match.index + match[0].length)
  } else if ((match = /(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})(?!\d)/.exec(t))) {
    const a = +match[1]!
    const b = +match[2]!
    y = twoDigitYear(+match[3]!)
    const dotted = match[0].includes('.')
    const dayFirst = a > 12 || (b <= 12 && (options.dayFirst ?? dotted))
    m = dayFirst ? b : a
    d = dayFirst ? a : b
    rest = t.slice(match.index + match[0].length)
  } else if ((match = /(?<!\d)(\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?[\s-]([a-z]{3})[a-z]*\.?(?:,?[\s-](\d{4}|\d{2})(?![\d:]))?/.exec(t)) && MONTH_INDEX[match[2]!]) {
    d = +match[1]!
    m = MONTH_INDEX[match[2]!]
    y = match[3] ? twoDigitYear(+match[3]) : undefined
    rest = t.slice(match.index + match[0].length)
  } else if ((match = /([a-z]{3})[a-z]*\.?\s+(\d{1,2})(?!\d)(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?/.exec(t)) && MONTH_INDEX[match[1]!]) {
    m = MONTH_INDEX[match[1]!]
    d = +match[2]!
    y = match[3] ? +match[3] : undefined
    rest = t.slice(match.index + match[0].length)
  } else {
    return null
  }
  if (y === undefined) y = inferYear(m!, d!, options.reference)
  if (!validDate(y, m!, d!)) return null
  let iso = `${y}-${pad(m!)}-${pad(d!)}`
  const time = /(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap])?\.?m?|(\d{1,2})\s*([ap])\.?m/.exec(rest)
  if (time) {
    let h = +(time[1] ?? time[5])!
    const min = time[2] ? +time[2] : 0
    const ampm = time[4] ?? time[6]
    if (ampm === 'p' && h < 12) h += 12
    if (ampm === 'a' && h === 12) h = 0
    if (h < 24 && min < 60) iso += `T${pad(h)}:${pad(min)}${time[3] ? `:${time[3]}` : ''}`
  }
  return iso
}

function inferYear(m: number, d: number, reference?: string | null): number {
  const ref = reference ? new Date(reference) : null
  if (!ref || Number.isNaN(ref.getTime())) return new Date().getUTCFullYear()
  const y = ref.getUTCFullYear()
  // A date without a year is the one nearest the email's own date (a December email about January).
  const candidates = [y - 1, y, y + 1]
  let best = y
  let bestGap = Infinity
  for (const c of candidates) {
    const gap = Math.abs(Date.UTC(c, m - 1, d) - ref.getTime())
    if (gap < bestGap) {
      best = c
      bestGap = gap
    }
  }
  return best
}

/**
 * The spreadsheet cell for a value of a field type: a plain number for money and number,
 * an ISO date, a lower-cased address. Null when the text does not read as the type.
 */
export function normaliseCell(value: string, type: FieldType | undefined, options: DateOptions = {}): CellValue | undefined {
  switch (type) {
    case undefined:
    case 'text':
      return value
    case 'money':
    case 'number':
      return parseAmount(value) ?? undefined
    case 'date':
      return parseDate(value, options) ?? undefined
    case 'email': {
      const m = /[^\s<>"'(),;:]+@[^\s<>"'(),;:]+\.[^\s<>"'(),;:]+/.exec(value)
      return m ? m[0].toLowerCase() : undefined
    }
  }
}
