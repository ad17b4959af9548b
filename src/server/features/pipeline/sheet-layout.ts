import type { ExtractionField, ExtractionResult, FieldType } from '@shared/contracts/extraction'
import type { CustomField } from '@shared/contracts/parser-edit'
import type { RowMode } from '@shared/contracts/parsers'
import { defaultSheetLayout, rowKeyCell, type SheetColumn, type SheetKey } from '@shared/contracts/sheets'
import { evaluateExpression, parseExpression, type ExpressionValue } from '@shared/expression'
import type { SheetCell } from '../../db/schema'

/**
 * A parser's sheet layout (docs/decisions/022): which column holds what. Append only: an edit
 * renames a column's header or stops filling it, and new fields get new columns at the end; no
 * column ever moves, so the rows already in the sheet and the key column stay where they are.
 */
export type LayoutParser = {
  id: string
  extractionFields: ExtractionField[]
  rowMode: RowMode
  sheetKey: SheetKey
  sheetColumns: SheetColumn[] | null
  customFields: CustomField[]
}

export function layoutOf(parser: Pick<LayoutParser, 'extractionFields' | 'rowMode' | 'sheetKey' | 'sheetColumns'>): SheetColumn[] {
  return parser.sheetColumns ?? defaultSheetLayout(parser.extractionFields.map((f) => f.name), parser.rowMode, parser.sheetKey)
}

/** 0-based column of the first key cell: Row Key, or Message ID (then Item #) for parsers from before decision 014. */
export function keyColumnOf(layout: SheetColumn[], sheetKey: SheetKey): number {
  const wanted = sheetKey === 'row_key' ? 'row_key' : 'message_id'
  const at = layout.findIndex((c) => c.source.kind === 'meta' && c.source.key === wanted)
  return at < 0 ? layout.length - 1 : at
}

export type LayoutChange = {
  layout: SheetColumn[]
  /** Columns added at the end, with their header. */
  added: Array<{ index: number; header: string }>
  /** Columns whose header changes (a renamed field). */
  renamed: Array<{ index: number; from: string; to: string }>
}

/**
 * The layout after an edit. `fields` are the parser's fields after it, each with the name it had
 * before (null: a new field); `headerWidth` is how many columns the sheet's header row already
 * uses (another parser or the user may have added some), so new columns start after them.
 */
export function planLayout(
  current: SheetColumn[],
  { fields, customFields, headerWidth = 0 }: { fields: Array<{ name: string; previousName: string | null }>; customFields: CustomField[]; headerWidth?: number },
): LayoutChange {
  const layout = current.map((c) => ({ header: c.header, source: { ...c.source } }) as SheetColumn)
  const renamed: LayoutChange['renamed'] = []
  const placed = new Set<string>()
  const placedCustom = new Set<string>()
  layout.forEach((column, index) => {
    const source = column.source
    if (source.kind === 'field') {
      const next = fields.find((f) => f.previousName === source.name)
      if (!next) {
        layout[index] = { header: column.header, source: { kind: 'none' } }
        return
      }
      if (next.name !== source.name) {
        if (column.header === source.name) renamed.push({ index, from: column.header, to: next.name })
        layout[index] = { header: column.header === source.name ? next.name : column.header, source: { kind: 'field', name: next.name } }
      }
      placed.add(next.name)
    } else if (source.kind === 'custom') {
      if (customFields.some((c) => c.name === source.name)) placedCustom.add(source.name)
      else layout[index] = { header: column.header, source: { kind: 'none' } }
    }
  })
  const added: LayoutChange['added'] = []
  const place = (header: string, source: SheetColumn['source']) => {
    // A field removed earlier and added again under the same name gets its old column back.
    const old = layout.findIndex((c) => c.source.kind === 'none' && c.header === header)
    if (old >= 0) {
      layout[old] = { header, source }
      return
    }
    while (layout.length < headerWidth) layout.push({ header: '', source: { kind: 'none' } })
    added.push({ index: layout.length, header })
    layout.push({ header, source })
  }
  for (const field of fields) if (!placed.has(field.name)) place(field.name, { kind: 'field', name: field.name })
  for (const custom of customFields) if (!placedCustom.has(custom.name)) place(custom.name, { kind: 'custom', name: custom.name })
  return { layout, added, renamed }
}

const SERIAL_EPOCH = Date.UTC(1899, 11, 30)

/** Sheets keeps dates as days since 1899-12-30 (the time of day as the fraction). */
export function isoToSerial(iso: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(iso)
  if (!m) return null
  const time = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0))
  if (Number.isNaN(time)) return null
  return Math.round(((time - SERIAL_EPOCH) / 86_400_000) * 1e8) / 1e8
}

/**
 * The cell for a field's value: money and number fields as numbers, date fields as date serials,
 * everything else as its text. Written with valueInputOption RAW, so no text is ever read as a
 * formula (`=HYPERLINK(…)`, `+cmd`, `@SUM` stay text) and no text becomes a number or date by
 * accident (a zip code keeps its zeros).
 */
export function typedCell(type: FieldType | undefined, value: string | null | undefined, cell: SheetCell | undefined): SheetCell {
  if (value === null || value === undefined) return typeof cell === 'number' ? cell : ''
  switch (type) {
    case 'money':
    case 'number':
      return typeof cell === 'number' && Number.isFinite(cell) ? cell : value
    case 'date': {
      const serial = typeof cell === 'string' ? isoToSerial(cell) : null
      return serial ?? value
    }
    case 'email':
      return typeof cell === 'string' && cell ? cell : value
    default:
      return value
  }
}

/** The number format a typed column gets, so Sheets shows the number as money or a date. */
export type NumberFormat = { type: 'NUMBER' | 'DATE' | 'DATE_TIME'; pattern: string }

export const MONEY_FORMAT: NumberFormat = { type: 'NUMBER', pattern: '#,##0.00' }
export const DATE_FORMAT: NumberFormat = { type: 'DATE', pattern: 'yyyy-mm-dd' }
export const DATE_TIME_FORMAT: NumberFormat = { type: 'DATE_TIME', pattern: 'yyyy-mm-dd hh:mm' }

/** Per column index, the number format its cells need (money, dates); untyped columns get none. */
export function columnFormats(parser: Pick<LayoutParser, 'extractionFields' | 'customFields'>, layout: SheetColumn[]): Array<{ index: number; format: NumberFormat }> {
  const formats: Array<{ index: number; format: NumberFormat }> = []
  layout.forEach((column, index) => {
    const source = column.source
    if (source.kind === 'field') {
      const type = parser.extractionFields.find((f) => f.name === source.name)?.type
      if (type === 'money') formats.push({ index, format: MONEY_FORMAT })
      if (type === 'date') formats.push({ index, format: DATE_FORMAT })
    } else if (source.kind === 'custom') {
      const custom = parser.customFields.find((c) => c.name === source.name)
      if (custom?.kind === 'received_at') formats.push({ index, format: DATE_TIME_FORMAT })
    }
  })
  return formats
}

/** A Gmail link to one message (opens in the signed-in account). */
export function gmailLink(messageId: string): string {
  return `https://mail.google.com/mail/u/0/#all/${encodeURIComponent(messageId)}`
}

const parsedExpressions = new Map<string, ReturnType<typeof parseExpression>>()

function customCell(custom: CustomField, email: { from: string; subject: string; receivedAt: Date | null; messageId: string }, lookup: (name: string) => ExpressionValue): SheetCell {
  switch (custom.kind) {
    case 'received_at':
      return email.receivedAt ? (isoToSerial(email.receivedAt.toISOString()) ?? '') : ''
    case 'from':
      return email.from
    case 'subject':
      return email.subject
    case 'gmail_link':
      return gmailLink(email.messageId)
    case 'fixed':
      return custom.value
    case 'computed': {
      let parsed = parsedExpressions.get(custom.expression)
      if (!parsed) {
        parsed = parseExpression(custom.expression)
        if (parsedExpressions.size > 1000) parsedExpressions.clear()
        parsedExpressions.set(custom.expression, parsed)
      }
      if (!parsed.ok) return ''
      return evaluateExpression(parsed.expr, lookup) ?? ''
    }
  }
}

/**
 * The sheet rows for one email, laid out as the parser's layout says: one row per email, or with
 * `per_item` one row per line item (the email's other cells repeated, the item's number in Item #);
 * an email where no item was found still gives one row. Columns the parser no longer fills are
 * null: an overwrite in place leaves them as they are, an append leaves them empty.
 */
export function buildSheetRows(
  parser: LayoutParser,
  result: ExtractionResult,
  email: { from: string; subject: string; date: Date | null },
  messageId: string,
  receivedAt: Date | null,
): SheetCell[][] {
  const layout = layoutOf(parser)
  const when = receivedAt ?? email.date
  const byName = new Map(parser.extractionFields.map((f) => [f.name, f]))
  const customs = new Map(parser.customFields.map((c) => [c.name, c]))
  const fieldCell = (name: string, item?: Record<string, { value: string | null; cell: SheetCell }>) => {
    const field = byName.get(name)
    const fromItem = item?.[name]
    if (fromItem) return typedCell(field?.type, fromItem.value, fromItem.cell ?? undefined)
    const detail = result.details[name]
    return typedCell(field?.type, detail?.value ?? null, (detail?.cell ?? undefined) as SheetCell | undefined)
  }
  const row = (item: Record<string, { value: string | null; cell: SheetCell }> | undefined, number: number | '' | undefined): SheetCell[] => {
    const lookup = (name: string): ExpressionValue => {
      if (!byName.has(name)) return null
      const cell = fieldCell(name, item)
      if (cell === '' || cell === null) return null
      const type = byName.get(name)!.type
      if (typeof cell === 'number') return type === 'money' || type === 'number' ? cell : String(result.details[name]?.value ?? cell)
      return String(cell)
    }
    return layout.map((column) => {
      const source = column.source
      switch (source.kind) {
        case 'field':
          return fieldCell(source.name, item)
        case 'custom': {
          const custom = customs.get(source.name)
          return custom ? customCell(custom, { from: email.from, subject: email.subject, receivedAt: when, messageId }, lookup) : null
        }
        case 'none':
          return null
        case 'meta':
          switch (source.key) {
            case 'received':
              return when?.toISOString() ?? ''
            case 'from':
              return email.from
            case 'subject':
              return email.subject
            case 'message_id':
              return messageId
            case 'item':
              return number ?? ''
            case 'row_key':
              return rowKeyCell(parser.id, messageId, parser.rowMode === 'per_item' ? (number ?? '') : undefined)
          }
      }
    })
  }
  if (parser.rowMode === 'per_email') return [row(undefined, undefined)]
  const items = result.items ?? []
  if (items.length === 0) return [row(undefined, '')]
  return items.map((item, index) => row(item as Record<string, { value: string | null; cell: SheetCell }>, index + 1))
}
