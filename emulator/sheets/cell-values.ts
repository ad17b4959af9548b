import { isErrorValue, scalarToText, type Scalar } from './formula'

export type NumberFormatType = 'NUMBER' | 'PERCENT' | 'CURRENCY' | 'DATE'

/** What a cell holds, as Sheets stores it (its userEnteredValue, plus the format USER_ENTERED inferred). */
export type Cell =
  | { type: 'string'; value: string }
  | { type: 'number'; value: number; display?: string; format?: NumberFormatType }
  | { type: 'bool'; value: boolean }
  | { type: 'formula'; formula: string }

export type ValueInputOption = 'RAW' | 'USER_ENTERED'
export type ValueRenderOption = 'FORMATTED_VALUE' | 'UNFORMATTED_VALUE' | 'FORMULA'

/** A value from a request body: a cell, "clear" for "", or "skip" for null (leave the cell as it is). */
export type CellWrite = Cell | 'clear' | 'skip'

export function cellFromInput(input: unknown, option: ValueInputOption): CellWrite | undefined {
  if (input === null || input === undefined) return 'skip'
  if (typeof input === 'number') return Number.isFinite(input) ? { type: 'number', value: input } : undefined
  if (typeof input === 'boolean') return { type: 'bool', value: input }
  if (typeof input !== 'string') return undefined
  if (input === '') return 'clear'
  if (option === 'RAW') return { type: 'string', value: input }
  return parseUserEntered(input)
}

/** How the Sheets UI reads typed text: formulas, numbers, percentages, currency, dates and booleans. */
export function parseUserEntered(input: string): Cell {
  if (input.startsWith("'")) return { type: 'string', value: input.slice(1) }
  if (input.startsWith('=') && input.length > 1) return { type: 'formula', formula: input }
  const text = input.trim()
  if (/^(true|false)$/i.test(text)) return { type: 'bool', value: text.toLowerCase() === 'true' }
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return { type: 'number', value: Number(text) }
  if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) {
    return { type: 'number', value: Number(text.replace(/,/g, '')), display: text, format: 'NUMBER' }
  }
  let match = /^([+-]?)(\d+\.?\d*|\.\d+)%$/.exec(text)
  if (match) return { type: 'number', value: Number(`${match[1]}${match[2]}`) / 100, display: text, format: 'PERCENT' }
  match = /^([+-]?)[$€£]\s?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)$/.exec(text)
  if (match) return { type: 'number', value: Number(`${match[1]}${match[2]!.replace(/,/g, '')}`), display: text, format: 'CURRENCY' }
  const serial = parseDateSerial(text)
  if (serial !== null) return { type: 'number', value: serial, display: text, format: 'DATE' }
  return { type: 'string', value: input }
}

const SERIAL_EPOCH = Date.UTC(1899, 11, 30)

/** Sheets stores dates as days since 1899-12-30. */
function parseDateSerial(text: string): number | null {
  let match = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(text)
  let year: number, month: number, day: number
  if (match) {
    ;[year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  } else {
    match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text)
    if (!match) return null
    ;[month, day, year] = [Number(match[1]), Number(match[2]), Number(match[3])]
  }
  const time = Date.UTC(year, month - 1, day)
  const check = new Date(time)
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null
  return Math.round((time - SERIAL_EPOCH) / 86_400_000)
}

export function literalValue(cell: Cell): Scalar {
  switch (cell.type) {
    case 'string':
      return cell.value
    case 'number':
      return cell.value
    case 'bool':
      return cell.value
    case 'formula':
      return null
  }
}

export function renderValue(cell: Cell, effective: Scalar, option: ValueRenderOption, format?: NumberFormat): string | number | boolean {
  if (option === 'FORMULA' && cell.type === 'formula') return cell.formula
  if (option === 'FORMATTED_VALUE') {
    if (format && typeof effective === 'number') return formatNumber(effective, format)
    if (cell.type === 'number' && cell.display !== undefined) return cell.display
    return scalarToText(effective)
  }
  if (effective === null) return ''
  if (isErrorValue(effective)) return effective.error
  return effective
}

export function formattedValue(cell: Cell, effective: Scalar, format?: NumberFormat): string {
  return renderValue(cell, effective, 'FORMATTED_VALUE', format) as string
}

/** Google's ExtendedValue for grid data. */
export function userEnteredValue(cell: Cell): Record<string, unknown> {
  switch (cell.type) {
    case 'string':
      return { stringValue: cell.value }
    case 'number':
      return { numberValue: cell.value }
    case 'bool':
      return { boolValue: cell.value }
    case 'formula':
      return { formulaValue: cell.formula }
  }
}


/** A cell's number format as repeatCell sets it (userEnteredFormat.numberFormat). */
export type NumberFormat = { type: string; pattern?: string }

const SERIAL_DAY_MS = 86_400_000
const EPOCH = Date.UTC(1899, 11, 30)

/**
 * A number shown through a format's pattern, as the Sheets UI shows it: the date and time tokens
 * (yyyy, mm, dd, hh, mm after hh, ss) for DATE / DATE_TIME / TIME, and `#,##0.00`-style patterns
 * (grouping, fixed decimals) for NUMBER / CURRENCY. Anything else falls back to the plain number.
 */
export function formatNumber(value: number, format: NumberFormat): string {
  const pattern = format.pattern ?? ''
  if (format.type === 'DATE' || format.type === 'DATE_TIME' || format.type === 'TIME') {
    const date = new Date(EPOCH + Math.round(value * SERIAL_DAY_MS))
    const pad = (n: number) => String(n).padStart(2, '0')
    const fallback = format.type === 'DATE' ? 'yyyy-mm-dd' : format.type === 'TIME' ? 'hh:mm:ss' : 'yyyy-mm-dd hh:mm:ss'
    let afterHours = false
    return (pattern || fallback).replace(/yyyy|yy|mm|dd|hh|ss/g, (token) => {
      switch (token) {
        case 'yyyy':
          return String(date.getUTCFullYear())
        case 'yy':
          return pad(date.getUTCFullYear() % 100)
        case 'dd':
          return pad(date.getUTCDate())
        case 'hh':
          afterHours = true
          return pad(date.getUTCHours())
        case 'ss':
          return pad(date.getUTCSeconds())
        default:
          // 'mm' is minutes right after hours, else the month (Sheets' own rule).
          if (afterHours) {
            afterHours = false
            return pad(date.getUTCMinutes())
          }
          return pad(date.getUTCMonth() + 1)
      }
    })
  }
  if ((format.type === 'NUMBER' || format.type === 'CURRENCY') && pattern) {
    const m = /^([^#0]*)([#0,]*0)(?:\.(0+))?(.*)$/.exec(pattern)
    if (!m) return String(value)
    const decimals = m[3]?.length ?? 0
    const grouped = m[2]!.includes(',')
    const text = Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: grouped })
    return `${value < 0 ? '-' : ''}${m[1]}${text}${m[4]}`
  }
  return String(value)
}
