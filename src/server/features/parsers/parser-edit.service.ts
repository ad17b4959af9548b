import type { ExtractionField } from '@shared/contracts/extraction'
import { editParserInputSchema, starterViolation, type AdvancedFilters, type CustomField, type EditParserInput } from '@shared/contracts/parser-edit'
import { defaultSheetLayout, type SheetColumn } from '@shared/contracts/sheets'
import type { ParserView } from '@shared/contracts/parsers'
import { toPlan } from '@shared/plans'
import type { Db } from '../../db/client'
import type { DestinationConfig, TrainingSampleRef } from '../../db/schema'
import { AppError } from '../../lib/errors'
import { findUserById } from '../account/account.queries'
import { withUserGoogle, type GoogleAccess } from '../connections/connections.service'
import { sheetsApi } from '../google/google.client'
import { columnLetter } from '../pipeline/sheet-keys'
import { layoutOf, planLayout, type LayoutChange } from '../pipeline/sheet-layout'
import { forgetSheetLayout } from '../pipeline/sheet-writer.service'
import { a1Sheet, firstSheet, validateSpreadsheet } from '../sheets/sheets.service'
import { updateParserEdit, type ParserRow } from './parsers.queries'
import { getParser, toParserView } from './parsers.service'

/** Refuses Starter options on the free plan (spec §6), whatever the client sends. */
export async function assertStarterOptions(db: Db, userId: string, options: { advancedFilters: AdvancedFilters | null; customFields: CustomField[] }) {
  const user = await findUserById(db, userId)
  const violation = starterViolation(toPlan(user?.plan), options)
  if (violation) throw new AppError('FORBIDDEN', violation)
}

type Template = { fields: Array<{ name: string; type?: string }> } & Record<string, unknown>

/** The stored template with its fields renamed, retyped, reordered or dropped as the edit says (the rules stay). */
function editedTemplate(stored: Record<string, unknown> | null, fields: Array<{ name: string; previousName: string; type: string }>) {
  if (!stored || !Array.isArray((stored as Template).fields)) return stored
  const template = stored as Template
  const byName = new Map(template.fields.map((f) => [f.name, f]))
  return {
    ...template,
    fields: fields.flatMap((f) => {
      const field = byName.get(f.previousName)
      return field ? [{ ...field, name: f.name, type: f.type }] : []
    }),
  }
}

/** Later training samples: their highlights follow the renames; removed fields are dropped. */
function editedSamples(samples: TrainingSampleRef[], renames: Map<string, string>): TrainingSampleRef[] {
  return samples
    .map((s) => ({ ...s, fields: s.fields.flatMap((f) => (renames.has(f.name) ? [{ ...f, name: renames.get(f.name)! }] : [])) }))
    .filter((s) => s.fields.length > 0)
}

/**
 * The header cells an edit changes, written before the parser is saved: new columns' names after
 * the header's last used cell, renamed fields' headers where the cell still has the old name (a
 * header the user retyped is theirs). Answers the layout with the new columns where they went.
 */
export async function applyLayoutToSheet(
  db: Db,
  {
    userId,
    spreadsheetId,
    current,
    fields,
    customFields,
    access,
  }: { userId: string; spreadsheetId: string; current: SheetColumn[]; fields: Array<{ name: string; previousName: string | null }>; customFields: CustomField[]; access: GoogleAccess },
): Promise<LayoutChange> {
  const draft = planLayout(current, { fields, customFields })
  if (draft.added.length === 0 && draft.renamed.length === 0) return draft
  return withUserGoogle(db, { userId, access, action: 'Updating the spreadsheet header' }, async (auth, call) => {
    const sheets = sheetsApi(access.google, auth)
    const { title } = await firstSheet(sheets, call, spreadsheetId)
    const sheet = a1Sheet(title)
    const { data } = await call(() => sheets.spreadsheets.values.get({ spreadsheetId, range: `${sheet}!1:1` }))
    const header = (data.values?.[0] ?? []).map((cell) => String(cell ?? '').trim())
    let width = header.length
    while (width > 0 && !header[width - 1]) width--
    const change = planLayout(current, { fields, customFields, headerWidth: width })
    const writes = [
      ...change.added.map(({ index, header: name }) => ({ range: `${sheet}!${columnLetter(index)}1`, values: [[name]] })),
      ...change.renamed.filter(({ index, from }) => header[index] === from).map(({ index, to }) => ({ range: `${sheet}!${columnLetter(index)}1`, values: [[to]] })),
    ]
    if (writes.length > 0) {
      // Widen the grid first when the new columns go past it (Sheets refuses a write outside the grid).
      const needed = Math.max(...change.added.map((a) => a.index + 1), 0)
      const grid = await call(() => sheets.spreadsheets.get({ spreadsheetId, fields: 'sheets.properties(sheetId,gridProperties.columnCount)' }))
      const props = grid.data.sheets?.[0]?.properties
      const columns = props?.gridProperties?.columnCount ?? 26
      if (needed > columns) {
        await call(() =>
          sheets.spreadsheets.batchUpdate({ spreadsheetId, requestBody: { requests: [{ appendDimension: { sheetId: props?.sheetId ?? 0, dimension: 'COLUMNS', length: needed - columns } }] } }),
        )
      }
      await call(() => sheets.spreadsheets.values.batchUpdate({ spreadsheetId, requestBody: { valueInputOption: 'RAW', data: writes } }))
    }
    return change
  })
}

/**
 * 'Save' on the parser's edit form: name, filters (Starter's advanced ones too), fields (rename,
 * type, reorder, remove), custom fields and the spreadsheet. The sheet's columns are append-only
 * (docs/decisions/022): new columns at the end of its header, none moved or dropped.
 */
export async function editParser(db: Db, { userId, parserId, input, access }: { userId: string; parserId: string; input: EditParserInput; access: GoogleAccess }): Promise<ParserView> {
  const edit = editParserInputSchema.parse(input)
  await assertStarterOptions(db, userId, edit)
  const parser = await getParser(db, { userId, parserId })
  const known = new Map(parser.extractionFields.map((f) => [f.name, f]))
  const unknown = edit.fields.filter((f) => !known.has(f.previousName))
  if (unknown.length > 0) {
    throw new AppError('VALIDATION', `Not a field of this parser: ${unknown.map((f) => f.previousName).join(', ')}. New fields are added by highlighting them in an email (Train on this email).`)
  }
  const extractionFields: ExtractionField[] = edit.fields.map((f) => ({ ...known.get(f.previousName)!, name: f.name, type: f.type }))
  const renames = new Map(edit.fields.map((f) => [f.previousName, f.name]))

  let destination = parser.destinationConfig
  let sheetColumns: SheetColumn[]
  const spreadsheetChanged = edit.spreadsheet !== null && destination !== null && edit.spreadsheet !== destination.spreadsheetId && edit.spreadsheet !== destination.spreadsheetUrl
  if (spreadsheetChanged || !destination) {
    if (!edit.spreadsheet) throw new AppError('VALIDATION', 'Please enter a spreadsheet ID or URL.')
    const sheet = await validateSpreadsheet(db, { userId, spreadsheet: edit.spreadsheet, access })
    destination = { type: 'existing', spreadsheetId: sheet.spreadsheetId, spreadsheetUrl: sheet.spreadsheetUrl, parseHistorical: destination?.parseHistorical ?? false } satisfies DestinationConfig
    // Another spreadsheet: a fresh layout (as for a parser made with an existing spreadsheet); the
    // sheet writer writes its header where row 1 is blank before the first append.
    const fresh = defaultSheetLayout(extractionFields.map((f) => f.name), parser.rowMode, parser.sheetKey)
    sheetColumns = [...fresh, ...edit.customFields.map((c): SheetColumn => ({ header: c.name, source: { kind: 'custom', name: c.name } }))]
  } else {
    const change = await applyLayoutToSheet(db, {
      userId,
      spreadsheetId: destination.spreadsheetId,
      current: layoutOf(parser),
      fields: edit.fields.map((f) => ({ name: f.name, previousName: f.previousName })),
      customFields: edit.customFields,
      access,
    })
    sheetColumns = change.layout
  }

  const saved = await updateParserEdit(db, userId, parserId, {
    name: edit.name,
    filterFrom: edit.filters.filterFrom,
    filterSubject: edit.filters.filterSubject,
    filterLabel: edit.filters.filterLabel,
    advancedFilters: edit.advancedFilters,
    extractionFields,
    customFields: edit.customFields,
    template: editedTemplate(parser.template ?? null, edit.fields),
    trainingSamples: editedSamples(parser.trainingSamples, renames),
    sheetColumns,
    destinationConfig: destination,
  })
  if (!saved) throw new AppError('NOT_FOUND', 'Parser not found')
  // New columns and types: the writer checks the header and the number formats again before its next append.
  forgetSheetLayout(destination.spreadsheetId)
  if (parser.destinationConfig) forgetSheetLayout(parser.destinationConfig.spreadsheetId)
  return toParserView(saved)
}

/**
 * 'Train on this email' with fields the parser did not have: they join the parser's fields (after
 * the others) and get new columns at the end of the sheet's header.
 */
export async function addFieldsToLayout(db: Db, { userId, parser, fields, access }: { userId: string; parser: ParserRow; fields: ExtractionField[]; access: GoogleAccess }) {
  const spreadsheetId = parser.destinationConfig?.spreadsheetId
  const all = [...parser.extractionFields.map((f) => ({ name: f.name, previousName: f.name })), ...fields.map((f) => ({ name: f.name, previousName: null }))]
  if (!spreadsheetId) return planLayout(layoutOf(parser), { fields: all, customFields: parser.customFields }).layout
  const change = await applyLayoutToSheet(db, { userId, spreadsheetId, current: layoutOf(parser), fields: all, customFields: parser.customFields, access })
  forgetSheetLayout(spreadsheetId)
  return change.layout
}
