import { PassThrough, Readable } from 'node:stream'
import { once } from 'node:events'
import ExcelJS from 'exceljs'
import { EXPORT_LEADING_COLUMNS, EXPORT_TRAILING_COLUMNS, exportQuerySchema, type ExportFormat, type ExportQuery } from '@shared/contracts/exports'
import type { ParserEmailFilter } from '@shared/contracts/parsers'
import type { Db } from '../../db/client'
import type { ParsedEmailStatus } from '../../db/schema'
import type { ParserRow } from '../parsers/parsers.queries'
import { getParser } from '../parsers/parsers.service'
import { listParserEmailsForExport, type ExportCursor, type ExportLedgerRow } from './exports.queries'

/** Ledger rows read per query: memory stays at one page whatever the parser holds. */
export const EXPORT_PAGE_SIZE = 500

const STATUS_LABELS: Record<ParsedEmailStatus, string> = {
  pending: 'Waiting',
  processing: 'Waiting',
  quota_exceeded: 'Waiting for allowance',
  success: 'Success',
  partial: 'Partial',
  failed: 'Failed',
  skipped: 'Skipped',
}

/** Excel's limit for one cell's text. */
const MAX_CELL_CHARS = 32_767

type ExportOptions = { userId: string; parserId: string; query: ExportQuery; pageSize?: number }
type Cell = string | Date | null

/** The export's header: who sent what when, the parser's fields in its order, then why it failed. */
function headerOf(parser: ParserRow): string[] {
  return [...EXPORT_LEADING_COLUMNS, ...parser.extractionFields.map((f) => f.name), ...EXPORT_TRAILING_COLUMNS]
}

function cellsOf(parser: ParserRow, row: ExportLedgerRow): Cell[] {
  const extracted = row.extractedData ?? {}
  const values = parser.extractionFields.map((f) => {
    const value = extracted[f.name]
    return typeof value === 'string' ? value : value == null ? null : String(value)
  })
  return [row.receivedAt ?? row.processedAt, row.from, row.subject, STATUS_LABELS[row.status], ...values, row.error]
}

/** The parser's rows page by page (keyset cursor), so an export never holds more than one page. */
async function* ledgerPages(db: Db, { userId, parser, q, status, pageSize }: { userId: string; parser: ParserRow; q: string; status: ParserEmailFilter; pageSize: number }) {
  let cursor: ExportCursor | null = null
  for (;;) {
    const rows = await listParserEmailsForExport(db, { userId, parserId: parser.id, q, status, cursor, limit: pageSize })
    if (rows.length === 0) return
    yield rows.map((row) => cellsOf(parser, row))
    if (rows.length < pageSize) return
    const last = rows[rows.length - 1]!
    cursor = { sortAt: last.sortAt, id: last.id }
  }
}

// Spreadsheet apps run a cell that starts with one of these as a formula (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * One CSV field: text that a spreadsheet would read as a formula gets a leading apostrophe so it
 * stays text, then RFC 4180 quoting (in quotes when it holds a comma, quote or line break; quotes doubled).
 */
export function csvField(value: Cell): string {
  if (value === null) return ''
  let text = value instanceof Date ? value.toISOString() : value
  if (FORMULA_START.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

const csvLine = (cells: Cell[]) => `${cells.map(csvField).join(',')}\r\n`

/** The CSV as it is written: a byte-order mark (so Excel reads UTF-8), the header, then a chunk per page. */
export async function* csvChunks(db: Db, { userId, parser, q, status, pageSize }: { userId: string; parser: ParserRow; q: string; status: ParserEmailFilter; pageSize: number }) {
  yield `\uFEFF${csvLine(headerOf(parser))}`
  for await (const page of ledgerPages(db, { userId, parser, q, status, pageSize })) yield page.map(csvLine).join('')
}

// XML 1.0 can't carry these control characters; an email may.
// eslint-disable-next-line no-control-regex -- the control characters are the point
const XML_ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g

function xlsxCell(value: Cell): string | Date | null {
  if (value === null || value instanceof Date) return value
  return value.replace(XML_ILLEGAL, '').slice(0, MAX_CELL_CHARS)
}

/** A worksheet name Excel accepts: at most 31 characters, none of []:*?/\ . */
function sheetName(name: string) {
  return name.replace(/[[\]:*?/\\]/g, ' ').trim().slice(0, 31) || 'Emails'
}

/**
 * The XLSX written as it goes with ExcelJS's streaming WorkbookWriter: each page's rows are
 * committed (written out and released) before the next page is read, and the next page waits
 * while the client is slower than the database. Text cells are strings, never formulas.
 */
function xlsxStream(db: Db, { userId, parser, q, status, pageSize }: { userId: string; parser: ParserRow; q: string; status: ParserEmailFilter; pageSize: number }): Readable {
  const out = new PassThrough()
  const write = async () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true })
    const sheet = workbook.addWorksheet(sheetName(parser.name), { views: [{ state: 'frozen', ySplit: 1 }] })
    const header = headerOf(parser)
    sheet.columns = header.map((name, i) => ({ header: name, key: String(i), width: i === 0 ? 20 : Math.min(40, Math.max(12, name.length + 2)) }))
    sheet.getRow(1).font = { bold: true }
    sheet.getColumn(1).numFmt = 'yyyy-mm-dd hh:mm:ss'
    sheet.getRow(1).commit()
    for await (const page of ledgerPages(db, { userId, parser, q, status, pageSize })) {
      for (const cells of page) sheet.addRow(cells.map(xlsxCell)).commit()
      if (out.writableNeedDrain) await once(out, 'drain')
    }
    sheet.commit()
    await workbook.commit()
  }
  write().catch((error: unknown) => out.destroy(error as Error))
  return out
}

export type ParserExport = { filename: string; contentType: string; body: ReadableStream<Uint8Array> }

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}

function fileName(parser: ParserRow, format: ExportFormat, now: Date) {
  // eslint-disable-next-line no-control-regex -- control characters don't belong in a file name
  const base = parser.name.replace(/[\u0000-\u001F\u007F"\\/:*?<>|]/g, ' ').replace(/\s+/g, ' ').trim() || 'parser'
  return `${base} ${now.toISOString().slice(0, 10)}.${format}`
}

/**
 * A parser's data as CSV or XLSX, streamed. The parser is looked up first (another user's answers
 * 404 before any byte is sent); the rows follow page by page while the client reads.
 */
export async function exportParserData(db: Db, { userId, parserId, query, pageSize = EXPORT_PAGE_SIZE }: ExportOptions, now = new Date()): Promise<ParserExport> {
  const parser = await getParser(db, { userId, parserId })
  const { format, q, status } = exportQuerySchema.parse(query)
  const options = { userId, parser, q, status, pageSize }
  const body =
    format === 'csv'
      ? (Readable.toWeb(Readable.from(csvChunks(db, options), { objectMode: false })) as ReadableStream<Uint8Array>)
      : (Readable.toWeb(xlsxStream(db, options)) as ReadableStream<Uint8Array>)
  return { filename: fileName(parser, format, now), contentType: CONTENT_TYPES[format], body }
}
