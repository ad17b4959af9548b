import { randomInt } from 'node:crypto'
import { badRequest, GoogleApiError } from '../http/google-error'
import { spreadsheetId as newSpreadsheetId } from '../ids'
import { columnToLetters, formatRange, parseA1, type A1Range } from './a1-notation'
import {
  cellFromInput,
  formattedValue,
  literalValue,
  renderValue,
  userEnteredValue,
  type Cell,
  type CellWrite,
  type NumberFormat,
  type ValueInputOption,
  type ValueRenderOption,
} from './cell-values'
import { errorTypeByCode, evaluateFormula, isErrorValue, type Scalar } from './formula'

export type GridProperties = { rowCount: number; columnCount: number; frozenRowCount?: number; frozenColumnCount?: number }

export type SheetProperties = {
  sheetId: number
  title: string
  index: number
  sheetType: 'GRID'
  gridProperties: GridProperties
  hidden?: boolean
  rightToLeft?: boolean
  tabColor?: unknown
}

/**
 * A number format set by repeatCell over a range (row/column end absent: to the grid's end, so rows
 * appended later are covered, as rows inserted below formatted ones inherit their format in Sheets).
 * The last one covering a cell wins.
 */
export type FormatRange = { startRow: number; endRow?: number; startCol: number; endCol?: number; numberFormat: NumberFormat }

export type Sheet = { properties: SheetProperties; rows: (Cell | undefined)[][]; formats?: FormatRange[] }

/** The number format of one cell, if any. */
export function cellFormat(sheet: Sheet, row: number, col: number): NumberFormat | undefined {
  let found: NumberFormat | undefined
  for (const range of sheet.formats ?? []) {
    if (row >= range.startRow && (range.endRow === undefined || row < range.endRow) && col >= range.startCol && (range.endCol === undefined || col < range.endCol)) {
      found = range.numberFormat
    }
  }
  return found
}

export type SpreadsheetProperties = { title: string; locale: string; autoRecalc: string; timeZone: string }

export type Role = 'owner' | 'writer' | 'reader'

export type Spreadsheet = {
  id: string
  owner: string
  properties: SpreadsheetProperties
  sheets: Sheet[]
  permissions: Map<string, Exclude<Role, 'owner'>>
  createdAt: number
}

type BoundedRange = { sheet: Sheet; startRow: number; startCol: number; endRow: number; endCol: number }
type ResolvedRange = { sheet: Sheet; range: A1Range }

export type ValueRange = { range: string; majorDimension: 'ROWS' | 'COLUMNS'; values?: (string | number | boolean)[][] }

export type WriteOptions = {
  valueInputOption: ValueInputOption
  includeValuesInResponse?: boolean
  responseValueRenderOption?: ValueRenderOption
}

const DEFAULT_ROWS = 1000
const DEFAULT_COLUMNS = 26
/** Sheets' cell limit per spreadsheet. */
const MAX_CELLS = 10_000_000

export type SpreadsheetStore = ReturnType<typeof createSpreadsheetStore>

export function createSpreadsheetStore(options: { now: () => number }) {
  const spreadsheets = new Map<string, Spreadsheet>()

  function create(owner: string, request: CreateRequest): Spreadsheet {
    const sheetRequests = request.sheets?.length ? request.sheets : [{}]
    const sheets: Sheet[] = []
    sheetRequests.forEach((sheetRequest, index) => {
      const properties = sheetRequest.properties ?? {}
      const title = properties.title ?? nextSheetTitle(sheets)
      assertTitleFree(sheets, title, `Invalid sheets[${index}]`)
      const sheetId = properties.sheetId ?? (index === 0 ? 0 : newSheetId(sheets))
      if (sheets.some((sheet) => sheet.properties.sheetId === sheetId)) {
        throw badRequest(`Invalid sheets[${index}]: Duplicate sheet ID: ${sheetId}`)
      }
      sheets.push({ properties: sheetProperties(sheetId, title, index, properties), rows: [] })
    })
    const spreadsheet: Spreadsheet = {
      id: newSpreadsheetId(),
      owner,
      properties: {
        title: request.properties?.title ?? 'Untitled spreadsheet',
        locale: request.properties?.locale ?? 'en_US',
        autoRecalc: 'ON_CHANGE',
        timeZone: request.properties?.timeZone ?? 'Etc/GMT',
      },
      sheets,
      permissions: new Map(),
      createdAt: options.now(),
    }
    spreadsheets.set(spreadsheet.id, spreadsheet)
    return spreadsheet
  }

  function roleOf(spreadsheet: Spreadsheet, email: string): Role | null {
    const lower = email.toLowerCase()
    if (spreadsheet.owner === lower) return 'owner'
    return spreadsheet.permissions.get(lower) ?? null
  }

  return {
    create,
    find: (id: string) => spreadsheets.get(id),
    list: () => [...spreadsheets.values()],
    remove: (id: string) => spreadsheets.delete(id),
    clear: () => spreadsheets.clear(),
    roleOf,
    canRead: (spreadsheet: Spreadsheet, email: string) => roleOf(spreadsheet, email) !== null,
    canWrite: (spreadsheet: Spreadsheet, email: string) => {
      const role = roleOf(spreadsheet, email)
      return role === 'owner' || role === 'writer'
    },
  }
}

export type SheetPropertiesInput = Partial<Omit<SheetProperties, 'gridProperties'>> & { gridProperties?: Partial<GridProperties> }

export type CreateRequest = {
  properties?: { title?: string; locale?: string; timeZone?: string }
  sheets?: { properties?: SheetPropertiesInput }[]
}

function sheetProperties(
  sheetId: number,
  title: string,
  index: number,
  request: SheetPropertiesInput,
): SheetProperties {
  const grid: GridProperties = {
    rowCount: request.gridProperties?.rowCount ?? DEFAULT_ROWS,
    columnCount: request.gridProperties?.columnCount ?? DEFAULT_COLUMNS,
  }
  if (request.gridProperties?.frozenRowCount) grid.frozenRowCount = request.gridProperties.frozenRowCount
  if (request.gridProperties?.frozenColumnCount) grid.frozenColumnCount = request.gridProperties.frozenColumnCount
  const properties: SheetProperties = { sheetId, title, index, sheetType: 'GRID', gridProperties: grid }
  if (request.hidden) properties.hidden = true
  return properties
}

function nextSheetTitle(sheets: Sheet[]): string {
  for (let n = sheets.length + 1; ; n += 1) {
    const title = `Sheet${n}`
    if (!findSheetByTitle(sheets, title)) return title
  }
}

function newSheetId(sheets: Sheet[]): number {
  for (;;) {
    const id = randomInt(1, 2_147_483_647)
    if (!sheets.some((sheet) => sheet.properties.sheetId === id)) return id
  }
}

function findSheetByTitle(sheets: Sheet[], title: string): Sheet | undefined {
  const lower = title.toLowerCase()
  return sheets.find((sheet) => sheet.properties.title.toLowerCase() === lower)
}

function assertTitleFree(sheets: Sheet[], title: string, prefix: string, except?: Sheet) {
  if (!title.trim()) throw badRequest(`${prefix}: Sheet name must not be empty.`)
  const existing = findSheetByTitle(sheets, title)
  if (existing && existing !== except) {
    throw badRequest(`${prefix}: A sheet with the name "${title}" already exists. Please enter another name.`)
  }
}

function sheetsInOrder(spreadsheet: Spreadsheet): Sheet[] {
  return [...spreadsheet.sheets].sort((a, b) => a.properties.index - b.properties.index)
}

export function resolveRange(spreadsheet: Spreadsheet, text: string): ResolvedRange {
  const parsed = parseA1(text)
  const fail = () => badRequest(`Unable to parse range: ${text}`)
  if (!parsed) throw fail()
  const whole = (sheet: Sheet): ResolvedRange => ({
    sheet,
    range: { sheetTitle: sheet.properties.title, startRow: 0, startCol: 0, endRow: null, endCol: null },
  })
  if (parsed.kind === 'sheet') {
    const sheet = findSheetByTitle(spreadsheet.sheets, parsed.sheetTitle)
    if (!sheet) throw fail()
    return whole(sheet)
  }
  if (parsed.range.sheetTitle !== null) {
    const sheet = findSheetByTitle(spreadsheet.sheets, parsed.range.sheetTitle)
    if (!sheet) throw fail()
    return { sheet, range: parsed.range }
  }
  if (parsed.bareSheetCandidate) {
    const sheet = findSheetByTitle(spreadsheet.sheets, parsed.bareSheetCandidate)
    if (sheet) return whole(sheet)
  }
  const first = sheetsInOrder(spreadsheet)[0]
  if (!first) throw fail()
  return { sheet: first, range: parsed.range }
}

function bound({ sheet, range }: ResolvedRange, forRead: boolean): BoundedRange {
  const grid = sheet.properties.gridProperties
  const endRow = range.endRow ?? Math.max(grid.rowCount, range.startRow + 1)
  const endCol = range.endCol ?? Math.max(grid.columnCount, range.startCol + 1)
  if (forRead && (endRow > grid.rowCount || endCol > grid.columnCount)) {
    const shown = formatRange(sheet.properties.title, range.startRow, range.startCol, endRow, endCol).replace(
      /^[^!]+!/,
      `'${sheet.properties.title.replace(/'/g, "''")}'!`,
    )
    throw badRequest(`Range (${shown}) exceeds grid limits. Max rows: ${grid.rowCount}, max columns: ${grid.columnCount}`)
  }
  return { sheet, startRow: range.startRow, startCol: range.startCol, endRow, endCol }
}

/** Rows are sparse arrays, so spreading a map over them would feed `undefined` to Math.max. */
function usedWidth(sheet: Sheet): number {
  let width = 0
  for (let row = 0; row < sheet.rows.length; row += 1) width = Math.max(width, sheet.rows[row]?.length ?? 0)
  return width
}

function isEmpty(cell: Cell | undefined): boolean {
  return cell === undefined
}

export function effectiveValue(spreadsheet: Spreadsheet, sheet: Sheet, row: number, col: number, stack = new Set<string>()): Scalar {
  const cell = sheet.rows[row]?.[col]
  if (!cell) return null
  if (cell.type !== 'formula') return literalValue(cell)
  const key = `${sheet.properties.sheetId}:${row}:${col}`
  if (stack.has(key)) return { error: '#REF!' }
  stack.add(key)
  const lookup = (title: string | null) => (title === null ? sheet : findSheetByTitle(spreadsheet.sheets, title))
  const result = evaluateFormula(cell.formula.slice(1), {
    cell: (title, r, c) => {
      const target = lookup(title)
      if (!target) return undefined
      return effectiveValue(spreadsheet, target, r, c, stack)
    },
    extent: (title) => {
      const target = lookup(title)
      if (!target) return undefined
      return { rows: target.rows.length, cols: usedWidth(target) }
    },
  })
  stack.delete(key)
  return result
}

function readGrid(spreadsheet: Spreadsheet, bounded: BoundedRange, option: ValueRenderOption) {
  const { sheet } = bounded
  const rows: (string | number | boolean)[][] = []
  for (let row = bounded.startRow; row < bounded.endRow; row += 1) {
    const line: (string | number | boolean)[] = []
    for (let col = bounded.startCol; col < bounded.endCol; col += 1) {
      const cell = sheet.rows[row]?.[col]
      line.push(cell ? renderValue(cell, effectiveValue(spreadsheet, sheet, row, col), option, cellFormat(sheet, row, col)) : '')
    }
    while (line.length && line[line.length - 1] === '') line.pop()
    rows.push(line)
  }
  while (rows.length && rows[rows.length - 1]!.length === 0) rows.pop()
  return rows
}

function transpose<T>(rows: T[][], fill: T): T[][] {
  const width = Math.max(0, ...rows.map((row) => row.length))
  const out: T[][] = []
  for (let col = 0; col < width; col += 1) {
    const column = rows.map((row) => (col < row.length ? row[col]! : fill))
    while (column.length && column[column.length - 1] === fill) column.pop()
    out.push(column)
  }
  return out
}

export function getValues(
  spreadsheet: Spreadsheet,
  rangeText: string,
  options: { valueRenderOption?: ValueRenderOption; majorDimension?: 'ROWS' | 'COLUMNS' } = {},
): ValueRange {
  const bounded = bound(resolveRange(spreadsheet, rangeText), true)
  const majorDimension = options.majorDimension ?? 'ROWS'
  let values = readGrid(spreadsheet, bounded, options.valueRenderOption ?? 'FORMATTED_VALUE')
  if (majorDimension === 'COLUMNS') values = transpose(values, '')
  const result: ValueRange = {
    range: formatRange(bounded.sheet.properties.title, bounded.startRow, bounded.startCol, bounded.endRow, bounded.endCol),
    majorDimension,
  }
  if (values.length) result.values = values
  return result
}

function toWrites(values: unknown, option: ValueInputOption, majorDimension: 'ROWS' | 'COLUMNS'): CellWrite[][] {
  if (values === undefined || values === null) return []
  if (!Array.isArray(values)) throw badRequest('Invalid value at \'data.values\' (type.googleapis.com/google.protobuf.ListValue)')
  let rows = values.map((row, rowIndex) => {
    if (!Array.isArray(row)) throw badRequest(`Invalid values[${rowIndex}]: ${JSON.stringify(row)}`)
    return row.map((value, colIndex) => {
      const write = cellFromInput(value, option)
      if (write === undefined) throw badRequest(`Invalid values[${rowIndex}][${colIndex}]: ${describeJson(value)}`)
      return write
    })
  })
  if (majorDimension === 'COLUMNS') rows = transpose(rows, 'skip' as CellWrite)
  return rows
}

function describeJson(value: unknown): string {
  if (Array.isArray(value)) return `list_value {\n  ${JSON.stringify(value)}\n}`
  return `struct_value {\n  ${JSON.stringify(value)}\n}`
}

function ensureGrid(sheet: Sheet, rows: number, cols: number) {
  const grid = sheet.properties.gridProperties
  if (rows > grid.rowCount) grid.rowCount = rows
  if (cols > grid.columnCount) grid.columnCount = cols
}

function assertCellLimit(spreadsheet: Spreadsheet) {
  const cells = spreadsheet.sheets.reduce((sum, sheet) => sum + sheet.properties.gridProperties.rowCount * sheet.properties.gridProperties.columnCount, 0)
  if (cells > MAX_CELLS) {
    throw badRequest(`This action would increase the number of cells in the workbook above the limit of ${MAX_CELLS} cells.`)
  }
}

function writeBlock(sheet: Sheet, startRow: number, startCol: number, writes: CellWrite[][]): { cells: number; width: number } {
  let cells = 0
  let width = 0
  writes.forEach((line, rowOffset) => {
    width = Math.max(width, line.length)
    line.forEach((write, colOffset) => {
      if (write === 'skip') return
      cells += 1
      const row = startRow + rowOffset
      const col = startCol + colOffset
      const target = (sheet.rows[row] ??= [])
      target[col] = write === 'clear' ? undefined : write
    })
  })
  return { cells, width }
}

function updatedData(spreadsheet: Spreadsheet, sheet: Sheet, range: string, options: WriteOptions) {
  return getValues(spreadsheet, range, { valueRenderOption: options.responseValueRenderOption ?? 'FORMATTED_VALUE' })
}

/**
 * values.append: find the table that starts in the range, then write below its last row, from its
 * first column. https://developers.google.com/workspace/sheets/api/guides/values#append_values
 */
export function appendValues(
  spreadsheet: Spreadsheet,
  rangeText: string,
  body: { values?: unknown; majorDimension?: 'ROWS' | 'COLUMNS' },
  options: WriteOptions & { insertDataOption: 'INSERT_ROWS' | 'OVERWRITE' },
) {
  const resolved = resolveRange(spreadsheet, rangeText)
  const { sheet } = resolved
  const range = resolved.range.isSingleCell ? { ...resolved.range, endRow: null, endCol: null } : resolved.range
  const writes = toWrites(body.values, options.valueInputOption, body.majorDimension ?? 'ROWS')
  const grid = sheet.properties.gridProperties
  const searchEndRow = Math.min(range.endRow ?? grid.rowCount, Math.max(grid.rowCount, sheet.rows.length))
  const searchEndCol = range.endCol ?? Math.max(grid.columnCount, usedWidth(sheet))
  const rowHasData = (row: number) => {
    const line = sheet.rows[row]
    if (!line) return false
    for (let col = range.startCol; col < Math.min(searchEndCol, line.length); col += 1) if (!isEmpty(line[col])) return true
    return false
  }

  let tableStart = -1
  for (let row = range.startRow; row < searchEndRow; row += 1) {
    if (rowHasData(row)) {
      tableStart = row
      break
    }
  }
  let targetRow = range.startRow
  let targetCol = range.startCol
  let tableRange: string | undefined
  if (tableStart !== -1) {
    let tableEnd = tableStart
    while (rowHasData(tableEnd)) tableEnd += 1
    let firstCol = Number.POSITIVE_INFINITY
    let lastCol = -1
    for (let row = tableStart; row < tableEnd; row += 1) {
      const line = sheet.rows[row] ?? []
      for (let col = range.startCol; col < Math.min(searchEndCol, line.length); col += 1) {
        if (isEmpty(line[col])) continue
        firstCol = Math.min(firstCol, col)
        lastCol = Math.max(lastCol, col)
      }
    }
    targetRow = tableEnd
    targetCol = firstCol
    tableRange = formatRange(sheet.properties.title, tableStart, firstCol, tableEnd, lastCol + 1)
  }

  const response: Record<string, unknown> = { spreadsheetId: spreadsheet.id }
  if (tableRange) response.tableRange = tableRange
  if (!writes.length) {
    response.updates = { spreadsheetId: spreadsheet.id }
    return response
  }
  const width = Math.max(...writes.map((line) => line.length))
  if (options.insertDataOption === 'INSERT_ROWS') {
    if (targetRow < sheet.rows.length) sheet.rows.splice(targetRow, 0, ...Array.from({ length: writes.length }, () => []))
    grid.rowCount = Math.max(grid.rowCount, targetRow) + writes.length
  }
  ensureGrid(sheet, targetRow + writes.length, targetCol + width)
  assertCellLimit(spreadsheet)
  const written = writeBlock(sheet, targetRow, targetCol, writes)
  const updatedRange = formatRange(sheet.properties.title, targetRow, targetCol, targetRow + writes.length, targetCol + width)
  const updates: Record<string, unknown> = {
    spreadsheetId: spreadsheet.id,
    updatedRange,
    updatedRows: writes.length,
    updatedColumns: width,
    updatedCells: written.cells,
  }
  if (options.includeValuesInResponse) updates.updatedData = updatedData(spreadsheet, sheet, updatedRange, options)
  response.updates = updates
  return response
}

export function updateValues(
  spreadsheet: Spreadsheet,
  rangeText: string,
  body: { values?: unknown; majorDimension?: 'ROWS' | 'COLUMNS' },
  options: WriteOptions,
) {
  const resolved = resolveRange(spreadsheet, rangeText)
  const { sheet } = resolved
  const range = resolved.range.isSingleCell ? { ...resolved.range, endRow: null, endCol: null } : resolved.range
  const writes = toWrites(body.values, options.valueInputOption, body.majorDimension ?? 'ROWS')
  const response: Record<string, unknown> = { spreadsheetId: spreadsheet.id }
  if (!writes.length) return response
  const width = Math.max(...writes.map((line) => line.length))
  const requested = formatRange(
    sheet.properties.title,
    range.startRow,
    range.startCol,
    range.endRow ?? range.startRow + writes.length,
    range.endCol ?? range.startCol + width,
  )
  if (range.endRow !== null && range.startRow + writes.length > range.endRow) {
    throw badRequest(`Requested writing within range [${requested}], but tried writing to row [${range.endRow + 1}]`)
  }
  if (range.endCol !== null && range.startCol + width > range.endCol) {
    throw badRequest(`Requested writing within range [${requested}], but tried writing to column [${columnToLetters(range.endCol)}]`)
  }
  ensureGrid(sheet, range.startRow + writes.length, range.startCol + width)
  assertCellLimit(spreadsheet)
  const written = writeBlock(sheet, range.startRow, range.startCol, writes)
  const updatedRange = formatRange(sheet.properties.title, range.startRow, range.startCol, range.startRow + writes.length, range.startCol + width)
  Object.assign(response, { updatedRange, updatedRows: writes.length, updatedColumns: width, updatedCells: written.cells })
  if (options.includeValuesInResponse) response.updatedData = updatedData(spreadsheet, sheet, updatedRange, options)
  return response
}


export function clearValues(spreadsheet: Spreadsheet, rangeText: string) {
  const bounded = bound(resolveRange(spreadsheet, rangeText), false)
  for (let row = bounded.startRow; row < Math.min(bounded.endRow, bounded.sheet.rows.length); row += 1) {
    const line = bounded.sheet.rows[row]
    if (!line) continue
    for (let col = bounded.startCol; col < Math.min(bounded.endCol, line.length); col += 1) line[col] = undefined
  }
  const grid = bounded.sheet.properties.gridProperties
  return {
    spreadsheetId: spreadsheet.id,
    clearedRange: formatRange(
      bounded.sheet.properties.title,
      bounded.startRow,
      bounded.startCol,
      Math.min(bounded.endRow, grid.rowCount),
      Math.min(bounded.endCol, grid.columnCount),
    ),
  }
}

function gridData(spreadsheet: Spreadsheet, bounded: BoundedRange) {
  const { sheet } = bounded
  const rowData: { values?: Record<string, unknown>[] }[] = []
  const lastRow = Math.min(bounded.endRow, sheet.rows.length)
  for (let row = bounded.startRow; row < lastRow; row += 1) {
    const line = sheet.rows[row] ?? []
    const values: Record<string, unknown>[] = []
    for (let col = bounded.startCol; col < Math.min(bounded.endCol, line.length); col += 1) {
      const cell = line[col]
      if (!cell) {
        values.push({})
        continue
      }
      const effective = effectiveValue(spreadsheet, sheet, row, col)
      const entry: Record<string, unknown> = { userEnteredValue: userEnteredValue(cell) }
      if (isErrorValue(effective)) entry.effectiveValue = { errorValue: { type: errorTypeByCode[effective.error], message: effective.error } }
      else if (typeof effective === 'number') entry.effectiveValue = { numberValue: effective }
      else if (typeof effective === 'boolean') entry.effectiveValue = { boolValue: effective }
      else if (typeof effective === 'string') entry.effectiveValue = { stringValue: effective }
      const format = cellFormat(sheet, row, col)
      entry.formattedValue = formattedValue(cell, effective, format)
      if (format) entry.userEnteredFormat = { numberFormat: { ...format } }
      values.push(entry)
    }
    while (values.length && Object.keys(values[values.length - 1]!).length === 0) values.pop()
    rowData.push(values.length ? { values } : {})
  }
  while (rowData.length && !rowData[rowData.length - 1]!.values) rowData.pop()
  const data: Record<string, unknown> = {}
  if (bounded.startRow) data.startRow = bounded.startRow
  if (bounded.startCol) data.startColumn = bounded.startCol
  if (rowData.length) data.rowData = rowData
  return data
}

/** The Spreadsheet resource as spreadsheets.get answers it. */
export function spreadsheetResource(
  spreadsheet: Spreadsheet,
  spreadsheetUrl: string,
  options: { includeGridData?: boolean; ranges?: string[] } = {},
) {
  const ranges = (options.ranges ?? []).map((text) => bound(resolveRange(spreadsheet, text), true))
  const selected = ranges.length
    ? sheetsInOrder(spreadsheet).filter((sheet) => ranges.some((range) => range.sheet === sheet))
    : sheetsInOrder(spreadsheet)
  return {
    spreadsheetId: spreadsheet.id,
    properties: { ...spreadsheet.properties },
    sheets: selected.map((sheet) => {
      const entry: Record<string, unknown> = { properties: structuredClone(sheet.properties) }
      if (options.includeGridData) {
        const sheetRanges = ranges.filter((range) => range.sheet === sheet)
        const grid = sheet.properties.gridProperties
        const wanted = sheetRanges.length ? sheetRanges : [{ sheet, startRow: 0, startCol: 0, endRow: grid.rowCount, endCol: grid.columnCount }]
        entry.data = wanted.map((range) => gridData(spreadsheet, range))
      }
      return entry
    }),
    spreadsheetUrl,
  }
}

/**
 * Every sheet's formatted values, for the control API and the viewer. With `cells`, also each
 * cell's stored kind and unformatted value (`{ type: 'number', value: 84.88 }`), so a test can tell
 * a number from text that looks like one, and a formula from text that starts with '='.
 */
export function snapshotValues(spreadsheet: Spreadsheet, { cells = false }: { cells?: boolean } = {}) {
  return sheetsInOrder(spreadsheet).map((sheet) => {
    const grid = sheet.properties.gridProperties
    const bounded = { sheet, startRow: 0, startCol: 0, endRow: Math.min(grid.rowCount, sheet.rows.length), endCol: grid.columnCount }
    const values = readGrid(spreadsheet, bounded, 'FORMATTED_VALUE')
    const typed = cells
      ? {
          cells: sheet.rows.slice(0, bounded.endRow).map((line, row) =>
            (line ?? []).slice(0, grid.columnCount).map((cell, col) => {
              if (!cell) return null
              const format = cellFormat(sheet, row, col)
              return { ...(cell.type === 'formula' ? { type: 'formula', formula: cell.formula } : { type: cell.type, value: cell.value }), ...(format ? { numberFormat: format } : {}) }
            }),
          ),
        }
      : {}
    return {
      ...typed,
      sheetId: sheet.properties.sheetId,
      title: sheet.properties.title,
      index: sheet.properties.index,
      rowCount: grid.rowCount,
      columnCount: grid.columnCount,
      frozenRowCount: grid.frozenRowCount ?? 0,
      values,
    }
  })
}

type BatchRequest = Record<string, unknown>

/** Formatting requests change nothing the API reads back, so they are accepted and ignored (repeatCell's number format is kept). */
const FORMAT_ONLY = new Set([
  'autoResizeDimensions', 'updateDimensionProperties', 'updateBorders', 'mergeCells', 'unmergeCells',
  'setBasicFilter', 'clearBasicFilter', 'addConditionalFormatRule', 'setDataValidation', 'updateCellsFormat',
])

/** spreadsheets.batchUpdate: all requests apply, or none (Google's documented atomicity). */
export function batchUpdate(spreadsheet: Spreadsheet, requests: unknown): unknown[] {
  if (!Array.isArray(requests) || !requests.length) throw badRequest('Must specify at least one request.')
  const draftSheets = spreadsheet.sheets.map((sheet) => ({
    properties: structuredClone(sheet.properties),
    rows: sheet.rows.map((line) => (line ? [...line] : line)),
    ...(sheet.formats ? { formats: sheet.formats.map((f) => ({ ...f })) } : {}),
  }))
  const draftProperties = { ...spreadsheet.properties }
  const draft: Spreadsheet = { ...spreadsheet, sheets: draftSheets, properties: draftProperties }
  const replies = requests.map((request, index) => applyRequest(draft, request as BatchRequest, index))
  spreadsheet.sheets = draft.sheets
  spreadsheet.properties = draft.properties
  return replies
}

function applyRequest(spreadsheet: Spreadsheet, request: BatchRequest, index: number): unknown {
  const kinds = Object.keys(request ?? {})
  if (kinds.length !== 1) throw badRequest(`Invalid requests[${index}]: No request set.`)
  const kind = kinds[0]!
  const body = (request[kind] ?? {}) as Record<string, unknown>
  const prefix = `Invalid requests[${index}].${kind}`
  const sheetById = (id: unknown) => {
    const sheet = spreadsheet.sheets.find((entry) => entry.properties.sheetId === (id ?? 0))
    if (!sheet) throw badRequest(`${prefix}: No grid with id: ${String(id ?? 0)}`)
    return sheet
  }
  switch (kind) {
    case 'addSheet': {
      const properties = (body.properties ?? {}) as SheetPropertiesInput
      const title = properties.title ?? nextSheetTitle(spreadsheet.sheets)
      assertTitleFree(spreadsheet.sheets, title, prefix)
      const sheetId = properties.sheetId ?? newSheetId(spreadsheet.sheets)
      if (spreadsheet.sheets.some((sheet) => sheet.properties.sheetId === sheetId)) {
        throw badRequest(`${prefix}: A sheet with the id ${sheetId} already exists.`)
      }
      const position = Math.min(properties.index ?? spreadsheet.sheets.length, spreadsheet.sheets.length)
      for (const sheet of spreadsheet.sheets) if (sheet.properties.index >= position) sheet.properties.index += 1
      const sheet: Sheet = { properties: sheetProperties(sheetId, title, position, properties), rows: [] }
      spreadsheet.sheets.push(sheet)
      assertCellLimit(spreadsheet)
      return { addSheet: { properties: structuredClone(sheet.properties) } }
    }
    case 'updateSheetProperties': {
      const properties = (body.properties ?? {}) as Record<string, unknown>
      const fields = typeof body.fields === 'string' ? body.fields : ''
      if (!fields) throw badRequest(`${prefix}: At least one field must be updated`)
      const sheet = sheetById(properties.sheetId)
      applySheetFields(spreadsheet, sheet, properties, fields, prefix)
      return {}
    }
    case 'updateSpreadsheetProperties': {
      const properties = (body.properties ?? {}) as Record<string, unknown>
      const fields = typeof body.fields === 'string' ? body.fields : ''
      if (!fields) throw badRequest(`${prefix}: At least one field must be updated`)
      for (const field of fields === '*' ? ['title', 'locale', 'timeZone'] : fields.split(',').map((f) => f.trim())) {
        if (field === 'title' || field === 'locale' || field === 'timeZone') {
          const value = properties[field]
          if (typeof value === 'string') spreadsheet.properties[field] = value
        }
      }
      return {}
    }
    case 'deleteSheet': {
      const sheet = sheetById(body.sheetId)
      if (spreadsheet.sheets.length === 1) throw badRequest(`${prefix}: You can't remove all the sheets in a document.`)
      spreadsheet.sheets = spreadsheet.sheets.filter((entry) => entry !== sheet)
      for (const entry of spreadsheet.sheets) if (entry.properties.index > sheet.properties.index) entry.properties.index -= 1
      return {}
    }
    case 'repeatCell': {
      // Only the number format is kept (what values.get FORMATTED_VALUE and grid data read back);
      // other formatting is accepted and ignored, as before.
      const range = (body.range ?? {}) as { sheetId?: number; startRowIndex?: number; endRowIndex?: number; startColumnIndex?: number; endColumnIndex?: number }
      const sheet = sheetById(range.sheetId)
      const fields = typeof body.fields === 'string' ? body.fields : ''
      if (!fields) throw badRequest(`${prefix}: At least one field must be specified.`)
      const cell = (body.cell ?? {}) as { userEnteredFormat?: { numberFormat?: NumberFormat } }
      const wantsFormat = fields === '*' || fields.split(',').some((f) => ['userEnteredFormat', 'userEnteredFormat.numberFormat'].includes(f.trim()))
      if (!wantsFormat) return {}
      const format = cell.userEnteredFormat?.numberFormat
      if (format && typeof format.type !== 'string') throw badRequest(`${prefix}: numberFormat.type is required`)
      const start = { startRow: range.startRowIndex ?? 0, startCol: range.startColumnIndex ?? 0 }
      const end = { ...(range.endRowIndex !== undefined ? { endRow: range.endRowIndex } : {}), ...(range.endColumnIndex !== undefined ? { endCol: range.endColumnIndex } : {}) }
      if ((end.endRow !== undefined && end.endRow <= start.startRow) || (end.endCol !== undefined && end.endCol <= start.startCol)) {
        throw badRequest(`${prefix}: The range's end must be after its start`)
      }
      sheet.formats = [...(sheet.formats ?? []), { ...start, ...end, numberFormat: format ? { type: format.type, ...(format.pattern ? { pattern: format.pattern } : {}) } : { type: 'NUMBER_FORMAT_TYPE_UNSPECIFIED' } }]
      return {}
    }
    case 'appendDimension': {
      const sheet = sheetById(body.sheetId)
      const length = Number(body.length ?? 0)
      if (!(length > 0)) throw badRequest(`${prefix}: length must be greater than 0`)
      if (body.dimension === 'COLUMNS') sheet.properties.gridProperties.columnCount += length
      else if (body.dimension === 'ROWS') sheet.properties.gridProperties.rowCount += length
      else throw badRequest(`${prefix}: dimension must be ROWS or COLUMNS`)
      assertCellLimit(spreadsheet)
      return {}
    }
    case 'insertDimension': {
      const range = (body.range ?? {}) as { sheetId?: number; dimension?: string; startIndex?: number; endIndex?: number }
      const sheet = sheetById(range.sheetId)
      const start = range.startIndex ?? 0
      const count = (range.endIndex ?? start) - start
      if (count <= 0) throw badRequest(`${prefix}: endIndex must be greater than startIndex`)
      // Formats move with their cells: a range at or after the insertion shifts, one spanning it widens.
      const shift = (from: number, to: number | undefined) =>
        from >= start ? { from: from + count, to: to === undefined ? undefined : to + count } : { from, to: to === undefined || to <= start ? to : to + count }
      if (range.dimension === 'ROWS') {
        if (start < sheet.rows.length) sheet.rows.splice(start, 0, ...Array.from({ length: count }, () => []))
        sheet.properties.gridProperties.rowCount += count
        sheet.formats = sheet.formats?.map((f) => {
          const { from, to } = shift(f.startRow, f.endRow)
          return { ...f, startRow: from, ...(to === undefined ? {} : { endRow: to }) }
        })
      } else if (range.dimension === 'COLUMNS') {
        for (const line of sheet.rows) if (line && start < line.length) line.splice(start, 0, ...Array.from({ length: count }, () => undefined))
        sheet.properties.gridProperties.columnCount += count
        sheet.formats = sheet.formats?.map((f) => {
          const { from, to } = shift(f.startCol, f.endCol)
          return { ...f, startCol: from, ...(to === undefined ? {} : { endCol: to }) }
        })
      } else throw badRequest(`${prefix}: dimension must be ROWS or COLUMNS`)
      assertCellLimit(spreadsheet)
      return {}
    }
    default:
      if (FORMAT_ONLY.has(kind)) return {}
      throw new GoogleApiError({
        code: 501,
        status: 'UNIMPLEMENTED',
        reason: 'notImplemented',
        message: `The Mailrow Google emulator does not implement batchUpdate request "${kind}".`,
      })
  }
}

function applySheetFields(spreadsheet: Spreadsheet, sheet: Sheet, properties: Record<string, unknown>, fields: string, prefix: string) {
  const paths =
    fields.trim() === '*'
      ? ['title', 'index', 'hidden', 'rightToLeft', 'tabColor', 'gridProperties']
      : fields.split(',').map((field) => field.trim()).filter(Boolean)
  const grid = (properties.gridProperties ?? {}) as Partial<GridProperties>
  const current = sheet.properties
  for (const path of paths) {
    switch (path) {
      case 'title': {
        const title = String(properties.title ?? '')
        assertTitleFree(spreadsheet.sheets, title, prefix, sheet)
        current.title = title
        break
      }
      case 'index': {
        const target = Math.max(0, Math.min(Number(properties.index ?? 0), spreadsheet.sheets.length - 1))
        const ordered = sheetsInOrder(spreadsheet).filter((entry) => entry !== sheet)
        ordered.splice(target, 0, sheet)
        ordered.forEach((entry, position) => (entry.properties.index = position))
        break
      }
      case 'hidden':
        if (properties.hidden) current.hidden = true
        else delete current.hidden
        break
      case 'rightToLeft':
        if (properties.rightToLeft) current.rightToLeft = true
        else delete current.rightToLeft
        break
      case 'tabColor':
        if (properties.tabColor) current.tabColor = properties.tabColor
        else delete current.tabColor
        break
      case 'gridProperties':
        setGridField(current.gridProperties, 'frozenRowCount', grid.frozenRowCount, prefix)
        setGridField(current.gridProperties, 'frozenColumnCount', grid.frozenColumnCount, prefix)
        if (grid.rowCount !== undefined) current.gridProperties.rowCount = grid.rowCount
        if (grid.columnCount !== undefined) current.gridProperties.columnCount = grid.columnCount
        break
      case 'gridProperties.frozenRowCount':
      case 'gridProperties.frozenColumnCount':
      case 'gridProperties.rowCount':
      case 'gridProperties.columnCount': {
        const key = path.split('.')[1] as keyof GridProperties
        if (key === 'rowCount' || key === 'columnCount') {
          const value = Number(grid[key] ?? 0)
          if (value < 1) throw badRequest(`${prefix}: ${key} must be at least 1`)
          current.gridProperties[key] = value
        } else setGridField(current.gridProperties, key, grid[key], prefix)
        break
      }
      default:
        throw badRequest(`${prefix}: Invalid field mask path: ${path}`)
    }
  }
  if ((current.gridProperties.frozenRowCount ?? 0) >= current.gridProperties.rowCount) {
    throw badRequest(`${prefix}: You can't freeze all visible rows on the sheet.`)
  }
  if ((current.gridProperties.frozenColumnCount ?? 0) >= current.gridProperties.columnCount) {
    throw badRequest(`${prefix}: You can't freeze all visible columns on the sheet.`)
  }
}

function setGridField(grid: GridProperties, key: 'frozenRowCount' | 'frozenColumnCount', value: number | undefined, prefix: string) {
  if (value === undefined || value === 0) {
    delete grid[key]
    return
  }
  if (!Number.isInteger(value) || value < 0) throw badRequest(`${prefix}: ${key} must be a non-negative integer`)
  grid[key] = value
}

