import { randomUUID } from 'node:crypto'
import type { sheets_v4 } from '@googleapis/sheets'
import { sheetColumns } from '../../../shared/contracts/sheets'
import type { Db } from '../../db/client'
import { withUserGoogle, type GoogleAccess } from '../connections/connections.service'
import { isRetryable, sheetsApi } from '../google/google.client'
import { DEFAULT_LEASE_MS } from './process.service'
import { a1Sheet, firstSheetTitle } from '../sheets/sheets.service'
import { acquireLease, findParsersByIds, listRowsToWrite, listSpreadsheetsToWrite, releaseLease, setSheetState, type LedgerRow } from './pipeline.queries'

/** Rows per values.append: one call carries a whole backlog (Sheets allows ~10 MB per request). */
export const APPEND_BATCH = 500
const MAX_ATTEMPTS = 6

export type WriteOptions = { sleep?: (ms: number) => Promise<void>; baseDelayMs?: number }

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** A1 column letters for a 0-based index: 0 → A, 26 → AA. */
export function columnLetter(index: number): string {
  let n = index + 1
  let letters = ''
  while (n > 0) {
    const rem = (n - 1) % 26
    letters = String.fromCharCode(65 + rem) + letters
    n = Math.floor((n - 1) / 26)
  }
  return letters
}

/**
 * Writes the user's queued rows, one spreadsheet at a time and one append per batch. A write
 * whose outcome is unknown (timeout, 5xx after the write, dropped connection) leaves its rows in
 * 'writing'; before any retry the sheet's Message ID column is read, and rows already there are
 * marked written instead of appended again. No row is written twice and none is lost.
 */
export async function writeQueuedRows(
  db: Db,
  { userId, access, options = {}, leaseMs = DEFAULT_LEASE_MS }: { userId: string; access: GoogleAccess; options?: WriteOptions; leaseMs?: number },
) {
  let appendCalls = 0
  let rowsWritten = 0
  for (const spreadsheetId of await listSpreadsheetsToWrite(db, userId)) {
    const holder = randomUUID()
    const key = `sheet:${spreadsheetId}`
    const renewLease = () => acquireLease(db, { key, holder, ttlMs: leaseMs })
    if (!(await renewLease())) continue
    try {
      const result = await writeSpreadsheet(db, { userId, spreadsheetId, access, options, renewLease })
      appendCalls += result.appendCalls
      rowsWritten += result.rowsWritten
    } finally {
      await releaseLease(db, { key, holder })
    }
  }
  return { appendCalls, rowsWritten }
}

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
  let appendCalls = 0
  let rowsWritten = 0
  return withUserGoogle(db, { userId, access, action: 'Writing to the spreadsheet' }, async (auth, call) => {
    const sheets = sheetsApi(access.google, auth)
    const sheet = a1Sheet(await firstSheetTitle(sheets, call, spreadsheetId))
    let headerChecked = false

    for (let attempt = 0; ; ) {
      // Another worker took over an expired lease: stop rather than write beside it.
      if (!(await renewLease())) break
      const rows = (await listRowsToWrite(db, spreadsheetId, APPEND_BATCH)).filter((r) => r.userId === userId && r.sheetRow)
      if (rows.length === 0) break
      if (!headerChecked) {
        await ensureHeader(db, { sheets, call, spreadsheetId, sheet, rows })
        headerChecked = true
      }
      const unsettled = rows.filter((r) => r.sheetState === 'writing')
      const landed = unsettled.length ? await messageIdsInSheet({ sheets, call, spreadsheetId, sheet, rows: unsettled }) : new Set<string>()
      const already = unsettled.filter((r) => landed.has(r.gmailMessageId ?? ''))
      await setSheetState(db, already.map((r) => r.id), 'written')
      rowsWritten += already.length
      const toWrite = rows.filter((r) => !already.includes(r))
      if (toWrite.length === 0) continue

      // Recorded before the call: if we never hear back, the next attempt checks the sheet first.
      await setSheetState(db, toWrite.map((r) => r.id), 'writing')
      try {
        appendCalls++
        await sheets.spreadsheets.values.append({
          spreadsheetId,
          range: `${sheet}!A1`,
          valueInputOption: 'RAW',
          insertDataOption: 'INSERT_ROWS',
          requestBody: { values: toWrite.map((r) => r.sheetRow!) },
        })
        await setSheetState(db, toWrite.map((r) => r.id), 'written')
        rowsWritten += toWrite.length
        attempt = 0
      } catch (error) {
        if (!isRetryable(error) || ++attempt >= MAX_ATTEMPTS) throw error
        await sleep(Math.min(30_000, baseDelayMs * 2 ** attempt) * Math.random())
      }
    }
    return { appendCalls, rowsWritten }
  })
}

type SheetsCall = <R>(request: () => Promise<R>) => Promise<R>

/** Gmail message ids already in the sheet, read from each row's Message ID column (its last cell). */
async function messageIdsInSheet({ sheets, call, spreadsheetId, sheet, rows }: { sheets: sheets_v4.Sheets; call: SheetsCall; spreadsheetId: string; sheet: string; rows: LedgerRow[] }) {
  const columns = [...new Set(rows.map((r) => columnLetter((r.sheetRow?.length ?? 1) - 1)))]
  const { data } = await call(() => sheets.spreadsheets.values.batchGet({ spreadsheetId, ranges: columns.map((c) => `${sheet}!${c}:${c}`) }))
  const ids = new Set<string>()
  for (const range of data.valueRanges ?? []) for (const row of range.values ?? []) if (row[0] !== undefined) ids.add(String(row[0]))
  return ids
}

/** An existing spreadsheet that is empty gets the parser's header row before the first append. */
async function ensureHeader(
  db: Db,
  { sheets, call, spreadsheetId, sheet, rows }: { sheets: sheets_v4.Sheets; call: SheetsCall; spreadsheetId: string; sheet: string; rows: LedgerRow[] },
) {
  const { data } = await call(() => sheets.spreadsheets.values.get({ spreadsheetId, range: `${sheet}!1:1` }))
  if ((data.values?.[0] ?? []).some((cell) => String(cell).trim() !== '')) return
  const [parser] = await findParsersByIds(db, [rows[0]!.parserId!].filter(Boolean))
  if (!parser) return
  await call(() =>
    sheets.spreadsheets.values.update({
      spreadsheetId,
      range: `${sheet}!A1`,
      valueInputOption: 'RAW',
      requestBody: { values: [sheetColumns(parser.extractionFields.map((f) => f.name))] },
    }),
  )
}
