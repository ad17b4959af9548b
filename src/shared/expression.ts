/**
 * The computed custom field's language (docs/decisions/022): arithmetic and string concatenation
 * over the parser's fields, parsed by hand into a small tree and evaluated by walking it. Never
 * `eval` or `Function`: user text is data, never code.
 *
 *   expression := concat
 *   concat     := sum ( '&' sum )*
 *   sum        := product ( ('+' | '-') product )*
 *   product    := unary ( ('*' | '/') unary )*
 *   unary      := '-' unary | primary
 *   primary    := number | string | field | '(' expression ')'
 *   field      := name (letters, digits, _) | '[' any text but ']' ']'
 *   string     := "…" or '…' (a doubled quote is a quote)
 *
 * `+` adds two numbers and joins anything else as text; `&` always joins. `-`, `*` and `/` need
 * numbers: a field typed number or money is one, a text field counts when it reads as a plain
 * number. An empty field makes arithmetic empty and joins as ''. Division by zero is empty.
 */

export type Expr =
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'field'; name: string }
  | { kind: 'neg'; operand: Expr }
  | { kind: 'binary'; op: '+' | '-' | '*' | '/' | '&'; left: Expr; right: Expr }

export const EXPRESSION_LIMITS = {
  /** Characters of source. */
  length: 500,
  /** Parentheses and unary minus nested this deep at most (a recursive descent must not overflow). */
  depth: 32,
  /** A computed text longer than a Sheets cell allows (50,000 characters) is refused. */
  resultLength: 50_000,
} as const

export type ParsedExpression = { ok: true; expr: Expr; fields: string[] } | { ok: false; error: string }

type Token =
  | { t: 'num'; v: number; at: number }
  | { t: 'str'; v: string; at: number }
  | { t: 'field'; v: string; at: number }
  | { t: 'op'; v: '+' | '-' | '*' | '/' | '&' | '(' | ')'; at: number }

class ExpressionError extends Error {}

function tokenize(src: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < src.length) {
    const c = src[i]!
    if (/\s/.test(c)) {
      i++
    } else if ('+-*/&()'.includes(c)) {
      tokens.push({ t: 'op', v: c as '+', at: i })
      i++
    } else if (/[0-9.]/.test(c)) {
      const m = /^(\d+\.?\d*|\.\d+)/.exec(src.slice(i))
      if (!m) throw new ExpressionError(`Unexpected "${c}" at position ${i + 1}`)
      tokens.push({ t: 'num', v: Number(m[0]), at: i })
      i += m[0].length
    } else if (c === '"' || c === "'") {
      let j = i + 1
      let text = ''
      for (;;) {
        if (j >= src.length) throw new ExpressionError(`Text starting at position ${i + 1} is not closed with ${c}`)
        if (src[j] === c) {
          if (src[j + 1] === c) {
            text += c
            j += 2
            continue
          }
          break
        }
        text += src[j]
        j++
      }
      tokens.push({ t: 'str', v: text, at: i })
      i = j + 1
    } else if (c === '[') {
      const end = src.indexOf(']', i + 1)
      if (end < 0) throw new ExpressionError(`Field name starting at position ${i + 1} is not closed with ]`)
      const name = src.slice(i + 1, end).trim()
      if (!name) throw new ExpressionError(`Empty field name at position ${i + 1}`)
      tokens.push({ t: 'field', v: name, at: i })
      i = end + 1
    } else if (/[\p{L}_]/u.test(c)) {
      const m = /^[\p{L}\p{N}_]+/u.exec(src.slice(i))!
      tokens.push({ t: 'field', v: m[0], at: i })
      i += m[0].length
    } else {
      throw new ExpressionError(`Unexpected "${c}" at position ${i + 1}`)
    }
  }
  return tokens
}

/** Parses a computed field's expression; the names of the fields it reads come with it. */
export function parseExpression(src: string): ParsedExpression {
  if (src.length > EXPRESSION_LIMITS.length) return { ok: false, error: `An expression can be at most ${EXPRESSION_LIMITS.length} characters` }
  if (!src.trim()) return { ok: false, error: 'Please enter an expression' }
  try {
    const tokens = tokenize(src)
    let pos = 0
    const fields = new Set<string>()
    const peek = () => tokens[pos]
    const isOp = (v: string) => {
      const t = peek()
      return t?.t === 'op' && t.v === v
    }
    const binary = (next: (depth: number) => Expr, ops: string[]) => (depth: number): Expr => {
      let left = next(depth)
      for (;;) {
        const t = peek()
        if (t?.t !== 'op' || !ops.includes(t.v)) return left
        pos++
        left = { kind: 'binary', op: t.v as '+', left, right: next(depth) }
      }
    }
    const primary = (depth: number): Expr => {
      if (depth > EXPRESSION_LIMITS.depth) throw new ExpressionError('The expression is nested too deeply')
      const t = tokens[pos++]
      if (!t) throw new ExpressionError('The expression ends too early')
      if (t.t === 'num') return { kind: 'number', value: t.v }
      if (t.t === 'str') return { kind: 'string', value: t.v }
      if (t.t === 'field') {
        fields.add(t.v)
        return { kind: 'field', name: t.v }
      }
      if (t.v === '-') return { kind: 'neg', operand: primary(depth + 1) }
      if (t.v === '(') {
        const inner = concat(depth + 1)
        if (!isOp(')')) throw new ExpressionError(`Missing ) for the ( at position ${t.at + 1}`)
        pos++
        return inner
      }
      throw new ExpressionError(`Unexpected "${t.v}" at position ${t.at + 1}`)
    }
    const product = binary(primary, ['*', '/'])
    const sum = binary(product, ['+', '-'])
    const concat: (depth: number) => Expr = binary(sum, ['&'])
    const expr = concat(0)
    const rest = peek()
    if (rest) throw new ExpressionError(`Unexpected "${rest.t === 'op' ? rest.v : src.slice(rest.at, rest.at + 10)}" at position ${rest.at + 1}`)
    return { ok: true, expr, fields: [...fields] }
  } catch (error) {
    if (error instanceof ExpressionError) return { ok: false, error: error.message }
    throw error
  }
}

export type ExpressionValue = string | number | null

function asNumber(value: ExpressionValue): number | null {
  if (typeof value === 'number') return value
  if (value === null) return null
  const text = value.trim()
  return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : null
}

const asText = (value: ExpressionValue) => (value === null ? '' : String(value))

/**
 * Evaluates a parsed expression. `lookup` gives a field's value (a number for number and money
 * fields, else text; null when empty or unknown). The result is a number, a text or null (empty).
 */
export function evaluateExpression(expr: Expr, lookup: (name: string) => ExpressionValue): ExpressionValue {
  let result: ExpressionValue
  try {
    result = evaluate(expr, lookup)
  } catch (error) {
    // A text over a cell's limit empties the whole value, rather than a part of it going missing.
    if (error instanceof ExpressionError) return null
    throw error
  }
  if (typeof result === 'number' && !Number.isFinite(result)) return null
  return result
}

function evaluate(expr: Expr, lookup: (name: string) => ExpressionValue): ExpressionValue {
  switch (expr.kind) {
    case 'number':
    case 'string':
      return expr.value
    case 'field':
      return lookup(expr.name)
    case 'neg': {
      const n = asNumber(evaluate(expr.operand, lookup))
      return n === null ? null : -n
    }
    case 'binary': {
      const left = evaluate(expr.left, lookup)
      const right = evaluate(expr.right, lookup)
      if (expr.op === '&' || (expr.op === '+' && (typeof left !== 'number' || typeof right !== 'number'))) {
        const a = asText(left)
        const b = asText(right)
        if (a.length + b.length > EXPRESSION_LIMITS.resultLength) throw new ExpressionError('The computed text is too long')
        return a + b
      }
      const a = asNumber(left)
      const b = asNumber(right)
      if (a === null || b === null) return null
      switch (expr.op) {
        case '+':
          return a + b
        case '-':
          return a - b
        case '*':
          return a * b
        case '/':
          return b === 0 ? null : a / b
      }
    }
  }
}
