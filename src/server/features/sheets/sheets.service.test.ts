import { beforeEach, describe, expect, it } from 'vitest'
import { spreadsheetIdFromInput } from '@shared/contracts/sheets'
import { signUpAndIn, type HttpClient } from '../../testing/test-app'
import { connectGmail, useGoogleTestApp } from '../../testing/test-emulator'

const app = useGoogleTestApp()
let client: HttpClient
let n = 0

beforeEach(async () => {
  client = await signUpAndIn(app.t, `sheets${++n}@example.com`)
  await connectGmail(app.google, client)
})

describe('spreadsheetIdFromInput (spec §5)', () => {
  it.each([
    ['https://docs.google.com/spreadsheets/d/1AbC-d_EF/edit#gid=0', '1AbC-d_EF'],
    ['1AbC-d_EF', '1AbC-d_EF'],
    ['  1AbC-d_EF  ', '1AbC-d_EF'],
    ['http://127.0.0.1:4010/sheets/abc123', 'abc123'],
    ['not an id!', null],
  ])('%s → %s', (input, id) => expect(spreadsheetIdFromInput(input)).toBe(id))
})

describe('POST /api/spreadsheets', () => {
  it("creates '<parser> - Data' with a frozen header of the fields and Mailrow's columns", async () => {
    const response = await client.post('/api/spreadsheets', { parserName: 'Orders', fieldNames: ['Order Number', 'Total'] })
    expect(response.status).toBe(201)
    const { spreadsheetId, spreadsheetUrl, title } = response.json.spreadsheet
    expect(title).toBe('Orders - Data')
    expect(spreadsheetUrl).toBe(`${app.google.url}/sheets/${spreadsheetId}`)
    const sheet = (await app.google.control(`/spreadsheets/${spreadsheetId}`)).json
    expect(JSON.stringify(sheet)).toContain('Orders - Data')
    const values = sheet.sheets?.[0]?.values ?? sheet.values?.Sheet1 ?? sheet.sheets?.Sheet1
    expect(values[0]).toEqual(['Order Number', 'Total', 'Received', 'From', 'Subject', 'Message ID', 'Row Key'])

    const viewer = await fetch(spreadsheetUrl)
    expect(viewer.status).toBe(200)
    expect(await viewer.text()).toContain('Order Number')
  })

  it('retries the header write through injected 500 and 429 answers', async () => {
    await app.google.control('/faults', { body: { pathPattern: '/v4/spreadsheets/*/values/**', status: 500, count: 1 } })
    await app.google.control('/faults', { body: { pathPattern: '/v4/spreadsheets/*/values/**', status: 429, count: 1 } })
    const response = await client.post('/api/spreadsheets', { parserName: 'Retry', fieldNames: ['X'] })
    expect(response.status).toBe(201)
    expect((await app.google.control('/faults')).json.faults).toEqual([])
    const sheet = (await app.google.control(`/spreadsheets/${response.json.spreadsheet.spreadsheetId}`)).json
    expect(JSON.stringify(sheet)).toContain('"Message ID"')
  })

  it('needs a name and at least one field', async () => {
    const response = await client.post('/api/spreadsheets', { parserName: ' ', fieldNames: [] })
    expect(response.status).toBe(400)
  })
})

describe('POST /api/spreadsheets/validate', () => {
  it('accepts a spreadsheet the account can edit, by URL or ID', async () => {
    const created = (await client.post('/api/spreadsheets', { parserName: 'Leads', fieldNames: ['Name'] })).json.spreadsheet
    for (const input of [created.spreadsheetId, `https://docs.google.com/spreadsheets/d/${created.spreadsheetId}/edit`]) {
      const response = await client.post('/api/spreadsheets/validate', { spreadsheet: input })
      expect(response.status).toBe(200)
      expect(response.json.spreadsheet).toMatchObject({ spreadsheetId: created.spreadsheetId, title: 'Leads - Data' })
    }
  })

  it('says clearly when the spreadsheet does not exist', async () => {
    const response = await client.post('/api/spreadsheets/validate', { spreadsheet: 'doesNotExist123' })
    expect(response.status).toBe(404)
    expect(response.json.error.message).toMatch(/^Spreadsheet not found/)
  })

  it("refuses another Google user's spreadsheet, and one shared read-only", async () => {
    const mine = (await client.post('/api/spreadsheets', { parserName: 'Mine', fieldNames: ['A'] })).json.spreadsheet
    const other = await signUpAndIn(app.t, `sheets-other${n}@example.com`)
    await connectGmail(app.google, other, { account: 'other@mailrow.test' })
    const denied = await other.post('/api/spreadsheets/validate', { spreadsheet: mine.spreadsheetId })
    expect([403, 404]).toContain(denied.status)

    await app.google.control(`/spreadsheets/${mine.spreadsheetId}/permissions`, { body: { email: 'other@mailrow.test', role: 'reader' } })
    const readOnly = await other.post('/api/spreadsheets/validate', { spreadsheet: mine.spreadsheetId })
    expect(readOnly.status).toBe(403)
    expect(readOnly.json.error.message).toMatch(/cannot edit this spreadsheet/)
  })

  it('rejects input that is no ID at all', async () => {
    const response = await client.post('/api/spreadsheets/validate', { spreadsheet: 'not an id!' })
    expect(response.status).toBe(400)
  })
})
