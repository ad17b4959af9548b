import {
  sheetColumns,
  spreadsheetIdFromInput,
  spreadsheetName,
  type SpreadsheetRef,
} from '@shared/contracts/sheets'
import type { RowMode } from '@shared/contracts/parsers'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/errors'
import { withUserGoogle, type GoogleAccess } from '../connections/connections.service'
import { sheetsApi } from '../google/google.client'

const SHEET_TITLE = 'Sheet1'

/**
 * A new spreadsheet named '<parser> - Data' whose frozen header row holds the field names and
 * Mailrow's metadata columns.
 */
export async function createSpreadsheet(
  db: Db,
  {
    userId,
    parserName,
    fieldNames,
    rowMode = 'per_email',
    access,
  }: { userId: string; parserName: string; fieldNames: string[]; rowMode?: RowMode; access: GoogleAccess },
): Promise<SpreadsheetRef> {
  return withUserGoogle(db, { userId, access, action: 'Creating the spreadsheet' }, async (auth, call) => {
    const sheets = sheetsApi(access.google, auth)
    const title = spreadsheetName(parserName)
    const columns = sheetColumns(fieldNames, rowMode, 'row_key')
    // Not retried: a lost response would create a second spreadsheet.
    const created = await sheets.spreadsheets.create({
      requestBody: {
        properties: { title },
        sheets: [{ properties: { title: SHEET_TITLE, gridProperties: { frozenRowCount: 1, columnCount: Math.max(26, columns.length) } } }],
      },
    })
    const spreadsheetId = created.data.spreadsheetId
    if (!spreadsheetId) throw new AppError('UNAVAILABLE', 'Failed to create spreadsheet. Please try again.')
    await call(() =>
      sheets.spreadsheets.values.update({
        spreadsheetId,
        range: `${SHEET_TITLE}!A1`,
        valueInputOption: 'RAW',
        requestBody: { values: [columns] },
      }),
    )
    return { spreadsheetId, spreadsheetUrl: created.data.spreadsheetUrl ?? '', title }
  })
}

/**
 * Step 4 'Use Existing Spreadsheet': the ID or URL must name a spreadsheet the connected account
 * can write to. Writing the title back unchanged proves write access without touching data.
 */
export async function validateSpreadsheet(
  db: Db,
  { userId, spreadsheet, access }: { userId: string; spreadsheet: string; access: GoogleAccess },
): Promise<SpreadsheetRef> {
  const spreadsheetId = spreadsheetIdFromInput(spreadsheet)
  if (!spreadsheetId) throw new AppError('VALIDATION', 'That is not a spreadsheet ID or Google Sheets URL.')
  try {
    return await withUserGoogle(db, { userId, access, action: 'Opening the spreadsheet' }, async (auth, call) => {
      const sheets = sheetsApi(access.google, auth)
      const { data } = await call(() =>
        sheets.spreadsheets.get({ spreadsheetId, fields: 'spreadsheetId,spreadsheetUrl,properties.title' }),
      )
      const title = data.properties?.title ?? ''
      await call(() =>
        sheets.spreadsheets.batchUpdate({
          spreadsheetId,
          requestBody: { requests: [{ updateSpreadsheetProperties: { properties: { title }, fields: 'title' } }] },
        }),
      )
      return { spreadsheetId, spreadsheetUrl: data.spreadsheetUrl ?? '', title }
    })
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') {
      throw new AppError('NOT_FOUND', 'Spreadsheet not found. Check the ID or URL, and that the connected Google account can open it.')
    }
    if (error instanceof AppError && error.code === 'FORBIDDEN') {
      throw new AppError('FORBIDDEN', 'The connected Google account cannot edit this spreadsheet. Share it with edit access, or create a new one.')
    }
    throw error
  }
}


/** The title of the spreadsheet's first sheet, where Mailrow writes. */
export async function firstSheetTitle(sheets: ReturnType<typeof sheetsApi>, call: <R>(request: () => Promise<R>) => Promise<R>, spreadsheetId: string) {
  const { data } = await call(() => sheets.spreadsheets.get({ spreadsheetId, fields: 'sheets.properties.title' }))
  return data.sheets?.[0]?.properties?.title ?? SHEET_TITLE
}

/** The first sheet's title and id (formats are set by sheet id). */
export async function firstSheet(sheets: ReturnType<typeof sheetsApi>, call: <R>(request: () => Promise<R>) => Promise<R>, spreadsheetId: string) {
  const { data } = await call(() => sheets.spreadsheets.get({ spreadsheetId, fields: 'sheets.properties(title,sheetId)' }))
  const properties = data.sheets?.[0]?.properties
  return { title: properties?.title ?? SHEET_TITLE, sheetId: properties?.sheetId ?? 0 }
}

/** Quotes a sheet title for A1 notation ('My Sheet'!A1). */
export function a1Sheet(title: string) {
  return `'${title.replace(/'/g, "''")}'`
}

