import { describe, expect, it } from 'vitest'
import { formatRange, parseA1, quoteSheetTitle } from './a1-notation'
import { parseUserEntered } from './cell-values'
import { evaluateFormula, formatNumber } from './formula'

describe('A1 notation', () => {
  it.each([
    ['Sheet1!A1:B2', { sheetTitle: 'Sheet1', startRow: 0, startCol: 0, endRow: 2, endCol: 2 }],
    ["'My ''quoted'' sheet'!C3", { sheetTitle: "My 'quoted' sheet", startRow: 2, startCol: 2, endRow: 3, endCol: 3, isSingleCell: true }],
    ['Data!A:C', { sheetTitle: 'Data', startRow: 0, startCol: 0, endRow: null, endCol: 3 }],
    ['Data!A2:C', { sheetTitle: 'Data', startRow: 1, startCol: 0, endRow: null, endCol: 3 }],
    ['Data!2:5', { sheetTitle: 'Data', startRow: 1, startCol: 0, endRow: 5, endCol: null }],
    ['B2:A1', { sheetTitle: null, startRow: 0, startCol: 0, endRow: 2, endCol: 2 }],
    ['Sheet1!$AA$10', { sheetTitle: 'Sheet1', startRow: 9, startCol: 26, endRow: 10, endCol: 27, isSingleCell: true }],
  ])('parses %s', (input, range) => {
    const parsed = parseA1(input)
    expect(parsed).toMatchObject({ kind: 'range', range })
  })

  it('treats a bare name as a sheet, and rejects garbage', () => {
    expect(parseA1('Orders')).toEqual({ kind: 'sheet', sheetTitle: 'Orders' })
    expect(parseA1("'Lead data'")).toEqual({ kind: 'sheet', sheetTitle: 'Lead data' })
    expect(parseA1('Sheet1!A1:B2:C3')).toBeNull()
    expect(parseA1("'unterminated!A1")).toBeNull()
  })

  it('quotes sheet titles the way Google writes ranges back', () => {
    expect(quoteSheetTitle('Sheet1')).toBe('Sheet1')
    expect(quoteSheetTitle('Lead Data')).toBe("'Lead Data'")
    expect(quoteSheetTitle('AB12')).toBe("'AB12'")
    expect(quoteSheetTitle("Bob's")).toBe("'Bob''s'")
    expect(formatRange('Orders - Data', 1, 0, 3, 4)).toBe("'Orders - Data'!A2:D3")
    expect(formatRange('Sheet1', 0, 27, 1, 28)).toBe('Sheet1!AB1')
  })
})

describe('USER_ENTERED parsing', () => {
  it.each([
    ['42', { type: 'number', value: 42 }],
    ['007', { type: 'number', value: 7 }],
    ['-3.5e2', { type: 'number', value: -350 }],
    ['1,234.5', { type: 'number', value: 1234.5, display: '1,234.5' }],
    ['15%', { type: 'number', value: 0.15, display: '15%' }],
    ['$19.99', { type: 'number', value: 19.99, display: '$19.99' }],
    ['2024-03-01', { type: 'number', value: 45352, display: '2024-03-01', format: 'DATE' }],
    ['true', { type: 'bool', value: true }],
    ['=SUM(A1:A3)', { type: 'formula', formula: '=SUM(A1:A3)' }],
    ["'0042", { type: 'string', value: '0042' }],
    ['Order #12', { type: 'string', value: 'Order #12' }],
    ['2024-02-30', { type: 'string', value: '2024-02-30' }],
  ])('%s', (input, cell) => {
    expect(parseUserEntered(input)).toMatchObject(cell)
  })
})

describe('formulas', () => {
  const grid: (number | string | null)[][] = [
    [1, 'a'],
    [2, 'b'],
    [3, null],
  ]
  const context = {
    cell: (_sheet: string | null, row: number, col: number) => grid[row]?.[col] ?? null,
    extent: () => ({ rows: grid.length, cols: 2 }),
  }

  it.each([
    ['1+1', 2],
    ['2*(3+4)^2', 98],
    ['SUM(A1:A3)', 6],
    ['SUM(A:A)', 6],
    ['AVERAGE(A1:A3)', 2],
    ['A1&"-"&B2', '1-b'],
    ['CONCATENATE(B1,B2,"!")', 'ab!'],
    ['IF(A3>2,"big","small")', 'big'],
    ['ROUND(10/3,2)', 3.33],
    ['UPPER("mailrow")', 'MAILROW'],
    ['COUNTA(B1:B3)', 2],
    ['50%', 0.5],
  ])('=%s', (formula, expected) => {
    expect(evaluateFormula(formula, context)).toEqual(expected)
  })

  it('gives Sheets error values', () => {
    expect(evaluateFormula('1/0', context)).toEqual({ error: '#DIV/0!' })
    expect(evaluateFormula('VLOOKUPX(1)', context)).toEqual({ error: '#NAME?' })
    expect(evaluateFormula('1+', context)).toEqual({ error: '#ERROR!' })
    expect(evaluateFormula('"a"*2', context)).toEqual({ error: '#VALUE!' })
  })

  it('formats numbers as the Automatic format does', () => {
    expect(formatNumber(0.1 + 0.2)).toBe('0.3')
    expect(formatNumber(1234.5)).toBe('1234.5')
  })
})
