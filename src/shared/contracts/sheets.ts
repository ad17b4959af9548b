import { z } from 'zod'
import type { RowMode } from './parsers'

/** Columns Mailrow adds after the parser's fields; Message ID lets a retry see what was written. */
export const METADATA_COLUMNS = ['Received', 'From', 'Subject', 'Message ID'] as const

/** The last column of a one-row-per-item sheet: the item's number in its email (1, 2, …), blank when none was found. */
export const ITEM_COLUMN = 'Item #'

/**
 * The last column of a parser's sheet: `<parser id>:<message id>` (`:<item #>` for one row per
 * item), how the sheet writer knows a row it wrote, even when several parsers write to one sheet.
 */
export const ROW_KEY_COLUMN = 'Row Key'

/**
 * How the writer recognises its rows (docs/decisions/014): `row_key`, the Row Key column (every
 * parser made since); `message` / `message_item`, Message ID (+ Item #), parsers made before it.
 */
export type SheetKey = 'row_key' | 'message' | 'message_item'

/** Where a sheet column's cells come from (docs/decisions/022). */
export type SheetColumnSource =
  | { kind: 'field'; name: string }
  | { kind: 'custom'; name: string }
  | { kind: 'meta'; key: 'received' | 'from' | 'subject' | 'message_id' | 'item' | 'row_key' }
  /** A column the parser no longer fills (a removed field) or never did (another's): its cells are left alone. */
  | { kind: 'none' }

/** One column of a parser's sheet: the header Mailrow wrote and what fills it. */
export type SheetColumn = { header: string; source: SheetColumnSource }

const META_KEYS = { Received: 'received', From: 'from', Subject: 'subject', 'Message ID': 'message_id' } as const

/** A parser's layout before any edit: its fields, the metadata columns, Item # and Row Key. */
export function defaultSheetLayout(fieldNames: string[], rowMode: RowMode = 'per_email', sheetKey: SheetKey = 'row_key'): SheetColumn[] {
  return [
    ...fieldNames.map((name): SheetColumn => ({ header: name, source: { kind: 'field', name } })),
    ...METADATA_COLUMNS.map((header): SheetColumn => ({ header, source: { kind: 'meta', key: META_KEYS[header] } })),
    ...(rowMode === 'per_item' ? [{ header: ITEM_COLUMN, source: { kind: 'meta', key: 'item' } } satisfies SheetColumn] : []),
    ...(sheetKey === 'row_key' ? [{ header: ROW_KEY_COLUMN, source: { kind: 'meta', key: 'row_key' } } satisfies SheetColumn] : []),
  ]
}

export function sheetColumns(fieldNames: string[], rowMode: RowMode = 'per_email', sheetKey: SheetKey = 'row_key'): string[] {
  return [...fieldNames, ...METADATA_COLUMNS, ...(rowMode === 'per_item' ? [ITEM_COLUMN] : []), ...(sheetKey === 'row_key' ? [ROW_KEY_COLUMN] : [])]
}

/** The Row Key cell of a parser's row for a message (and item). */
export function rowKeyCell(parserId: string, messageId: string, item?: number | ''): string {
  return item === undefined ? `${parserId}:${messageId}` : `${parserId}:${messageId}:${item}`
}

/** New spreadsheet name (spec §9): the parser name followed by ' - Data'. */
export function spreadsheetName(parserName: string): string {
  return `${parserName.trim()} - Data`
}

const ID_PATTERN = /^[A-Za-z0-9_-]+$/

/**
 * The spreadsheet ID from what the user typed (spec §5): from a docs URL the part after /d/
 * (letters, digits, hyphen, underscore); the emulator's /sheets/{id} viewer URL likewise;
 * anything else is taken as the ID itself. Returns null when nothing usable is left.
 */
export function spreadsheetIdFromInput(input: string): string | null {
  const value = input.trim()
  const fromUrl = value.match(/\/d\/([A-Za-z0-9_-]+)/) ?? value.match(/^https?:\/\/[^/]+\/sheets\/([A-Za-z0-9_-]+)/)
  const id = fromUrl?.[1] ?? value
  return ID_PATTERN.test(id) ? id : null
}

export const createSpreadsheetInputSchema = z.object({
  parserName: z.string().trim().min(1, { error: 'Please enter a name for your parser.' }).max(200),
  fieldNames: z.array(z.string().trim().min(1).max(200)).min(1, { error: 'Please select at least one field to extract from emails.' }).max(100),
})

export const validateSpreadsheetInputSchema = z.object({
  spreadsheet: z.string().trim().min(1, { error: 'Please enter a spreadsheet ID or URL.' }).max(2000),
})

export type SpreadsheetRef = { spreadsheetId: string; spreadsheetUrl: string; title: string }
