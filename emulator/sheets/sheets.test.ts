import type { sheets_v4 } from '@googleapis/sheets'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestEmulator, type TestEmulator } from '../testing/harness'

let t: TestEmulator
let sheets: sheets_v4.Sheets

beforeAll(async () => {
  t = await startTestEmulator()
  sheets = t.sheetsFor(await t.authorizedClient('demo@mailrow.test'))
})
afterAll(() => t.close())

async function newSpreadsheet(title = 'Orders - Data', sheetTitles?: string[]) {
  const { data } = await sheets.spreadsheets.create({
    requestBody: { properties: { title }, sheets: sheetTitles?.map((sheetTitle) => ({ properties: { title: sheetTitle } })) },
  })
  return data.spreadsheetId!
}

async function values(spreadsheetId: string, range: string, valueRenderOption?: string) {
  const { data } = await sheets.spreadsheets.values.get({ spreadsheetId, range, valueRenderOption })
  return data.values ?? []
}

describe('spreadsheets.create and get', () => {
  it('creates a spreadsheet with Sheet1 and a viewer URL', async () => {
    const { data } = await sheets.spreadsheets.create({ requestBody: { properties: { title: 'Invoices - Data' } } })
    expect(data.spreadsheetId).toMatch(/^1[A-Za-z0-9_-]{43}$/)
    expect(data.spreadsheetUrl).toBe(`${t.url}/sheets/${data.spreadsheetId}`)
    expect(data.properties).toMatchObject({ title: 'Invoices - Data', locale: 'en_US' })
    expect(data.sheets).toEqual([
      { properties: { sheetId: 0, title: 'Sheet1', index: 0, sheetType: 'GRID', gridProperties: { rowCount: 1000, columnCount: 26 } } },
    ])
    const page = await fetch(data.spreadsheetUrl!)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Invoices - Data')
  })

  it('honours fields masks on get', async () => {
    const id = await newSpreadsheet('Masked', ['Data', 'Archive'])
    const { data } = await sheets.spreadsheets.get({ spreadsheetId: id, fields: 'sheets.properties.title,properties(title)' })
    expect(data).toEqual({ properties: { title: 'Masked' }, sheets: [{ properties: { title: 'Data' } }, { properties: { title: 'Archive' } }] })
  })

  it('returns grid data when asked', async () => {
    const id = await newSpreadsheet()
    await sheets.spreadsheets.values.update({ spreadsheetId: id, range: 'Sheet1!A1', valueInputOption: 'USER_ENTERED', requestBody: { values: [['Total', '=2*21']] } })
    const { data } = await sheets.spreadsheets.get({ spreadsheetId: id, includeGridData: true, ranges: ['Sheet1!A1:B1'] })
    expect(data.sheets![0]!.data![0]!.rowData![0]!.values).toEqual([
      { userEnteredValue: { stringValue: 'Total' }, effectiveValue: { stringValue: 'Total' }, formattedValue: 'Total' },
      { userEnteredValue: { formulaValue: '=2*21' }, effectiveValue: { numberValue: 42 }, formattedValue: '42' },
    ])
  })
})

describe('values.append', () => {
  it('appends after the table and reports updatedRange and tableRange', async () => {
    const id = await newSpreadsheet()
    const first = await sheets.spreadsheets.values.append({
      spreadsheetId: id,
      range: 'Sheet1!A1',
      valueInputOption: 'RAW',
      requestBody: { values: [['Order', 'Customer', 'Total', 'Message ID']] },
    })
    expect(first.data.tableRange).toBeUndefined()
    expect(first.data.updates).toEqual({ spreadsheetId: id, updatedRange: 'Sheet1!A1:D1', updatedRows: 1, updatedColumns: 4, updatedCells: 4 })

    const second = await sheets.spreadsheets.values.append({
      spreadsheetId: id,
      range: 'Sheet1!A1:D1',
      valueInputOption: 'RAW',
      insertDataOption: 'INSERT_ROWS',
      requestBody: { values: [['NW-1', 'Ava', '42.50', 'm1'], ['NW-2', 'Liam', '19.99', 'm2']] },
    })
    expect(second.data.tableRange).toBe('Sheet1!A1:D1')
    expect(second.data.updates).toMatchObject({ updatedRange: 'Sheet1!A2:D3', updatedRows: 2, updatedColumns: 4, updatedCells: 8 })

    const third = await sheets.spreadsheets.values.append({ spreadsheetId: id, range: 'Sheet1', valueInputOption: 'RAW', requestBody: { values: [['NW-3']] } })
    expect(third.data.tableRange).toBe('Sheet1!A1:D3')
    expect(third.data.updates!.updatedRange).toBe('Sheet1!A4')
    expect(await values(id, 'Sheet1!A:A')).toEqual([['Order'], ['NW-1'], ['NW-2'], ['NW-3']])
  })

  it('keeps a number format set by repeatCell, for rows appended later too, and shows numbers through it', async () => {
    const id = await newSpreadsheet()
    const requests = [
      { repeatCell: { range: { sheetId: 0, startRowIndex: 1, startColumnIndex: 0, endColumnIndex: 1 }, cell: { userEnteredFormat: { numberFormat: { type: 'DATE', pattern: 'yyyy-mm-dd' } } }, fields: 'userEnteredFormat.numberFormat' } },
      { repeatCell: { range: { sheetId: 0, startRowIndex: 1, startColumnIndex: 1, endColumnIndex: 2 }, cell: { userEnteredFormat: { numberFormat: { type: 'NUMBER', pattern: '#,##0.00' } } }, fields: 'userEnteredFormat.numberFormat' } },
      { repeatCell: { range: { sheetId: 0, startRowIndex: 1, startColumnIndex: 2, endColumnIndex: 3 }, cell: { userEnteredFormat: { numberFormat: { type: 'DATE_TIME', pattern: 'yyyy-mm-dd hh:mm' } } }, fields: 'userEnteredFormat.numberFormat' } },
    ]
    await sheets.spreadsheets.batchUpdate({ spreadsheetId: id, requestBody: { requests } })
    await sheets.spreadsheets.values.update({ spreadsheetId: id, range: 'Sheet1!A1', valueInputOption: 'RAW', requestBody: { values: [['Date', 'Total', 'At']] } })
    await sheets.spreadsheets.values.append({ spreadsheetId: id, range: 'Sheet1!A1', valueInputOption: 'RAW', insertDataOption: 'INSERT_ROWS', requestBody: { values: [[45356, 1234.5, 45356.75], ['=HYPERLINK("x")', -3, 'text']] } })
    expect(await values(id, 'Sheet1!A1:C3')).toEqual([
      ['Date', 'Total', 'At'],
      ['2024-03-05', '1,234.50', '2024-03-05 18:00'],
      ['=HYPERLINK("x")', '-3.00', 'text'],
    ])
    expect(await values(id, 'Sheet1!A2:B2', 'UNFORMATTED_VALUE')).toEqual([[45356, 1234.5]])
    const grid = await sheets.spreadsheets.get({ spreadsheetId: id, ranges: ['Sheet1!B2'], includeGridData: true })
    expect(grid.data.sheets?.[0]?.data?.[0]?.rowData?.[0]?.values?.[0]).toMatchObject({ userEnteredValue: { numberValue: 1234.5 }, formattedValue: '1,234.50', userEnteredFormat: { numberFormat: { type: 'NUMBER', pattern: '#,##0.00' } } })
    // A column inserted before them: the formats move with their cells.
    await sheets.spreadsheets.batchUpdate({ spreadsheetId: id, requestBody: { requests: [{ insertDimension: { range: { sheetId: 0, dimension: 'COLUMNS', startIndex: 0, endIndex: 1 } } }] } })
    expect(await values(id, 'Sheet1!B2:C2')).toEqual([['2024-03-05', '1,234.50']])
  })

  it('keeps RAW text as text and parses USER_ENTERED like the Sheets UI', async () => {
    const id = await newSpreadsheet()
    const row = ['=1+1', '007', '$1,234.50', 'TRUE', "'=not a formula", '12.5%']
    await sheets.spreadsheets.values.append({ spreadsheetId: id, range: 'Sheet1!A1', valueInputOption: 'RAW', requestBody: { values: [row] } })
    await sheets.spreadsheets.values.append({ spreadsheetId: id, range: 'Sheet1!A1', valueInputOption: 'USER_ENTERED', requestBody: { values: [row] } })

    expect(await values(id, 'Sheet1!A1:F2', 'UNFORMATTED_VALUE')).toEqual([
      ['=1+1', '007', '$1,234.50', 'TRUE', "'=not a formula", '12.5%'],
      [2, 7, 1234.5, true, '=not a formula', 0.125],
    ])
    expect(await values(id, 'Sheet1!A1:F2')).toEqual([
      ['=1+1', '007', '$1,234.50', 'TRUE', "'=not a formula", '12.5%'],
      ['2', '7', '$1,234.50', 'TRUE', '=not a formula', '12.5%'],
    ])
    expect((await values(id, 'Sheet1!A2', 'FORMULA'))[0]).toEqual(['=1+1'])
  })

  it('with OVERWRITE fills the first empty row below the table; with INSERT_ROWS pushes later rows down', async () => {
    const id = await newSpreadsheet()
    await sheets.spreadsheets.values.update({
      spreadsheetId: id,
      range: 'Sheet1!A1',
      valueInputOption: 'RAW',
      requestBody: { values: [['h1', 'h2'], ['a', 'b'], [], ['later', 'row']] },
    })
    const overwrite = await sheets.spreadsheets.values.append({ spreadsheetId: id, range: 'Sheet1!A1', valueInputOption: 'RAW', insertDataOption: 'OVERWRITE', requestBody: { values: [['x', 'y']] } })
    expect(overwrite.data.updates!.updatedRange).toBe('Sheet1!A3:B3')
    expect(await values(id, 'Sheet1!A1:B5')).toEqual([['h1', 'h2'], ['a', 'b'], ['x', 'y'], ['later', 'row']])

    const insert = await sheets.spreadsheets.values.append({ spreadsheetId: id, range: 'Sheet1!A1', valueInputOption: 'RAW', insertDataOption: 'INSERT_ROWS', requestBody: { values: [['new', 'one']] } })
    expect(insert.data.tableRange).toBe('Sheet1!A1:B4')
    expect(insert.data.updates!.updatedRange).toBe('Sheet1!A5:B5')
    const { data } = await sheets.spreadsheets.get({ spreadsheetId: id })
    expect(data.sheets![0]!.properties!.gridProperties!.rowCount).toBe(1001)
  })

  it('starts at the table’s first column and quotes sheet names that need it', async () => {
    const id = await newSpreadsheet('Leads', ['Lead Data'])
    await sheets.spreadsheets.values.update({ spreadsheetId: id, range: "'Lead Data'!C2", valueInputOption: 'RAW', requestBody: { values: [['Name', 'Email']] } })
    const { data } = await sheets.spreadsheets.values.append({ spreadsheetId: id, range: "'Lead Data'!A1", valueInputOption: 'RAW', requestBody: { values: [['Ava', 'ava@example.com']] } })
    expect(data.tableRange).toBe("'Lead Data'!C2:D2")
    expect(data.updates!.updatedRange).toBe("'Lead Data'!C3:D3")
  })

  it('requires valueInputOption and a parseable range', async () => {
    const id = await newSpreadsheet()
    const missing = await sheets.spreadsheets.values.append({ spreadsheetId: id, range: 'Sheet1', requestBody: { values: [['x']] } }).catch((error) => error)
    expect(missing.status).toBe(400)
    expect(missing.response.data.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: "'valueInputOption' is required but not specified" })
    const badRange = await sheets.spreadsheets.values.append({ spreadsheetId: id, range: 'Nope!A1', valueInputOption: 'RAW', requestBody: { values: [['x']] } }).catch((error) => error)
    expect(badRange.status).toBe(400)
    expect(badRange.response.data.error.message).toBe('Unable to parse range: Nope!A1')
  })
})

describe('values.get and values.update', () => {
  it('writes a block, reads open ranges, columns and trims empty trailing cells', async () => {
    const id = await newSpreadsheet()
    const { data } = await sheets.spreadsheets.values.update({
      spreadsheetId: id,
      range: 'Sheet1!B2:D3',
      valueInputOption: 'RAW',
      requestBody: { values: [['a', '', 'c'], ['d']] },
    })
    expect(data).toEqual({ spreadsheetId: id, updatedRange: 'Sheet1!B2:D3', updatedRows: 2, updatedColumns: 3, updatedCells: 4 })
    const whole = await sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'Sheet1' })
    expect(whole.data).toEqual({ range: 'Sheet1!A1:Z1000', majorDimension: 'ROWS', values: [[], ['', 'a', '', 'c'], ['', 'd']] })
    const columns = await sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'Sheet1!B2:D3', majorDimension: 'COLUMNS' })
    expect(columns.data.values).toEqual([['a', 'd'], [], ['c']])
    const empty = await sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'Sheet1!F1:G5' })
    expect(empty.data).toEqual({ range: 'Sheet1!F1:G5', majorDimension: 'ROWS' })
  })

  it('refuses writes outside the given range and reads outside the grid', async () => {
    const id = await newSpreadsheet()
    const tooTall = await sheets.spreadsheets.values
      .update({ spreadsheetId: id, range: 'Sheet1!A1:B1', valueInputOption: 'RAW', requestBody: { values: [['a'], ['b']] } })
      .catch((error) => error)
    expect(tooTall.status).toBe(400)
    expect(tooTall.response.data.error.message).toBe('Requested writing within range [Sheet1!A1:B1], but tried writing to row [2]')
    const outside = await sheets.spreadsheets.values.get({ spreadsheetId: id, range: 'Sheet1!A1:A2000' }).catch((error) => error)
    expect(outside.status).toBe(400)
    expect(outside.response.data.error.message).toBe("Range ('Sheet1'!A1:A2000) exceeds grid limits. Max rows: 1000, max columns: 26")
  })
})

describe('batchUpdate', () => {
  it('adds a sheet and updates title and frozen rows', async () => {
    const id = await newSpreadsheet()
    const added = await sheets.spreadsheets.batchUpdate({
      spreadsheetId: id,
      requestBody: { requests: [{ addSheet: { properties: { title: 'Archive', gridProperties: { rowCount: 50, columnCount: 5 } } } }] },
    })
    const properties = added.data.replies![0]!.addSheet!.properties!
    expect(properties).toMatchObject({ title: 'Archive', index: 1, sheetType: 'GRID', gridProperties: { rowCount: 50, columnCount: 5 } })
    expect(properties.sheetId).toBeGreaterThan(0)

    const updated = await sheets.spreadsheets.batchUpdate({
      spreadsheetId: id,
      requestBody: {
        requests: [
          { updateSheetProperties: { properties: { sheetId: 0, title: 'Data', gridProperties: { frozenRowCount: 1 } }, fields: 'title,gridProperties.frozenRowCount' } },
          { repeatCell: { range: { sheetId: 0, endRowIndex: 1 }, cell: { userEnteredFormat: { textFormat: { bold: true } } }, fields: 'userEnteredFormat.textFormat.bold' } },
        ],
      },
    })
    expect(updated.data.replies).toEqual([{}, {}])
    const { data } = await sheets.spreadsheets.get({ spreadsheetId: id })
    expect(data.sheets!.map((sheet) => sheet.properties!.title)).toEqual(['Data', 'Archive'])
    expect(data.sheets![0]!.properties!.gridProperties).toEqual({ rowCount: 1000, columnCount: 26, frozenRowCount: 1 })
  })

  it('applies all requests or none', async () => {
    const id = await newSpreadsheet()
    const error = await sheets.spreadsheets
      .batchUpdate({ spreadsheetId: id, requestBody: { requests: [{ addSheet: { properties: { title: 'New' } } }, { addSheet: { properties: { title: 'sheet1' } } }] } })
      .catch((caught) => caught)
    expect(error.status).toBe(400)
    expect(error.response.data.error.message).toBe('Invalid requests[1].addSheet: A sheet with the name "sheet1" already exists. Please enter another name.')
    const { data } = await sheets.spreadsheets.get({ spreadsheetId: id })
    expect(data.sheets).toHaveLength(1)
  })
})

describe('access between users', () => {
  it('answers 404 for unknown ids and 403 for another user’s spreadsheet, with Google’s bodies', async () => {
    const id = await newSpreadsheet('Private')
    const other = t.sheetsFor(await t.authorizedClient('other@mailrow.test'))
    const forbidden = await other.spreadsheets.get({ spreadsheetId: id }).catch((error) => error)
    expect(forbidden.status).toBe(403)
    expect(forbidden.response.data.error).toEqual({
      code: 403,
      message: 'The caller does not have permission',
      errors: [{ message: 'The caller does not have permission', domain: 'global', reason: 'forbidden' }],
      status: 'PERMISSION_DENIED',
    })
    const missing = await other.spreadsheets.values.get({ spreadsheetId: '1doesnotexist', range: 'A1' }).catch((error) => error)
    expect(missing.status).toBe(404)
    expect(missing.response.data.error).toMatchObject({ code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' })
  })

  it('lets a reader read but not write', async () => {
    const id = await newSpreadsheet('Shared')
    await t.control('POST', `/spreadsheets/${id}/permissions`, { email: 'other@mailrow.test', role: 'reader' })
    const other = t.sheetsFor(await t.authorizedClient('other@mailrow.test'))
    expect((await other.spreadsheets.get({ spreadsheetId: id })).data.properties!.title).toBe('Shared')
    const write = await other.spreadsheets.values.append({ spreadsheetId: id, range: 'A1', valueInputOption: 'RAW', requestBody: { values: [['x']] } }).catch((error) => error)
    expect(write.status).toBe(403)
  })
})

describe('control API view of a spreadsheet', () => {
  it('returns every sheet’s formatted values', async () => {
    const id = await newSpreadsheet('Snapshot', ['Data', 'Other'])
    await sheets.spreadsheets.values.append({ spreadsheetId: id, range: 'Data!A1', valueInputOption: 'USER_ENTERED', requestBody: { values: [['n', '=3*3']] } })
    const { status, body } = await t.control('GET', `/spreadsheets/${id}`)
    expect(status).toBe(200)
    expect(body).toMatchObject({ id, title: 'Snapshot', owner: 'demo@mailrow.test' })
    expect(body.sheets.map((sheet: any) => [sheet.title, sheet.values])).toEqual([
      ['Data', [['n', '9']]],
      ['Other', []],
    ])
  })
})
