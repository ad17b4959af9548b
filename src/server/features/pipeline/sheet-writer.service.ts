import { randomUUID } from 'node:crypto'
import type { sheets_v4 } from '@googleapis/sheets'
import type { Db } from '../../db/client'
import type { SheetCell, SheetKey } from '../../db/schema'
import { withUserGoogle, type GoogleAccess } from '../connections/connections.service'
import { isAmbiguousWriteFailure, isRetryable, sheetsApi } from '../google/google.client'
import { DEFAULT_LEASE_MS } from './process.service'
import { a1Sheet, firstSheet } from '../sheets/sheets.service'
import { columnLetter, keyOf, keyStart, keyWidth, rowKey } from './sheet-keys'
import { columnFormats, layoutOf } from './sheet-layout'
import {
  acquireLease,
  findParsersByIds,
  listRowsInFlight,
  listRowsToUpdate,
  listRowsToWrite,
  listSpreadsheetsToWrite,
  NO_APPEND_IN_FLIGHT,
  releaseLease,
  setSheetState,
  type LedgerRow,
} from './pipeline.queries'

/** Sheet rows per values.append: one call carries a whole backlog (Sheets allows ~10 MB per request). */
export const APPEND_BATCH = 500
/** Sheets may go on working on a request for up to 180 s after the caller stopped waiting. */
export const SHEETS_WRITE_DEADLINE_MS = 180_000
const MAX_ATTEMPTS = 6

export type WriteOptions = {
  sleep?: (ms: number) => Promise<void>
  baseDelayMs?: number
  /** Sheet rows per append (default APPEND_BATCH); an email with more items than this spans appends. */
  batchRows?: number
  /**
   * How long an append whose answer was lost may still land (SHEETS_WRITE_DEADLINE_SECONDS):
   * its rows are not appended again before then (docs/decisions/013).
   */
  ambiguousDeadlineMs?: number
  now?: () => Date
}

/**
 * Per spreadsheet: its first sheet's A1 name and id and whether its header was checked, so a pass
 * in steady state makes one Sheets call (the append). Forgotten on a 400/404 (a renamed or deleted
 * sheet, a bad range) and when a parser writing to it is edited (new columns, types:
 * `forgetSheetLayout`), when the next pass reads both again.
 */
type KnownLayout = { sheet: string; sheetId: number; headerChecked: boolean }
const layouts = new Map<string, KnownLayout>()
const MAX_LAYOUTS = 50_000

/** An edited parser's spreadsheet: its header and column formats are checked again before the next append. */
export function forgetSheetLayout(spreadsheetId: string) {
  layouts.delete(spreadsheetId)
}

function rememberLayout(spreadsheetId: string, layout: KnownLayout) {
  layouts.delete(spreadsheetId)
  if (layouts.size >= MAX_LAYOUTS) layouts.delete(layouts.keys().next().value!)
  layouts.set(spreadsheetId, layout)
}

function statusOf(error: unknown) {
  const e = error as { status?: number; response?: { status?: number } }
  return e.response?.status ?? e.status
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Writes the user's queued rows, one spreadsheet at a time and one append per batch. A write
 * whose outcome is unknown (timeout, 5xx, dropped connection) leaves its emails in 'writing' with
 * the time of the attempt. Until Sheets' deadline for that request has passed, its rows are only
 * looked for (found: written) and never appended again; after it, the key columns are read
 * (Message ID, plus Item # for one row per item) and only the rows not there are appended. No row
 * is written twice and none is lost (docs/decisions/009, 010, 011).
 */
export async function writeQueuedRows(
  db: Db,
  { userId, access, options = {}, leaseMs = DEFAULT_LEASE_MS }: { userId: string; access: GoogleAccess; options?: WriteOptions; leaseMs?: number },
) {
  let appendCalls = 0
  let rowsWritten = 0
  let ambiguous = 0
  for (const spreadsheetId of await listSpreadsheetsToWrite(db, userId)) {
    const holder = randomUUID()
    const key = `sheet:${spreadsheetId}`
    const renewLease = () => acquireLease(db, { key, holder, ttlMs: leaseMs })
    if (!(await renewLease())) continue
    try {
      const result = await writeSpreadsheet(db, { userId, spreadsheetId, access, options, renewLease })
      appendCalls += result.appendCalls
      rowsWritten += result.rowsWritten
      ambiguous += result.ambiguous
    } finally {
      await releaseLease(db, { key, holder })
    }
  }
  return { appendCalls, rowsWritten, ambiguous }
}

/** An email's rows still to append, and whether this batch carries all of them. */
type Slice = { row: LedgerRow; cells: SheetCell[][]; isComplete: boolean }

const isWholeIn = (row: LedgerRow, keys: Set<string>) => row.sheetRows!.every((cells) => keys.has(rowKey(cells, row.sheetKey, row.sheetKeyAt)))

async function writeSpreadsheet(
  db: Db,
  {
    userId,
    spreadsheetId,
    access,
    options,
    renewLease,
  }: { userId: string; spreadsheetId: string; access: GoogleAccess; options: WriteOptions; renewLease: () => Promise<boolean> },
) {
  const sleep = options.sleep ?? sleepFor
  const baseDelayMs = options.baseDelayMs ?? 500
  const batchRows = Math.max(1, options.batchRows ?? APPEND_BATCH)
  const deadlineMs = options.ambiguousDeadlineMs ?? SHEETS_WRITE_DEADLINE_MS
  const now = options.now ?? (() => new Date())
  const settledBefore = () => new Date(now().getTime() - deadlineMs)
  let appendCalls = 0
  let rowsWritten = 0
  let ambiguous = 0
  const mine = (rows: LedgerRow[]) => rows.filter((r) => r.userId === userId && r.sheetRows?.length)
  return withUserGoogle(db, { userId, access, action: 'Writing to the spreadsheet' }, async (auth, call) => {
    const sheets = sheetsApi(access.google, auth)
    try {
      return await writeWith(sheets, call)
    } catch (error) {
      if ([400, 404].includes(statusOf(error) ?? 0)) layouts.delete(spreadsheetId)
      throw error
    }
  })

  async function writeWith(sheets: sheets_v4.Sheets, call: SheetsCall) {
    let known = layouts.get(spreadsheetId)
    if (!known) {
      const first = await firstSheet(sheets, call, spreadsheetId)
      known = { sheet: a1Sheet(first.title), sheetId: first.sheetId, headerChecked: false }
    }
    const { sheet, sheetId } = known
    let headerChecked = known.headerChecked
    rememberLayout(spreadsheetId, { sheet, sheetId, headerChecked })

    // An append whose answer was lost may land at any moment until its deadline: an email found
    // whole in the sheet is settled now, any other waits (appending it again could double it).
    const inFlight = mine(await listRowsInFlight(db, spreadsheetId, settledBefore()))
    if (inFlight.length) {
      const landed = await keysInSheet({ sheets, call, spreadsheetId, sheet, rows: inFlight })
      const done = inFlight.filter((row) => isWholeIn(row, landed)).map((row) => row.id)
      await setSheetState(db, done, 'written')
      rowsWritten += done.length
    }

    await updateInPlace(sheets, call, sheet)

    for (let attempt = 0; ; ) {
      // Another worker took over an expired lease: stop rather than write beside it.
      if (!(await renewLease())) break
      const rows = mine(await listRowsToWrite(db, spreadsheetId, batchRows, settledBefore()))
      if (rows.length === 0) break
      if (!headerChecked) {
        await ensureHeader(db, { sheets, call, spreadsheetId, sheet, sheetId, rows })
        headerChecked = true
        rememberLayout(spreadsheetId, { sheet, sheetId, headerChecked })
      }
      // An email in 'writing' may have landed wholly, in part (it spanned appends) or not at all.
      const unsettled = rows.filter((r) => r.sheetState === 'writing')
      const landed = unsettled.length ? await keysInSheet({ sheets, call, spreadsheetId, sheet, rows: unsettled }) : new Set<string>()
      const missing = rows.map((row) => ({
        row,
        cells: row.sheetState === 'writing' ? row.sheetRows!.filter((cells) => !landed.has(rowKey(cells, row.sheetKey, row.sheetKeyAt))) : row.sheetRows!,
      }))
      const already = missing.filter((m) => m.cells.length === 0).map((m) => m.row.id)
      await setSheetState(db, already, 'written')
      rowsWritten += already.length

      const batch: Slice[] = []
      let size = 0
      for (const { row, cells } of missing) {
        if (cells.length === 0) continue
        if (size >= batchRows) break
        const taken = cells.slice(0, batchRows - size)
        batch.push({ row, cells: taken, isComplete: taken.length === cells.length })
        size += taken.length
      }
      if (batch.length === 0) continue

      // Recorded before the call, with its time: if we never hear back, these rows wait out the
      // request's deadline and the next attempt checks the sheet first.
      await setSheetState(db, batch.map((s) => s.row.id), 'writing')
      try {
        appendCalls++
        await sheets.spreadsheets.values.append({
          spreadsheetId,
          range: `${sheet}!A1`,
          valueInputOption: 'RAW',
          insertDataOption: 'INSERT_ROWS',
          requestBody: { values: batch.flatMap((s) => s.cells) },
        })
        const complete = batch.filter((s) => s.isComplete).map((s) => s.row.id)
        await setSheetState(db, complete, 'written')
        rowsWritten += complete.length
        // An email cut at the batch's end stays 'writing', with nothing in flight: the next round reads which items landed.
        await setSheetState(db, batch.filter((s) => !s.isComplete).map((s) => s.row.id), 'writing', NO_APPEND_IN_FLIGHT)
        attempt = 0
      } catch (error) {
        if (isAmbiguousWriteFailure(error)) {
          // It may still land: its rows stay in flight until the deadline. Other rows go next pass,
          // so one stalled append costs this spreadsheet one timeout per pass, not six.
          ambiguous++
          break
        }
        // Refused before anything was written: the rows are as they were.
        const wasQueued = new Set(rows.filter((r) => r.sheetState === 'queued').map((r) => r.id))
        await setSheetState(db, batch.filter((s) => wasQueued.has(s.row.id)).map((s) => s.row.id), 'queued')
        await setSheetState(db, batch.filter((s) => !wasQueued.has(s.row.id)).map((s) => s.row.id), 'writing', NO_APPEND_IN_FLIGHT)
        if (!isRetryable(error) || ++attempt >= MAX_ATTEMPTS) throw error
        await sleep(Math.min(30_000, baseDelayMs * 2 ** attempt) * Math.random())
      }
    }
    return { appendCalls, rowsWritten, ambiguous }
  }

  /**
   * Reprocessed emails whose rows are in the sheet: each row found by its key is overwritten where
   * it is (an update of the same cells can be repeated safely, so a lost answer needs no care); rows
   * not found (deleted by the user, or new line items) go through the append path, which appends
   * only the keys the sheet lacks.
   */
  async function updateInPlace(sheets: sheets_v4.Sheets, call: SheetsCall, sheet: string) {
    for (;;) {
      if (!(await renewLease())) return
      const rows = mine(await listRowsToUpdate(db, spreadsheetId, batchRows))
      if (rows.length === 0) return
      const positions = await keyPositions({ sheets, call, spreadsheetId, sheet, rows })
      const data: sheets_v4.Schema$ValueRange[] = []
      const whole: string[] = []
      const partly: string[] = []
      for (const row of rows) {
        let found = 0
        for (const cells of row.sheetRows!) {
          const at = positions.get(rowKey(cells, row.sheetKey, row.sheetKeyAt))
          if (at === undefined) continue
          found++
          data.push({ range: `${sheet}!A${at}`, values: [cells] })
        }
        ;(found === row.sheetRows!.length ? whole : partly).push(row.id)
      }
      if (data.length > 0) await call(() => sheets.spreadsheets.values.batchUpdate({ spreadsheetId, requestBody: { valueInputOption: 'RAW', data } }))
      await setSheetState(db, whole, 'written')
      await setSheetState(db, partly, 'writing', NO_APPEND_IN_FLIGHT)
      rowsWritten += whole.length
    }
  }
}

type SheetsCall = <R>(request: () => Promise<R>) => Promise<R>

/** Keys of the rows already in the sheet, read from the key columns (the last one or two cells of a row). */
async function keysInSheet({ sheets, call, spreadsheetId, sheet, rows }: { sheets: sheets_v4.Sheets; call: SheetsCall; spreadsheetId: string; sheet: string; rows: LedgerRow[] }) {
  const layouts = new Map<string, SheetKey>()
  for (const row of rows) {
    const start = keyStart(row.sheetRows![0]!.length, row.sheetKey, row.sheetKeyAt)
    layouts.set(`${sheet}!${columnLetter(start)}:${columnLetter(start + keyWidth(row.sheetKey) - 1)}`, row.sheetKey)
  }
  const ranges = [...layouts.keys()]
  const { data } = await call(() => sheets.spreadsheets.values.batchGet({ spreadsheetId, ranges }))
  const keys = new Set<string>()
  ;(data.valueRanges ?? []).forEach((range, index) => {
    const key = layouts.get(ranges[index]!)!
    for (const values of range.values ?? []) if (values.length > 0) keys.add(keyOf(values, key))
  })
  return keys
}

/** Where each key is in the sheet: its 1-based row number (the last occurrence when a key repeats). */
async function keyPositions({ sheets, call, spreadsheetId, sheet, rows }: { sheets: sheets_v4.Sheets; call: SheetsCall; spreadsheetId: string; sheet: string; rows: LedgerRow[] }) {
  const layouts = new Map<string, SheetKey>()
  for (const row of rows) {
    const start = keyStart(row.sheetRows![0]!.length, row.sheetKey, row.sheetKeyAt)
    layouts.set(`${sheet}!${columnLetter(start)}:${columnLetter(start + keyWidth(row.sheetKey) - 1)}`, row.sheetKey)
  }
  const ranges = [...layouts.keys()]
  const { data } = await call(() => sheets.spreadsheets.values.batchGet({ spreadsheetId, ranges }))
  const positions = new Map<string, number>()
  ;(data.valueRanges ?? []).forEach((range, index) => {
    const key = layouts.get(ranges[index]!)!
    ;(range.values ?? []).forEach((values, i) => {
      if (values.length > 0) positions.set(keyOf(values, key), i + 1)
    })
  })
  return positions
}

/**
 * Before a spreadsheet's first append (per process, and again after an edit): each parser's header
 * cells go where the row 1 cell is blank (an empty sheet gets the whole header; an edited parser's
 * new columns their names), never over a cell that has text, so the user's own headers and order
 * stay. Money and date columns get their number format (idempotent: repeatCell over the column).
 */
async function ensureHeader(
  db: Db,
  { sheets, call, spreadsheetId, sheet, sheetId, rows }: { sheets: sheets_v4.Sheets; call: SheetsCall; spreadsheetId: string; sheet: string; sheetId: number; rows: LedgerRow[] },
) {
  const parserIds = [...new Set(rows.map((r) => r.parserId).filter((id): id is string => Boolean(id)))]
  const found = await findParsersByIds(db, parserIds)
  if (found.length === 0) return
  const { data } = await call(() => sheets.spreadsheets.values.get({ spreadsheetId, range: `${sheet}!1:1` }))
  const header = (data.values?.[0] ?? []).map((cell) => String(cell ?? '').trim())
  const writes: sheets_v4.Schema$ValueRange[] = []
  const requests: sheets_v4.Schema$Request[] = []
  const taken = new Set<number>()
  for (const parser of found) {
    const layout = layoutOf(parser)
    layout.forEach((column, index) => {
      if (!column.header || header[index] || taken.has(index)) return
      taken.add(index)
      writes.push({ range: `${sheet}!${columnLetter(index)}1`, values: [[column.header]] })
    })
    for (const { index, format } of columnFormats(parser, layout)) {
      requests.push({
        repeatCell: {
          range: { sheetId, startRowIndex: 1, startColumnIndex: index, endColumnIndex: index + 1 },
          cell: { userEnteredFormat: { numberFormat: format } },
          fields: 'userEnteredFormat.numberFormat',
        },
      })
    }
  }
  if (writes.length > 0) await call(() => sheets.spreadsheets.values.batchUpdate({ spreadsheetId, requestBody: { valueInputOption: 'RAW', data: writes } }))
  if (requests.length > 0) await call(() => sheets.spreadsheets.batchUpdate({ spreadsheetId, requestBody: { requests } }))
}
