import { describe, expect, it } from 'vitest'
import { EXPRESSION_LIMITS, evaluateExpression, parseExpression, type ExpressionValue } from './expression'

function run(src: string, values: Record<string, ExpressionValue> = {}) {
  const parsed = parseExpression(src)
  if (!parsed.ok) throw new Error(parsed.error)
  const fields = new Map(Object.entries(values))
  return evaluateExpression(parsed.expr, (name) => (fields.has(name) ? fields.get(name)! : null))
}

describe('the computed field language', () => {
  it('does arithmetic with precedence, parentheses and unary minus', () => {
    expect(run('1 + 2 * 3')).toBe(7)
    expect(run('(1 + 2) * 3')).toBe(9)
    expect(run('10 / 4 - -1')).toBe(3.5)
    expect(run('Subtotal * 0.2', { Subtotal: 50 })).toBe(10)
    expect(run('[Unit Price] * Qty', { 'Unit Price': 2.5, Qty: 4 })).toBe(10)
  })

  it('joins text with & and with + when either side is text', () => {
    expect(run('First & " " & Last', { First: 'Ana', Last: 'López' })).toBe('Ana López')
    expect(run('"#" + Order', { Order: '1042' })).toBe('#1042')
    expect(run("'it''s ' & Name", { Name: 'done' })).toBe("it's done")
    expect(run('Total & " USD"', { Total: 84.88 })).toBe('84.88 USD')
  })

  it('reads a text field as a number only when it is a plain number; empty fields give an empty result', () => {
    expect(run('Qty * 2', { Qty: '3' })).toBe(6)
    expect(run('Qty * 2', { Qty: 'three' })).toBeNull()
    expect(run('Missing * 2')).toBeNull()
    expect(run('Missing & "x"')).toBe('x')
    expect(run('1 / 0')).toBeNull()
  })

  it('names the fields an expression reads, and explains what is wrong with a bad one', () => {
    const parsed = parseExpression('[Unit Price] * Qty + Qty')
    expect(parsed.ok && parsed.fields).toEqual(['Unit Price', 'Qty'])
    for (const [src, error] of [
      ['1 +', /ends too early/],
      ['(1 + 2', /Missing \)/],
      ['1 2', /Unexpected/],
      ['"open', /not closed/],
      ['[Total', /not closed/],
      ['a = 1', /Unexpected "="/],
      ['', /enter an expression/],
    ] as const) {
      const result = parseExpression(src)
      expect(result.ok, src).toBe(false)
      if (!result.ok) expect(result.error, src).toMatch(error)
    }
  })
})

describe('hostile expressions', () => {
  it('never runs code: JavaScript is refused or read as field names', () => {
    for (const src of ['process.exit(1)', 'constructor.constructor("return process")()', 'this', 'x => x', '`${1}`', 'a; b', 'require("fs")', 'a[0]', 'globalThis.foo']) {
      const parsed = parseExpression(src)
      if (parsed.ok) {
        // Only names and arithmetic parse: evaluating reads (empty) fields and nothing else.
        expect(['string', 'number', 'object']).toContain(typeof evaluateExpression(parsed.expr, () => null))
      } else {
        expect(parsed.error).toBeTruthy()
      }
    }
    expect(parseExpression('process.exit(1)').ok).toBe(false)
    expect(parseExpression('x => x').ok).toBe(false)
  })

  it('reads fields named like object internals as the fields they name, not as properties', () => {
    expect(run('__proto__ & constructor & toString', {})).toBe('')
    expect(run('[__proto__] * 1')).toBeNull()
    const lookups: string[] = []
    const parsed = parseExpression('[constructor] & [hasOwnProperty]')
    if (!parsed.ok) throw new Error(parsed.error)
    expect(evaluateExpression(parsed.expr, (name) => (lookups.push(name), 'v'))).toBe('vv')
    expect(lookups).toEqual(['constructor', 'hasOwnProperty'])
  })

  it('refuses deep nesting and long sources instead of overflowing the stack', () => {
    const deep = `${'('.repeat(5_000)}1${')'.repeat(5_000)}`
    const result = parseExpression(deep.slice(0, EXPRESSION_LIMITS.length))
    expect(result.ok).toBe(false)
    expect(parseExpression('('.repeat(40) + '1' + ')'.repeat(40))).toMatchObject({ ok: false, error: expect.stringMatching(/nested too deeply/) })
    expect(parseExpression('-'.repeat(100) + '1')).toMatchObject({ ok: false, error: expect.stringMatching(/nested too deeply/) })
    expect(parseExpression('1+'.repeat(300) + '1')).toMatchObject({ ok: false, error: expect.stringMatching(/at most 500 characters/) })
  })

  it('empties a computed text longer than a cell rather than building it', () => {
    const big = 'x'.repeat(30_000)
    expect(run('A & A', { A: big })).toBeNull()
    expect(run('(A & A) & "tail"', { A: big })).toBeNull()
    expect(run('A & "!"', { A: 'x'.repeat(100) })).toHaveLength(101)
  })

  it('gives an empty cell for results that are not finite numbers', () => {
    expect(run('A * A', { A: 1e200 })).toBeNull()
  })
})
