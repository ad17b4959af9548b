import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { PLAN_MESSAGES, SAMPLE_EMAIL_ID } from '@shared/contracts/parsers'
import { parsedEmails, users } from '../../db/schema'
import { itemOrderEmail, itemOrderFields } from '../../testing/pipeline-fixtures'
import { createTestApp, signUpAndIn, type HttpClient, type TestApp } from '../../testing/test-app'
import { connectGmail, deliverMail, startTestEmulator, type TestEmulator } from '../../testing/test-emulator'

let google: TestEmulator
let t: TestApp
let client: HttpClient
let email: string
let n = 0
const INBOX = 'demo@mailrow.test'

const order = (number: number, total: string, customer: string) => ({
  from: 'Acme Store <orders@acme.test>',
  subject: `Order #${number} confirmed`,
  html: `<h1>Thanks for your order</h1><table><tr><td>Order number:</td><td>${number}</td></tr><tr><td>Customer:</td><td>${customer}</td></tr><tr><td>Total:</td><td>${total}</td></tr></table><p>Acme Store</p>`,
  labels: ['Orders'],
})

const fields = [
  { name: 'Order Number', value: '1001' },
  { name: 'Customer', value: 'Ana López' },
  { name: 'Total', value: '$25.00' },
]
const filters = { filterFrom: 'orders@acme.test', filterSubject: null, filterLabel: null }
let sampleId: string
const ids: string[] = []

beforeAll(async () => {
  google = await startTestEmulator()
  t = await createTestApp({ emulatorUrl: google.url })
})
afterAll(async () => {
  await t.close()
  await google.close()
})
beforeEach(async () => {
  await google.control('/reset', { body: {} })
  email = `parsers${++n}@example.com`
  client = await signUpAndIn(t, email)
  await connectGmail(google, client)
  sampleId = await deliverMail(google, INBOX, { ...order(1001, '$25.00', 'Ana López'), date: new Date('2026-11-01T10:00:00Z') })
  ids.length = 0
  ids.push(await deliverMail(google, INBOX, { ...order(1002, '$1,234.50', "Seán O'Brien"), date: new Date('2026-11-02T10:00:00Z') }))
  ids.push(await deliverMail(google, INBOX, { ...order(98765, '$5.00', 'Zoë Kim'), date: new Date('2026-11-03T10:00:00Z') }))
})

const setPlan = (plan: 'free' | 'starter' | 'pro') => t.db.update(users).set({ plan }).where(eq(users.email, email))
const input = (overrides: Record<string, unknown> = {}) => ({
  name: 'Acme orders',
  filters,
  fields,
  sample: { messageId: sampleId },
  parserType: 'template',
  parseAttachments: false,
  destination: { type: 'new' },
  parseHistorical: false,
  ...overrides,
})

async function sheetValues(spreadsheetId: string): Promise<string[][]> {
  const sheet = (await google.control(`/spreadsheets/${spreadsheetId}`)).json
  return sheet.sheets?.[0]?.values ?? []
}

describe('POST /api/parsers', () => {
  it('trains from the sample, creates "<name> - Data" and saves the parser with the spec fields', async () => {
    const response = await client.post('/api/parsers', input())
    expect(response.status).toBe(201)
    const { parser, spreadsheetUrl, createdSpreadsheet } = response.json
    expect(createdSpreadsheet).toBe(true)
    expect(parser).toMatchObject({
      name: 'Acme orders',
      active: true,
      filter_from: 'orders@acme.test',
      filter_subject: null,
      filter_label: null,
      extraction_fields: fields,
      destination_type: 'google_sheets',
      parser_type: 'template',
      parse_attachments: false,
      row_mode: 'per_email',
      destination_config: { type: 'new', spreadsheetName: 'Acme orders - Data', parseHistorical: false, spreadsheetUrl },
    })
    expect((await sheetValues(parser.destination_config.spreadsheetId))[0]).toEqual(['Order Number', 'Customer', 'Total', 'Received', 'From', 'Subject', 'Message ID', 'Row Key'])
    const dashboard = (await client.get('/api/dashboard')).json.dashboard
    expect(dashboard.stats.activeParsers).toBe(1)
    expect(dashboard.parsers[0].name).toBe('Acme orders')
  })

  it('uses an existing spreadsheet after checking it', async () => {
    const existing = (await client.post('/api/spreadsheets', { parserName: 'Old', fieldNames: ['A'] })).json.spreadsheet
    const response = await client.post('/api/parsers', input({ destination: { type: 'existing', spreadsheet: `https://docs.google.com/spreadsheets/d/${existing.spreadsheetId}/edit` } }))
    expect(response.status).toBe(201)
    expect(response.json.createdSpreadsheet).toBe(false)
    expect(response.json.parser.destination_config).toMatchObject({ type: 'existing', spreadsheetId: existing.spreadsheetId })
    const missing = await client.post('/api/parsers', input({ destination: { type: 'existing', spreadsheet: 'nope123' } }))
    expect(missing.status).toBe(404)
  })

  it('enforces the plan on the server whatever the client sends', async () => {
    expect((await client.post('/api/parsers', input({ parserType: 'smart_ai' }))).json.error.message).toBe(PLAN_MESSAGES.smartAi)
    expect((await client.post('/api/parsers', input({ parseHistorical: true }))).json.error.message).toBe(PLAN_MESSAGES.historical)
    await setPlan('starter')
    expect((await client.post('/api/parsers', input({ parserType: 'full_ai' }))).json.error.message).toBe(PLAN_MESSAGES.fullAi)
    expect((await client.post('/api/parsers', input({ parserType: 'smart_ai', parseHistorical: true }))).status).toBe(201)
    await setPlan('pro')
    const pro = await client.post('/api/parsers', input({ parserType: 'full_ai', parseAttachments: true }))
    expect(pro.status).toBe(201)
    expect(pro.json.parser.parse_attachments).toBe(true)
    const template = await client.post('/api/parsers', input({ parserType: 'template', parseAttachments: true }))
    expect(template.json.parser.parse_attachments).toBe(false)
  })

  it('validates filters, fields and name with the wizard schemas', async () => {
    expect((await client.post('/api/parsers', input({ name: '  ' }))).json.error.message).toBe('name: Please enter a name for your parser.')
    expect((await client.post('/api/parsers', input({ fields: [] }))).json.error.message).toBe('fields: Please select at least one field to extract from emails.')
    expect((await client.post('/api/parsers', input({ filters: { filterFrom: '', filterSubject: '', filterLabel: '' } }))).status).toBe(400)
  })

  it('can train on the built-in sample invoice', async () => {
    const response = await client.post('/api/parsers', input({ sample: { messageId: SAMPLE_EMAIL_ID }, fields: [{ name: 'Amount', value: '$958.50' }] }))
    expect(response.status).toBe(201)
  })
})

describe('one row per item', () => {
  const itemInput = async (overrides: Record<string, unknown> = {}) => {
    const { expected: _, ...sample } = itemOrderEmail(0, 2)
    return input({ fields: itemOrderFields(), sample: { messageId: await deliverMail(google, INBOX, sample) }, ...overrides })
  }

  it('is stored when asked for and the fields include line items, with an Item # column last', async () => {
    const response = await client.post('/api/parsers', await itemInput({ rowMode: 'per_item' }))
    expect(response.status).toBe(201)
    expect(response.json.parser.row_mode).toBe('per_item')
    expect((await sheetValues(response.json.parser.destination_config.spreadsheetId))[0]).toEqual([
      'Order Number', 'Item', 'Price', 'Received', 'From', 'Subject', 'Message ID', 'Item #', 'Row Key',
    ])
    // Left out, it is one row per email, as for every parser before the choice existed.
    expect((await client.post('/api/parsers', await itemInput())).json.parser.row_mode).toBe('per_email')
    expect((await client.post('/api/parsers', await itemInput({ rowMode: 'per_line' }))).status).toBe(400)
  })

  it('falls back to one row per email when no trained field is a line item', async () => {
    const response = await client.post('/api/parsers', input({ rowMode: 'per_item' }))
    expect(response.status).toBe(201)
    expect(response.json.parser.row_mode).toBe('per_email')
    expect((await sheetValues(response.json.parser.destination_config.spreadsheetId))[0]).toHaveLength(8)
  })

  it('keeps the plan rules and who may see a parser as they were', async () => {
    expect((await client.post('/api/parsers', await itemInput({ rowMode: 'per_item', parserType: 'smart_ai' }))).json.error.message).toBe(PLAN_MESSAGES.smartAi)
    const { parser } = (await client.post('/api/parsers', await itemInput({ rowMode: 'per_item' }))).json
    const stranger = await signUpAndIn(t, `stranger-items${n}@example.com`)
    expect((await stranger.post(`/api/parsers/${parser.id}/test`, { emailId: ids[0] })).status).toBeGreaterThanOrEqual(400)
    expect((await stranger.send('PATCH', `/api/parsers/${parser.id}`, { active: false })).status).toBe(404)
  })

  it('Test Parser writes one row per item, once', async () => {
    const { parser } = (await client.post('/api/parsers', await itemInput({ rowMode: 'per_item' }))).json
    const { expected, ...mail } = itemOrderEmail(7, 3)
    const id = await deliverMail(google, INBOX, mail)
    const first = (await client.post(`/api/parsers/${parser.id}/test`, { emailId: id })).json.result
    expect(first).toMatchObject({ success: true, written_to_sheets: true })
    expect(first.extracted_data.Item).toBe(expected.items.map((item) => item.name).join('\n'))
    await client.post(`/api/parsers/${parser.id}/test`, { emailId: id })
    const rows = (await sheetValues(parser.destination_config.spreadsheetId)).slice(1)
    expect(rows.map((r) => [r[0], r[1], r[2], r[6], r[7]])).toEqual(expected.items.map((item, i) => [expected.order, item.name, item.price, id, String(i + 1)]))
  })
})

describe('POST /api/parsers/preview', () => {
  it('names the line-item fields and shows each email\'s items, and why a field was not found', async () => {
    const { expected: _, ...sample } = itemOrderEmail(0, 2)
    const sampleItems = await deliverMail(google, INBOX, sample)
    const { expected: five, ...fiveItems } = itemOrderEmail(3, 5)
    const fiveId = await deliverMail(google, INBOX, fiveItems)
    const response = await client.post('/api/parsers/preview', { filters, fields: itemOrderFields(), sample: { messageId: sampleItems } })
    expect(response.status).toBe(200)
    expect(response.json.lineItemFields).toEqual(['Item', 'Price'])
    const row = response.json.rows.find((r: { messageId: string }) => r.messageId === fiveId)
    expect(row.details['Order Number']).toEqual({ value: five.order, reason: null })
    expect(row.items).toEqual(five.items.map((item) => ({ Item: item.name, Price: item.price })))
    // The plain orders have no item table: the item fields are empty, with a reason or none.
    const plain = response.json.rows.find((r: { messageId: string }) => r.messageId === ids[0])
    expect(plain.details.Item.value).toBeNull()
    expect(plain.details.Item).toHaveProperty('reason')
  })

  it('shows what the template extracts from the other matching emails', async () => {
    const response = await client.post('/api/parsers/preview', { filters, fields, sample: { messageId: sampleId } })
    expect(response.status).toBe(200)
    const rows = response.json.rows
    expect(rows.map((r: { messageId: string }) => r.messageId).sort()).toEqual([...ids].sort())
    const byNumber = Object.fromEntries(rows.map((r: { fields: Record<string, string> }) => [r.fields['Order Number'], r]))
    expect(byNumber['1002']).toMatchObject({ status: 'success', fields: { Customer: "Seán O'Brien", Total: '$1,234.50' } })
    expect(byNumber['98765']).toMatchObject({ status: 'success', fields: { Customer: 'Zoë Kim', Total: '$5.00' } })
    expect(byNumber['1002'].details.Total).toEqual({ value: '$1,234.50', reason: null })
    expect(response.json.lineItemFields).toEqual([])
    expect(byNumber['1002'].items).toBeNull()
  })
})

describe('testing, pausing and deleting a parser', () => {
  it('a test writes the row once, records it, and the dashboard shows it', async () => {
    const { parser } = (await client.post('/api/parsers', input())).json
    const first = await client.post(`/api/parsers/${parser.id}/test`, { emailId: ids[0] })
    expect(first.status).toBe(200)
    expect(first.json.result).toMatchObject({
      success: true,
      error: null,
      extracted_data: { 'Order Number': '1002', Customer: "Seán O'Brien", Total: '$1,234.50' },
      extraction_method: 'template',
      written_to_sheets: true,
    })
    const again = await client.post(`/api/parsers/${parser.id}/test`, { emailId: ids[0] })
    expect(again.json.result.written_to_sheets).toBe(true)
    const values = await sheetValues(parser.destination_config.spreadsheetId)
    expect(values).toHaveLength(2)
    expect(values[1]).toEqual(['1002', "Seán O'Brien", '$1,234.50', '2026-11-02T10:00:00.000Z', 'Acme Store <orders@acme.test>', 'Order #1002 confirmed', ids[0], `${parser.id}:${ids[0]}`])
    expect(values[1]![6]).toBe(ids[0])

    const dashboard = (await client.get('/api/dashboard')).json.dashboard
    expect(dashboard.stats).toMatchObject({ emailsParsed: 1, successRate: 100 })
    const detail = await client.get(`/api/parsed-emails/${dashboard.recentEmails[0].id}`)
    expect(detail.json.email).toMatchObject({ status: 'success', parserName: 'Acme orders', gmailMessageId: ids[0], writtenToSheets: true, extractionMethod: 'template' })
  })

  it('a test on an email of another template fails with the reason', async () => {
    const { parser } = (await client.post('/api/parsers', input())).json
    const other = await deliverMail(google, INBOX, { from: 'news@blog.test', subject: 'Hello', text: 'Nothing to see' })
    const result = (await client.post(`/api/parsers/${parser.id}/test`, { emailId: other })).json.result
    expect(result.success).toBe(false)
    expect(result.error).toBeTruthy()
    expect(result.written_to_sheets).toBe(false)
    expect((await client.post(`/api/parsers/${parser.id}/test`, { emailId: '00000000deadbeef' })).status).toBe(404)
    expect((await client.post(`/api/parsers/${parser.id}/test`, { emailId: 'does-not-exist' })).status).toBe(400)
    expect((await client.post(`/api/parsers/${parser.id}/test`, { emailId: '  ' })).json.error.message).toBe('emailId: Please enter a Gmail message ID')
  })

  it('pauses, resumes and deletes, and nobody else can', async () => {
    const { parser } = (await client.post('/api/parsers', input())).json
    const stranger = await signUpAndIn(t, `stranger${n}@example.com`)
    expect((await stranger.send('PATCH', `/api/parsers/${parser.id}`, { active: false })).status).toBe(404)
    expect((await stranger.send('DELETE', `/api/parsers/${parser.id}`)).status).toBe(404)
    expect((await stranger.post(`/api/parsers/${parser.id}/test`, { emailId: ids[0] })).status).toBeGreaterThanOrEqual(400)
    expect((await stranger.get('/api/parsers')).json.parsers).toEqual([])

    expect((await client.send('PATCH', `/api/parsers/${parser.id}`, { active: false })).json.parser.active).toBe(false)
    expect((await client.get('/api/dashboard')).json.dashboard.stats.activeParsers).toBe(0)
    expect((await client.send('PATCH', `/api/parsers/${parser.id}`, { active: true })).json.parser.active).toBe(true)
    expect((await client.send('DELETE', `/api/parsers/${parser.id}`)).status).toBe(204)
    expect((await client.get('/api/parsers')).json.parsers).toEqual([])
    expect((await client.send('DELETE', `/api/parsers/not-a-uuid`)).status).toBe(400)
  })

  it("recent emails for the test dialog follow the parser's filters", async () => {
    const { parser } = (await client.post('/api/parsers', input())).json
    const emails = (await client.get(`/api/parsers/${parser.id}/recent-emails`)).json.emails
    expect(emails.map((e: { id: string }) => e.id)).toEqual([ids[1], ids[0], sampleId])
  })
})

describe('layout changed', () => {
  it('says so when the latest emails came back incomplete after successes, and lists them', async () => {
    const parser = (await client.post('/api/parsers', input())).json.parser
    const userId = (await t.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 10, minutes))
    const row = (minutes: number, status: 'success' | 'partial' | 'failed', subject: string) => ({
      userId,
      parserId: parser.id,
      gmailMessageId: `m${minutes}`,
      emailSubject: subject,
      status,
      error: status === 'success' ? null : 'not found: Total (label "total" not found)',
      processedAt: at(minutes),
    })
    await t.db.insert(parsedEmails).values([row(1, 'success', 'Order #1'), row(2, 'success', 'Order #2'), row(3, 'partial', 'Order #3'), row(4, 'partial', 'Order #4')])
    const view = async () => ((await client.get('/api/dashboard')).json.dashboard.parsers as Array<{ id: string; layout_changed: unknown }>).find((p) => p.id === parser.id)!
    // Two incomplete emails are not yet a pattern.
    expect((await view()).layout_changed).toBeNull()
    await t.db.insert(parsedEmails).values(row(5, 'failed', 'Order #5'))
    const changed = (await view()).layout_changed as Array<{ subject: string; error: string }>
    expect(changed.map((e) => e.subject)).toEqual(['Order #5', 'Order #4', 'Order #3'])
    expect(changed[0]!.error).toContain('Total')
    // A success again (the sender went back, or the parser was fixed) ends it.
    await t.db.insert(parsedEmails).values(row(6, 'success', 'Order #6'))
    expect((await view()).layout_changed).toBeNull()
  })
})
