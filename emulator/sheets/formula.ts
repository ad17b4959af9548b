import { lettersToColumn } from './a1-notation'

export type SheetError = '#DIV/0!' | '#NAME?' | '#REF!' | '#VALUE!' | '#N/A' | '#ERROR!' | '#NUM!'

/** A computed cell value. Empty cells read as null. */
export type Scalar = number | string | boolean | null | { error: SheetError }
type Value = Scalar | Scalar[][]

export type FormulaContext = {
  /** The effective value of a cell; sheet null means the formula's own sheet. Undefined if the sheet is unknown. */
  cell: (sheetTitle: string | null, row: number, col: number) => Scalar | undefined
  /** Rows and columns in use on a sheet, to bound open ranges. */
  extent: (sheetTitle: string | null) => { rows: number; cols: number } | undefined
}

type Token =
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'ref'; sheet: string | null; text: string }
  | { kind: 'name'; value: string }
  | { kind: 'op'; value: string }

class FormulaSyntaxError extends Error {}

function tokenize(source: string): Token[] {
  const tokens: Token[] = []
  let index = 0
  while (index < source.length) {
    const rest = source.slice(index)
    const char = source[index]!
    if (/\s/.test(char)) {
      index += 1
      continue
    }
    let match = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(rest)
    if (match) {
      tokens.push({ kind: 'number', value: Number(match[0]) })
      index += match[0].length
      continue
    }
    if (char === '"') {
      let value = ''
      let cursor = index + 1
      for (;;) {
        if (cursor >= source.length) throw new FormulaSyntaxError('unterminated string')
        if (source[cursor] === '"') {
          if (source[cursor + 1] === '"') {
            value += '"'
            cursor += 2
            continue
          }
          break
        }
        value += source[cursor]
        cursor += 1
      }
      tokens.push({ kind: 'string', value })
      index = cursor + 1
      continue
    }
    match = /^(?:'((?:[^']|'')+)'|([A-Za-z_][A-Za-z0-9_]*))!(\$?[A-Za-z]{1,3}\$?\d*(?::\$?[A-Za-z]{1,3}\$?\d*)?)/.exec(rest)
    if (match) {
      const sheet = match[1] !== undefined ? match[1].replace(/''/g, "'") : match[2]!
      tokens.push({ kind: 'ref', sheet, text: match[3]! })
      index += match[0].length
      continue
    }
    match = /^\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?(?![A-Za-z0-9_(])/.exec(rest)
    if (match) {
      tokens.push({ kind: 'ref', sheet: null, text: match[0] })
      index += match[0].length
      continue
    }
    match = /^\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}(?![A-Za-z0-9_(])/.exec(rest)
    if (match) {
      tokens.push({ kind: 'ref', sheet: null, text: match[0] })
      index += match[0].length
      continue
    }
    match = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(rest)
    if (match) {
      tokens.push({ kind: 'name', value: match[0].toUpperCase() })
      index += match[0].length
      continue
    }
    match = /^(<=|>=|<>|[-+*/^&=<>(),%:;])/.exec(rest)
    if (match) {
      tokens.push({ kind: 'op', value: match[0] === ';' ? ',' : match[0] })
      index += match[0].length
      continue
    }
    throw new FormulaSyntaxError(`unexpected ${char}`)
  }
  return tokens
}

const isError = (value: unknown): value is { error: SheetError } =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && 'error' in value

function toNumber(value: Scalar): number | { error: SheetError } {
  if (isError(value)) return value
  if (value === null || value === '') return 0
  if (typeof value === 'number') return value
  if (typeof value === 'boolean') return value ? 1 : 0
  const parsed = Number(value.trim())
  return value.trim() !== '' && Number.isFinite(parsed) ? parsed : { error: '#VALUE!' }
}

export function scalarToText(value: Scalar): string {
  if (value === null) return ''
  if (typeof value === 'number') return formatNumber(value)
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE'
  if (isError(value)) return value.error
  return value
}

/** Sheets' "Automatic" number format: up to 15 significant digits, no trailing zeros. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '#NUM!'
  const rounded = Number(value.toPrecision(15))
  if (Math.abs(rounded) >= 1e15) return rounded.toExponential().replace('e+', 'E+').toUpperCase()
  return String(rounded)
}

/** Evaluates a formula (without its leading "="). Unsupported functions give #NAME?, as in Sheets. */
export function evaluateFormula(formula: string, context: FormulaContext): Scalar {
  let tokens: Token[]
  try {
    tokens = tokenize(formula)
  } catch {
    return { error: '#ERROR!' }
  }
  let position = 0
  const peek = () => tokens[position]
  const isOp = (value: string) => {
    const token = peek()
    return token?.kind === 'op' && token.value === value
  }
  const expectOp = (value: string) => {
    if (!isOp(value)) throw new FormulaSyntaxError(`expected ${value}`)
    position += 1
  }

  const scalar = (value: Value): Scalar => {
    if (!Array.isArray(value)) return value
    return value[0]?.[0] ?? null
  }

  const binaryNumeric = (left: Scalar, right: Scalar, apply: (a: number, b: number) => Scalar): Scalar => {
    const a = toNumber(left)
    if (isError(a)) return a
    const b = toNumber(right)
    if (isError(b)) return b
    return apply(a, b)
  }

  const compare = (left: Scalar, right: Scalar, op: string): Scalar => {
    if (isError(left)) return left
    if (isError(right)) return right
    const normalize = (value: Scalar) => (typeof value === 'string' ? value.toLowerCase() : value ?? 0)
    const a = normalize(left)
    const b = normalize(right)
    switch (op) {
      case '=':
        return a === b
      case '<>':
        return a !== b
      case '<':
        return (a as number) < (b as number)
      case '>':
        return (a as number) > (b as number)
      case '<=':
        return (a as number) <= (b as number)
      default:
        return (a as number) >= (b as number)
    }
  }

  const parseComparison = (): Value => {
    let left = parseConcat()
    while (['=', '<>', '<', '>', '<=', '>='].some(isOp)) {
      const op = (tokens[position++] as { value: string }).value
      left = compare(scalar(left), scalar(parseConcat()), op)
    }
    return left
  }

  const parseConcat = (): Value => {
    let left = parseAdditive()
    while (isOp('&')) {
      position += 1
      const a = scalar(left)
      const b = scalar(parseAdditive())
      left = isError(a) ? a : isError(b) ? b : scalarToText(a) + scalarToText(b)
    }
    return left
  }

  const parseAdditive = (): Value => {
    let left = parseMultiplicative()
    while (isOp('+') || isOp('-')) {
      const op = (tokens[position++] as { value: string }).value
      const right = parseMultiplicative()
      left = binaryNumeric(scalar(left), scalar(right), (a, b) => (op === '+' ? a + b : a - b))
    }
    return left
  }

  const parseMultiplicative = (): Value => {
    let left = parsePower()
    while (isOp('*') || isOp('/')) {
      const op = (tokens[position++] as { value: string }).value
      const right = parsePower()
      left = binaryNumeric(scalar(left), scalar(right), (a, b) => {
        if (op === '*') return a * b
        return b === 0 ? { error: '#DIV/0!' } : a / b
      })
    }
    return left
  }

  const parsePower = (): Value => {
    let left = parseUnary()
    while (isOp('^')) {
      position += 1
      const right = parseUnary()
      left = binaryNumeric(scalar(left), scalar(right), (a, b) => a ** b)
    }
    return left
  }

  const parseUnary = (): Value => {
    if (isOp('-')) {
      position += 1
      return binaryNumeric(0, scalar(parseUnary()), (_a, b) => -b)
    }
    if (isOp('+')) {
      position += 1
      return parseUnary()
    }
    let value = parsePrimary()
    while (isOp('%')) {
      position += 1
      value = binaryNumeric(scalar(value), 100, (a, b) => a / b)
    }
    return value
  }

  const readRef = (sheet: string | null, text: string): Value => {
    const [startText, endText] = text.replace(/\$/g, '').split(':')
    const parse = (part: string) => {
      const match = /^([A-Za-z]*)(\d*)$/.exec(part)!
      return { col: match[1] ? lettersToColumn(match[1]) : null, row: match[2] ? Number(match[2]) - 1 : null }
    }
    const start = parse(startText!)
    const extent = context.extent(sheet)
    if (!extent) return { error: '#REF!' }
    if (endText === undefined) {
      const value = context.cell(sheet, start.row ?? 0, start.col ?? 0)
      return value === undefined ? { error: '#REF!' } : value
    }
    const end = parse(endText)
    const rowFrom = start.row ?? 0
    const colFrom = start.col ?? 0
    const rowTo = end.row ?? Math.max(extent.rows - 1, rowFrom)
    const colTo = end.col ?? Math.max(extent.cols - 1, colFrom)
    const rows: Scalar[][] = []
    for (let row = Math.min(rowFrom, rowTo); row <= Math.max(rowFrom, rowTo); row += 1) {
      const line: Scalar[] = []
      for (let col = Math.min(colFrom, colTo); col <= Math.max(colFrom, colTo); col += 1) line.push(context.cell(sheet, row, col) ?? null)
      rows.push(line)
    }
    return rows
  }

  const parsePrimary = (): Value => {
    const token = tokens[position++]
    if (!token) throw new FormulaSyntaxError('unexpected end')
    switch (token.kind) {
      case 'number':
        return token.value
      case 'string':
        return token.value
      case 'ref':
        return readRef(token.sheet, token.text)
      case 'name': {
        if (isOp('(')) {
          position += 1
          const args: Value[] = []
          if (!isOp(')')) {
            for (;;) {
              args.push(parseComparison())
              if (isOp(',')) {
                position += 1
                continue
              }
              break
            }
          }
          expectOp(')')
          return callFunction(token.value, args)
        }
        if (token.value === 'TRUE') return true
        if (token.value === 'FALSE') return false
        return { error: '#NAME?' }
      }
      case 'op':
        if (token.value === '(') {
          const value = parseComparison()
          expectOp(')')
          return value
        }
        throw new FormulaSyntaxError(`unexpected ${token.value}`)
    }
  }

  const flatten = (args: Value[]): Scalar[] => args.flatMap((arg) => (Array.isArray(arg) ? arg.flat() : [arg]))
  const numbersOf = (args: Value[]): number[] | { error: SheetError } => {
    const out: number[] = []
    for (const arg of args) {
      if (Array.isArray(arg)) {
        for (const value of arg.flat()) {
          if (isError(value)) return value
          if (typeof value === 'number') out.push(value)
        }
      } else {
        const number = toNumber(arg)
        if (isError(number)) return number
        out.push(number)
      }
    }
    return out
  }

  const callFunction = (name: string, args: Value[]): Scalar => {
    switch (name) {
      case 'SUM':
      case 'AVERAGE':
      case 'MIN':
      case 'MAX': {
        const numbers = numbersOf(args)
        if (isError(numbers)) return numbers
        if (name === 'SUM') return numbers.reduce((sum, n) => sum + n, 0)
        if (!numbers.length) return name === 'AVERAGE' ? { error: '#DIV/0!' } : 0
        if (name === 'AVERAGE') return numbers.reduce((sum, n) => sum + n, 0) / numbers.length
        return name === 'MIN' ? Math.min(...numbers) : Math.max(...numbers)
      }
      case 'COUNT':
        return flatten(args).filter((value) => typeof value === 'number').length
      case 'COUNTA':
        return flatten(args).filter((value) => value !== null && value !== '').length
      case 'CONCATENATE':
      case 'CONCAT': {
        const values = flatten(args)
        const error = values.find(isError)
        return error ?? values.map(scalarToText).join('')
      }
      case 'UPPER':
      case 'LOWER':
      case 'TRIM':
      case 'LEN': {
        const value = scalar(args[0] ?? '')
        if (isError(value)) return value
        const text = scalarToText(value)
        if (name === 'UPPER') return text.toUpperCase()
        if (name === 'LOWER') return text.toLowerCase()
        if (name === 'TRIM') return text.trim().replace(/\s+/g, ' ')
        return text.length
      }
      case 'ROUND':
        return binaryNumeric(scalar(args[0] ?? 0), scalar(args[1] ?? 0), (a, b) => Math.round(a * 10 ** b) / 10 ** b)
      case 'ABS':
        return binaryNumeric(scalar(args[0] ?? 0), 0, (a) => Math.abs(a))
      case 'IF': {
        const condition = scalar(args[0] ?? false)
        if (isError(condition)) return condition
        const truthy = typeof condition === 'string' ? condition !== '' : Boolean(condition)
        return scalar(truthy ? (args[1] ?? true) : (args[2] ?? false))
      }
      case 'AND':
      case 'OR': {
        const values = flatten(args).filter((value) => value !== null)
        const error = values.find(isError)
        if (error) return error
        const bools = values.map((value) => Boolean(value))
        return name === 'AND' ? bools.every(Boolean) : bools.some(Boolean)
      }
      case 'NOT': {
        const value = scalar(args[0] ?? false)
        return isError(value) ? value : !value
      }
      default:
        return { error: '#NAME?' }
    }
  }

  try {
    const value = parseComparison()
    if (position !== tokens.length) return { error: '#ERROR!' }
    return scalar(value)
  } catch {
    return { error: '#ERROR!' }
  }
}

export const errorTypeByCode: Record<SheetError, string> = {
  '#DIV/0!': 'DIVIDE_BY_ZERO',
  '#NAME?': 'NAME',
  '#REF!': 'REF',
  '#VALUE!': 'VALUE',
  '#N/A': 'N_A',
  '#ERROR!': 'ERROR',
  '#NUM!': 'NUM',
}

export function isErrorValue(value: unknown): value is { error: SheetError } {
  return isError(value)
}
