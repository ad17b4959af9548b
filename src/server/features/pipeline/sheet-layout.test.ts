import { describe, expect, it } from 'vitest'
import type { ExtractionResult, FieldResult } from '@shared/contracts/extraction'
import { defaultSheetLayout } from '@shared/contracts/sheets'
import { rowKey } from './sheet-keys'
import { buildSheetRows, columnFormats, isoToSerial, keyColumnOf, planLayout, typedCell, type LayoutParser } from './sheet-layout'

const headers = (layout: { header: string }[]) => layout.map((c) => c.header)

describe('planLayout: the sheet header is append-only', () => {
  const base = defaultSheetLayout(['Order', 'Customer', 'Total'])

  it('puts new fields and custom fields after every existing column, and moves none', () => {
    const change = planLayout(base, {
      fields: [
        { name: 'Total', previousName: 'Total' },
        { name: 'Tracking', previousName: null },
        { name: 'Order', previousName: 'Order' },
        { name: 'Customer', previousName: 'Customer' },
      ],
      customFields: [{ kind: 'fixed', name: 'Shop', value: 'Acme' }],
    })
    expect(headers(change.layout)).toEqual(['Order', 'Customer', 'Total', 'Received', 'From', 'Subject', 'Message ID', 'Row Key', 'Tracking', 'Shop'])
    expect(change.added).toEqual([
      { index: 8, header: 'Tracking' },
      { index: 9, header: 'Shop' },
    ])
    expect(keyColumnOf(change.layout, 'row_key')).toBe(7)
  })

  it('renames a column in place and keeps a removed field\'s column, unfilled', () => {
    const change = planLayout(base, { fields: [{ name: 'Buyer', previousName: 'Customer' }, { name: 'Order', previousName: 'Order' }], customFields: [] })
    expect(headers(change.layout)).toEqual(['Order', 'Buyer', 'Total', 'Received', 'From', 'Subject', 'Message ID', 'Row Key'])
    expect(change.layout[2]!.source).toEqual({ kind: 'none' })
    expect(change.renamed).toEqual([{ index: 1, from: 'Customer', to: 'Buyer' }])
    expect(change.added).toEqual([])
    // Added back under its old name, the field gets its old column again.
    const back = planLayout(change.layout, { fields: [{ name: 'Buyer', previousName: 'Buyer' }, { name: 'Order', previousName: 'Order' }, { name: 'Total', previousName: null }], customFields: [] })
    expect(back.layout[2]!.source).toEqual({ kind: 'field', name: 'Total' })
    expect(back.added).toEqual([])
  })

  it("starts new columns after the sheet's own header cells (another parser's, the user's)", () => {
    const change = planLayout(base, { fields: ['Order', 'Customer', 'Total'].map((n) => ({ name: n, previousName: n })).concat({ name: 'Notes2', previousName: null as unknown as string }), customFields: [], headerWidth: 10 })
    expect(change.added).toEqual([{ index: 10, header: 'Notes2' }])
    expect(change.layout.slice(8, 10).map((c) => c.source.kind)).toEqual(['none', 'none'])
  })
})

function result(values: Record<string, { value: string | null; cell?: string | number | null }>): ExtractionResult {
  const details: Record<string, FieldResult> = {}
  for (const [name, v] of Object.entries(values)) details[name] = { value: v.value, cell: v.cell ?? v.value, confidence: 1, rule: 'test' }
  return { status: 'success', fields: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.value])), details, method: 'template', error: null, warnings: [], usage: null, durationMs: 0 }
}

describe('typed cells', () => {
  it('writes money and numbers as numbers, dates as date serials, and everything else as its text', () => {
    expect(typedCell('money', '$84.88', 84.88)).toBe(84.88)
    expect(typedCell('number', '1,204', 1204)).toBe(1204)
    expect(typedCell('date', 'March 5, 2024', '2024-03-05')).toBe(45356)
    expect(typedCell('date', '5 Mar 2024 14:30', '2024-03-05T14:30')).toBeCloseTo(45356 + 14.5 / 24, 6)
    expect(typedCell('text', '00123', '00123')).toBe('00123')
    expect(typedCell(undefined, '$84.88', '$84.88')).toBe('$84.88')
    // A value that does not read as its type stays text (the engine keeps the text as the cell).
    expect(typedCell('money', 'n/a', 'n/a')).toBe('n/a')
    expect(typedCell('date', 'soon', 'soon')).toBe('soon')
  })

  it('keeps text that looks like a formula as text, whatever the field type', () => {
    for (const hostile of ['=HYPERLINK("http://evil.test","Click")', "+cmd|' /C calc'!A0", '-cmd', '@SUM(A1:A9)', '=1+1']) {
      for (const type of [undefined, 'text', 'money', 'number', 'date', 'email'] as const) {
        const cell = typedCell(type, hostile, hostile)
        expect(cell, `${type}: ${hostile}`).toBe(hostile)
      }
    }
  })

  it('converts ISO dates to the serials Sheets uses', () => {
    expect(isoToSerial('1899-12-31')).toBe(1)
    expect(isoToSerial('2024-01-01')).toBe(45292)
    expect(isoToSerial('nonsense')).toBeNull()
  })

  it('formats money and date columns, and leaves text columns alone', () => {
    const parser = {
      extractionFields: [
        { name: 'Total', value: '$1', type: 'money' as const },
        { name: 'Day', value: '1 May', type: 'date' as const },
        { name: 'Name', value: 'x' },
      ],
      customFields: [{ kind: 'received_at' as const, name: 'Arrived' }],
    }
    const layout = planLayout(defaultSheetLayout(['Total', 'Day', 'Name']), { fields: ['Total', 'Day', 'Name'].map((n) => ({ name: n, previousName: n })), customFields: parser.customFields }).layout
    expect(columnFormats(parser, layout).map((f) => [f.index, f.format.pattern])).toEqual([
      [0, '#,##0.00'],
      [1, 'yyyy-mm-dd'],
      [8, 'yyyy-mm-dd hh:mm'],
    ])
  })
})

describe('buildSheetRows', () => {
  const parser: LayoutParser = {
    id: 'p1',
    extractionFields: [
      { name: 'Qty', value: '2', type: 'number' },
      { name: 'Price', value: '$3.50', type: 'money' },
      { name: 'Name', value: 'Ana' },
    ],
    rowMode: 'per_email',
    sheetKey: 'row_key',
    sheetColumns: null,
    customFields: [
      { kind: 'computed', name: 'Line total', expression: 'Qty * Price' },
      { kind: 'computed', name: 'Label', expression: 'Name & " x" & Qty' },
      { kind: 'fixed', name: 'Shop', value: '=IMPORTXML("http://evil.test")' },
      { kind: 'gmail_link', name: 'Link' },
      { kind: 'from', name: 'Sender' },
    ],
  }
  const layout = planLayout(defaultSheetLayout(['Qty', 'Price', 'Name']), {
    fields: parser.extractionFields.map((f) => ({ name: f.name, previousName: f.name })),
    customFields: parser.customFields,
  }).layout

  it('lays the cells out as the layout says, with the key cell where the layout keeps it', () => {
    const [row] = buildSheetRows({ ...parser, sheetColumns: layout }, result({ Qty: { value: '2', cell: 2 }, Price: { value: '$3.50', cell: 3.5 }, Name: { value: 'Ana' } }), { from: 'a@b.test', subject: 'Hi', date: null }, 'abc123', new Date('2024-03-05T10:00:00Z'))
    expect(row).toEqual([2, 3.5, 'Ana', '2024-03-05T10:00:00.000Z', 'a@b.test', 'Hi', 'abc123', 'p1:abc123', 7, 'Ana x2', '=IMPORTXML("http://evil.test")', 'https://mail.google.com/mail/u/0/#all/abc123', 'a@b.test'])
    expect(rowKey(row!, 'row_key', keyColumnOf(layout, 'row_key'))).toBe('p1:abc123')
  })

  it('leaves a removed field\'s column alone (null), so an overwrite in place keeps the old value', () => {
    const edited = planLayout(layout, { fields: [{ name: 'Qty', previousName: 'Qty' }, { name: 'Name', previousName: 'Name' }], customFields: parser.customFields }).layout
    const [row] = buildSheetRows(
      { ...parser, extractionFields: parser.extractionFields.filter((f) => f.name !== 'Price'), sheetColumns: edited },
      result({ Qty: { value: '2', cell: 2 }, Name: { value: 'Ana' } }),
      { from: 'a@b.test', subject: 'Hi', date: null },
      'abc123',
      null,
    )
    expect(row![1]).toBeNull()
    expect(row![8]).toBe('') // Qty * (no Price): empty
  })
})
