import ExcelJS from 'exceljs'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parsedEmails, type ParsedEmailStatus } from '../../db/schema'
import { userWithOrderParser } from '../../testing/pipeline-fixtures'
import { createTestApp, type HttpClient, type TestApp } from '../../testing/test-app'
import { startTestEmulator, type TestEmulator } from '../../testing/test-emulator'
import { findParserById } from '../parsers/parsers.queries'
import { csvChunks, csvField } from './exports.service'

let google: TestEmulator
let t: TestApp
let n = 0

beforeAll(async () => {
  google = await startTestEmulator()
  t = await createTestApp({ emulatorUrl: google.url })
})
afterAll(async () => {
  await t.close()
  await google.close()
})

type Row = { subject: string; status?: ParsedEmailStatus; values: Record<string, string | null>; at: string; error?: string | null }

/** Ledger rows as the pipeline leaves them; `at` is a PostgreSQL timestamp literal (microseconds kept). */
async function addRows(userId: string, parserId: string, rows: Row[]) {
  for (const [i, row] of rows.entries()) {
    await t.db.insert(parsedEmails).values({
      userId,
      parserId,
      gmailMessageId: `${(0xe000 + ++n * 64 + i).toString(16)}`,
      emailSubject: row.subject,
      emailFrom: 'Acme Store <orders@acme.test>',
      receivedAt: sql`${row.at}::timestamptz`,
      status: row.status ?? 'success',
      extractedData: row.values,
      error: row.error ?? null,
    })
  }
}

async function setup() {
  const s = await userWithOrderParser(t, google, { email: `export${++n}@example.com` })
  return s
}

/** The response as bytes, with the signed-in client's cookies. */
async function download(client: HttpClient, path: string) {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  const response = await t.app.request(path, { headers: { cookie } })
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) }
}

/** An RFC 4180 reader (quoted fields, doubled quotes, CRLF records), strict enough to catch bad quoting. */
function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let i = 0
  while (i < text.length) {
    if (text[i] === '"' && field === '') {
      i++
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field')
        if (text[i] === '"' && text[i + 1] === '"') {
          field += '"'
          i += 2
        } else if (text[i] === '"') {
          i++
          break
        } else field += text[i++]
      }
      if (i < text.length && text[i] !== ',' && text[i] !== '\r') throw new Error(`text after a closing quote at ${i}`)
    } else if (text[i] === ',') {
      record.push(field)
      field = ''
      i++
    } else if (text[i] === '\r' && text[i + 1] === '\n') {
      record.push(field)
      records.push(record)
      record = []
      field = ''
      i += 2
    } else if (text[i] === '"' || text[i] === '\n' || text[i] === '\r') {
      throw new Error(`bare ${JSON.stringify(text[i])} in an unquoted field at ${i}`)
    } else field += text[i++]
  }
  if (field !== '' || record.length > 0) throw new Error('last record not ended with CRLF')
  return records
}

const HOSTILE = [
  '=HYPERLINK("http://evil.test","Click")',
  '+cmd|" /C calc"!A0',
  '-2+3',
  '@SUM(A1:A2)',
  '\t=1+1',
  '\r=1+1',
  'Kids\' T-Shirt, Size 8',
  'two\r\nlines',
  'He said "hi"',
  'Zoë Kim — 東京',
]

describe('exporting a parser', () => {
  it("answers 404 for another user's parser and for an unknown one, 401 signed out, 400 for a bad format", async () => {
    const owner = await setup()
    const other = await setup()
    await addRows(owner.userId, owner.parser.id, [{ subject: 'Secret order', values: { 'Order Number': '1' }, at: '2026-03-01 10:00:00+00' }])

    const stolen = await other.client.get(`/api/parsers/${owner.parser.id}/export?format=csv`)
    expect(stolen.status).toBe(404)
    expect(stolen.json).toEqual({ error: { code: 'NOT_FOUND', message: 'Parser not found' } })
    expect(stolen.text).not.toContain('Secret order')
    expect((await other.client.get(`/api/parsers/${owner.parser.id}/export?format=xlsx`)).status).toBe(404)
    expect((await owner.client.get('/api/parsers/00000000-0000-4000-8000-000000000000/export?format=csv')).status).toBe(404)
    expect((await t.app.request(`/api/parsers/${owner.parser.id}/export?format=csv`)).status).toBe(401)
    const bad = await owner.client.get(`/api/parsers/${owner.parser.id}/export?format=pdf`)
    expect(bad.status).toBe(400)
    expect(bad.json.error.code).toBe('VALIDATION')
    // The owner's own export holds the row; the other user's export of their own parser does not.
    expect((await owner.client.get(`/api/parsers/${owner.parser.id}/export?format=csv`)).text).toContain('Secret order')
    expect((await other.client.get(`/api/parsers/${other.parser.id}/export?format=csv`)).text).not.toContain('Secret order')
  })

  it('writes a spreadsheet-safe, RFC 4180 CSV in UTF-8 with a byte-order mark', async () => {
    const { client, userId, parser } = await setup()
    await addRows(userId, parser.id, [{ subject: '=cmd|"/c calc"!A1', values: { 'Order Number': HOSTILE[0]!, Customer: HOSTILE[1]!, Total: HOSTILE[2]! }, at: '2026-03-01 10:00:00+00', status: 'partial', error: '@error' }])
    await addRows(userId, parser.id, HOSTILE.map((value, i) => ({ subject: `Order ${i}`, values: { 'Order Number': String(i), Customer: value, Total: null }, at: `2026-02-01 10:00:0${i}+00` })))

    const file = await download(client, `/api/parsers/${parser.id}/export?format=csv`)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="Orders \d{4}-\d{2}-\d{2}\.csv"/)
    expect([...file.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const records = parseCsv(file.bytes.toString('utf8').slice(1))
    expect(records[0]).toEqual(['Received', 'From', 'Subject', 'Status', 'Order Number', 'Customer', 'Total', 'Error'])
    expect(records[1]).toEqual(['2026-03-01T10:00:00.000Z', 'Acme Store <orders@acme.test>', `'=cmd|"/c calc"!A1`, 'Partial', `'${HOSTILE[0]}`, `'${HOSTILE[1]}`, `'${HOSTILE[2]}`, "'@error"])
    // Newest first: Order 9 … Order 0; every formula-looking value starts with an apostrophe, the rest is unchanged.
    const customers = records.slice(2).map((r) => r[5])
    expect(customers).toEqual([
      'Zoë Kim — 東京',
      'He said "hi"',
      'two\r\nlines',
      "Kids' T-Shirt, Size 8",
      "'\r=1+1",
      "'\t=1+1",
      "'@SUM(A1:A2)",
      "'-2+3",
      `'+cmd|" /C calc"!A0`,
      `'=HYPERLINK("http://evil.test","Click")`,
    ])
    expect(records.slice(2).map((r) => r[6])).toEqual(Array(10).fill(''))
  })

  it('quotes and guards one field at a time', () => {
    expect(csvField('plain')).toBe('plain')
    expect(csvField(null)).toBe('')
    expect(csvField('=1+1')).toBe("'=1+1")
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('=A1,"x"')).toBe(`"'=A1,""x"""`)
    expect(csvField('12.50')).toBe('12.50')
    expect(csvField(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000Z')
  })

  it('streams every row once over many pages (rows a microsecond apart, rows with the same time), newest first', async () => {
    const { client, userId, parser } = await setup()
    // Microseconds apart: a cursor cut to milliseconds would skip or repeat these at a page edge.
    const rows: Row[] = Array.from({ length: 11 }, (_, i) => ({ subject: `Order ${i}`, values: { 'Order Number': String(i) }, at: `2026-04-01 12:00:00.0000${i % 4}+00` }))
    await addRows(userId, parser.id, rows)

    const stored = (await findParserById(t.db, userId, parser.id))!
    const chunks: string[] = []
    for await (const chunk of csvChunks(t.db, { userId, parser: stored, q: '', status: 'all', pageSize: 3 })) chunks.push(chunk)
    // The header, then one chunk per page of 3: written as it goes, never built whole.
    expect(chunks).toHaveLength(1 + 4)
    expect(chunks.slice(1).map((c) => parseCsv(c).length)).toEqual([3, 3, 3, 2])
    const numbers = chunks.slice(1).flatMap((c) => parseCsv(c).map((r) => r[4]))
    expect([...numbers].sort((a, b) => Number(a) - Number(b))).toEqual(rows.map((_, i) => String(i)))
    const times = chunks.slice(1).flatMap((c) => parseCsv(c).map((r) => rows[Number(r[4])]!.at))
    expect(times).toEqual([...times].sort().reverse())

    // Over HTTP with the real page size, the same rows.
    const csv = parseCsv((await download(client, `/api/parsers/${parser.id}/export?format=csv`)).bytes.toString('utf8').slice(1))
    expect(csv.slice(1).map((r) => r[4]).sort()).toEqual([...numbers].sort())
  })

  it('exports the filtered view: the same search and status filter as the page', async () => {
    const { client, userId, parser } = await setup()
    await addRows(userId, parser.id, [
      { subject: 'Order 1', values: { 'Order Number': '1', Customer: 'Ana López' }, at: '2026-05-01 10:00:00+00' },
      { subject: 'Order 2', values: { 'Order Number': '2', Customer: null }, at: '2026-05-02 10:00:00+00', status: 'partial' },
      { subject: 'Order 3', values: { 'Order Number': '3', Customer: 'Li Wei' }, at: '2026-05-03 10:00:00+00', status: 'partial' },
      { subject: 'Order 4', values: {}, at: '2026-05-04 10:00:00+00', status: 'failed', error: 'No field was found' },
    ])
    const subjects = async (query: string) => parseCsv((await download(client, `/api/parsers/${parser.id}/export?format=csv${query}`)).bytes.toString('utf8').slice(1)).slice(1).map((r) => r[2])
    expect(await subjects('')).toEqual(['Order 4', 'Order 3', 'Order 2', 'Order 1'])
    expect(await subjects('&status=partial')).toEqual(['Order 3', 'Order 2'])
    expect(await subjects('&q=li%20wei')).toEqual(['Order 3'])
    expect(await subjects('&status=success&q=wei')).toEqual([])
  })

  it('writes an XLSX whose cells hold the values as text (formulas stay text) and the received time as a date', async () => {
    const { client, userId, parser } = await setup()
    await addRows(userId, parser.id, [
      { subject: 'Order 1', values: { 'Order Number': '1', Customer: HOSTILE[0]!, Total: '$84.88' }, at: '2026-06-01 09:30:00+00' },
      { subject: 'Order 2', values: { 'Order Number': '2', Customer: 'bell\u0007 ok', Total: null }, at: '2026-06-02 09:30:00+00', status: 'partial', error: 'Total (label "total" not found)' },
    ])
    const file = await download(client, `/api/parsers/${parser.id}/export?format=xlsx&status=all`)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(file.headers.get('content-disposition')).toMatch(/filename="Orders \d{4}-\d{2}-\d{2}\.xlsx"/)

    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(file.bytes as unknown as ArrayBuffer)
    const sheet = workbook.worksheets[0]!
    expect(sheet.name).toBe('Orders')
    expect(sheet.rowCount).toBe(3)
    const row = (i: number) => (sheet.getRow(i).values as unknown[]).slice(1)
    expect(row(1)).toEqual(['Received', 'From', 'Subject', 'Status', 'Order Number', 'Customer', 'Total', 'Error'])
    expect(row(2)).toEqual([new Date('2026-06-02T09:30:00Z'), 'Acme Store <orders@acme.test>', 'Order 2', 'Partial', '2', 'bell ok', undefined, 'Total (label "total" not found)'])
    expect(row(3)).toEqual([new Date('2026-06-01T09:30:00Z'), 'Acme Store <orders@acme.test>', 'Order 1', 'Success', '1', HOSTILE[0], '$84.88'])
    expect(sheet.getCell('F3').type).toBe(ExcelJS.ValueType.String)
    expect(sheet.getCell('A2').type).toBe(ExcelJS.ValueType.Date)
  })
})
