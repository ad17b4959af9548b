import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { parsedEmails, users } from '../../db/schema'
import { STARTER_MESSAGES } from '@shared/contracts/parser-edit'
import { deliverOrders, INBOX, pipelineTestDeps, sheetRows, userWithOrderParser } from '../../testing/pipeline-fixtures'
import { signUpAndIn, type TestApp } from '../../testing/test-app'
import { connectGmail, deliverMail, useGoogleTestApp, type TestEmulator } from '../../testing/test-emulator'
import { runMailboxPass, type PipelineDeps } from '../pipeline/pipeline.service'

// One emulator and one app for the file, the emulator reset before each test.
const app = useGoogleTestApp()
let google: TestEmulator
let t: TestApp
let deps: PipelineDeps
let n = 0

beforeAll(() => {
  ;({ google, t } = app)
  deps = pipelineTestDeps(t)
})

type TypedCell = { type: string; value?: unknown; formula?: string; numberFormat?: { type: string; pattern?: string } } | null
async function sheetCells(spreadsheetId: string): Promise<TypedCell[][]> {
  return (await google.control(`/spreadsheets/${spreadsheetId}?cells=1`)).json.sheets[0].cells
}

/** An invoice with a date, a money total and a customer: the customer text is where hostile text goes. */
function invoice(number: number, customer: string, total: string, date: string, extra = '') {
  return {
    from: 'Billing <billing@acme.test>',
    subject: `Invoice ${number}`,
    html: `<h1>Invoice</h1><table><tr><td>Invoice number:</td><td>${number}</td></tr><tr><td>Customer:</td><td>${customer}</td></tr><tr><td>Date:</td><td>${date}</td></tr><tr><td>Total:</td><td>${total}</td></tr>${extra}</table><p>Acme</p>`,
    labels: ['Billing'],
  }
}

async function invoiceParser(plan: 'free' | 'starter' = 'starter', extra: Record<string, unknown> = {}) {
  const email = `edit${++n}@example.com`
  const client = await signUpAndIn(t, email)
  await t.db.update(users).set({ plan }).where(eq(users.email, email))
  await connectGmail(google, client, { account: INBOX })
  const sampleId = await deliverMail(google, INBOX, invoice(7001, 'Ana López', '$84.88', 'March 5, 2024'))
  const created = await client.post('/api/parsers', {
    name: 'Invoices',
    filters: { filterFrom: 'billing@acme.test', filterSubject: null, filterLabel: null },
    fields: [
      { name: 'Invoice', value: '7001' },
      { name: 'Customer', value: 'Ana López', type: 'text' },
      { name: 'Date', value: 'March 5, 2024', type: 'date' },
      { name: 'Total', value: '$84.88', type: 'money' },
    ],
    sample: { messageId: sampleId },
    parserType: 'template',
    parseAttachments: false,
    destination: { type: 'new' },
    parseHistorical: false,
    ...extra,
  })
  const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email))
  return { client, created, userId: user!.id }
}

describe('typed cells', () => {
  it('writes a money field as a number and a date as a date, each with its format; formula-looking text stays text', async () => {
    // Custom fields put text into the sheet as given: a fixed value and a computed one that start like formulas.
    const { created, userId } = await invoiceParser('starter', {
      customFields: [
        { kind: 'fixed', name: 'Link', value: '=HYPERLINK("http://evil.test","Click")' },
        { kind: 'computed', name: 'Note', expression: '"@SUM(A1:A9) " & Customer' },
      ],
    })
    expect(created.status).toBe(201)
    const spreadsheetId = created.json.parser.destination_config.spreadsheetId
    const hostile = ['=HYPERLINK("http://evil.test","Click")', "+cmd|' /C calc'!A0", '-2+3', '@SUM(A1:A9)']
    for (const [i, customer] of hostile.entries()) await deliverMail(google, INBOX, invoice(7100 + i, customer, '$1,234.50', `March ${10 + i}, 2024`))
    await runMailboxPass(t.db, { userId, deps })

    const cells = await sheetCells(spreadsheetId)
    const values = await sheetRows(google, spreadsheetId)
    expect(values[0]!.slice(0, 4)).toEqual(['Invoice', 'Customer', 'Date', 'Total'])
    const rows = cells.slice(1)
    expect(rows).toHaveLength(4)
    const ledger = await t.db.select({ data: parsedEmails.extractedData, subject: parsedEmails.emailSubject }).from(parsedEmails).where(eq(parsedEmails.userId, userId))
    expect(values[0]!.slice(9)).toEqual(['Link', 'Note'])
    for (const [i, row] of rows.entries()) {
      const extracted = ledger.find((r) => r.subject === `Invoice ${7100 + i}`)!.data!.Customer as string
      expect(hostile[i]).toContain(extracted)
      expect(row[1], 'the customer, as text').toEqual({ type: 'string', value: extracted })
      expect(row[9]).toEqual({ type: 'string', value: '=HYPERLINK("http://evil.test","Click")' })
      expect(row[10]).toEqual({ type: 'string', value: `@SUM(A1:A9) ${extracted}` })
      expect(row[2]).toMatchObject({ type: 'number', value: 45361 + i, numberFormat: { type: 'DATE', pattern: 'yyyy-mm-dd' } })
      expect(row[3]).toMatchObject({ type: 'number', value: 1234.5, numberFormat: { type: 'NUMBER', pattern: '#,##0.00' } })
      expect(values[i + 1]!.slice(2, 4)).toEqual([`2024-03-${10 + i}`, '1,234.50'])
    }
    // No cell anywhere became a formula.
    expect(cells.flat().filter((c) => c?.type === 'formula')).toEqual([])
  })
})

describe('the Starter plan on the server', () => {
  const advanced = { senderDomain: 'acme.test', bodyContains: null, excludeWords: [], hasAttachment: false, gmailQuery: null }

  it('refuses advanced filters and custom fields to a free user, with the upgrade wording', async () => {
    const refused = await invoiceParser('free', { advancedFilters: advanced })
    expect(refused.created.status).toBe(403)
    expect(refused.created.json.error.message).toBe(STARTER_MESSAGES.advancedFilters)
    const customRefused = await invoiceParser('free', { customFields: [{ kind: 'gmail_link', name: 'Link' }] })
    expect(customRefused.created.status).toBe(403)
    expect(customRefused.created.json.error.message).toBe(STARTER_MESSAGES.customFields)

    const { client, created } = await invoiceParser('free')
    expect(created.status).toBe(201)
    const id = created.json.parser.id
    const base = {
      name: 'Invoices',
      filters: { filterFrom: 'billing@acme.test' },
      fields: created.json.parser.extraction_fields.map((f: { name: string; type: string }) => ({ name: f.name, previousName: f.name, type: f.type })),
    }
    const withFilters = await client.put(`/api/parsers/${id}`, { ...base, advancedFilters: { ...advanced, gmailQuery: 'has:attachment' } })
    expect(withFilters.status).toBe(403)
    expect(withFilters.json.error.message).toBe(STARTER_MESSAGES.advancedFilters)
    const withCustom = await client.put(`/api/parsers/${id}`, { ...base, customFields: [{ kind: 'fixed', name: 'Shop', value: 'Acme' }] })
    expect(withCustom.status).toBe(403)
    expect(withCustom.json.error.message).toBe(STARTER_MESSAGES.customFields)
    const preview = await client.post('/api/parsers/preview', { filters: base.filters, advancedFilters: advanced, fields: [{ name: 'Invoice', value: '7001' }], sample: { messageId: 'sample-invoice' } })
    expect(preview.status).toBe(403)
    // Empty advanced filters are no advanced filters; the free plan's own edits go through.
    const plain = await client.put(`/api/parsers/${id}`, { ...base, name: 'Bills', advancedFilters: { excludeWords: [], hasAttachment: false } })
    expect(plain.status).toBe(200)
    expect(plain.json.parser).toMatchObject({ name: 'Bills', advanced_filters: null, custom_fields: [] })
  })

  it("lets a Starter user save them, checks expressions, and answers 404 for another user's parser", async () => {
    const { client, created } = await invoiceParser('starter')
    const id = created.json.parser.id
    const fields = created.json.parser.extraction_fields.map((f: { name: string; type: string }) => ({ name: f.name, previousName: f.name, type: f.type }))
    const bad = await client.put(`/api/parsers/${id}`, { name: 'Invoices', filters: { filterFrom: 'billing@acme.test' }, fields, customFields: [{ kind: 'computed', name: 'Tax', expression: 'Total * Rate' }] })
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('Unknown field: Rate')
    const broken = await client.put(`/api/parsers/${id}`, { name: 'Invoices', filters: { filterFrom: 'billing@acme.test' }, fields, customFields: [{ kind: 'computed', name: 'Tax', expression: 'Total * (' }] })
    expect(broken.status).toBe(400)
    const ok = await client.put(`/api/parsers/${id}`, {
      name: 'Invoices',
      filters: { filterFrom: 'billing@acme.test' },
      advancedFilters: advanced,
      fields,
      customFields: [{ kind: 'computed', name: 'Tax', expression: 'Total * 0.2' }],
    })
    expect(ok.status).toBe(200)
    expect(ok.json.parser.advanced_filters).toMatchObject({ senderDomain: 'acme.test' })

    const other = await invoiceParser('starter')
    const foreign = await other.client.put(`/api/parsers/${id}`, { name: 'Mine', filters: { filterFrom: 'billing@acme.test' }, fields })
    expect(foreign.status).toBe(404)
  })

  it('applies advanced filters in the pipeline: sender domain, excluded words, a Gmail search', async () => {
    const { client, created, userId } = await invoiceParser('starter')
    const id = created.json.parser.id
    const fields = created.json.parser.extraction_fields.map((f: { name: string; type: string }) => ({ name: f.name, previousName: f.name, type: f.type }))
    const saved = await client.put(`/api/parsers/${id}`, {
      name: 'Invoices',
      filters: { filterSubject: 'Invoice' },
      advancedFilters: { senderDomain: 'acme.test', excludeWords: ['cancelled'], gmailQuery: 'label:billing' },
      fields,
    })
    expect(saved.status).toBe(200)
    await deliverMail(google, INBOX, invoice(7201, 'Kept', '$1.00', 'May 1, 2024'))
    await deliverMail(google, INBOX, { ...invoice(7202, 'Other domain', '$1.00', 'May 1, 2024'), from: 'Billing <billing@elsewhere.test>' })
    await deliverMail(google, INBOX, { ...invoice(7203, 'Order cancelled', '$1.00', 'May 1, 2024') })
    await deliverMail(google, INBOX, { ...invoice(7204, 'No label', '$1.00', 'May 1, 2024'), labels: [] })
    await runMailboxPass(t.db, { userId, deps })
    const ledger = await t.db.select({ subject: parsedEmails.emailSubject }).from(parsedEmails).where(eq(parsedEmails.parserId, id))
    expect(ledger.map((r) => r.subject)).toEqual(['Invoice 7201'])
  })
})

describe('editing a parser', () => {
  it('renames, retypes and reorders fields without moving a column; a field added from an email gets a new column at the end that the next email fills', async () => {
    const { client, userId, parser, spreadsheetId } = await userWithOrderParser(t, google, { email: `edit${++n}@example.com`, plan: 'starter' })
    await deliverOrders(google, 1, 1)
    // An order with a tracking number: the one the new field is highlighted in.
    const tracked = (order: number, tracking: string) => ({
      from: 'Acme Store <orders@acme.test>',
      subject: `Order #${order} confirmed`,
      html: `<h1>Thanks for your order</h1><table><tr><td>Order number:</td><td>${order}</td></tr><tr><td>Customer:</td><td>Mia Chen</td></tr><tr><td>Total:</td><td>$12.00</td></tr><tr><td>Tracking:</td><td>${tracking}</td></tr></table><p>Acme Store</p>`,
      labels: ['Orders'],
    })
    await deliverMail(google, INBOX, tracked(3001, 'TRK-1001'))
    await runMailboxPass(t.db, { userId, deps })
    const before = await sheetRows(google, spreadsheetId)
    expect(before).toHaveLength(3)

    // 1. The form: Customer → Buyer, Total typed money, the order of fields changed.
    const edited = await client.put(`/api/parsers/${parser.id}`, {
      name: 'Orders (edited)',
      filters: { filterFrom: 'orders@acme.test' },
      fields: [
        { name: 'Total', previousName: 'Total', type: 'money' },
        { name: 'Order Number', previousName: 'Order Number', type: 'text' },
        { name: 'Buyer', previousName: 'Customer', type: 'text' },
      ],
    })
    expect(edited.status).toBe(200)
    expect(edited.json.parser.extraction_fields.map((f: { name: string }) => f.name)).toEqual(['Total', 'Order Number', 'Buyer'])
    const header1 = (await sheetRows(google, spreadsheetId))[0]
    expect(header1).toEqual(['Order Number', 'Buyer', 'Total', 'Received', 'From', 'Subject', 'Message ID', 'Row Key'])

    // 2. 'Train on this email' with a new field: Tracking.
    const page = await client.get(`/api/parsers/${parser.id}/emails?q=3001`)
    const emailId = page.json.emails[0].id
    const trained = await client.post(`/api/parsers/${parser.id}/train`, {
      emailId,
      fields: [
        { name: 'Order Number', value: '3001' },
        { name: 'Buyer', value: 'Mia Chen' },
        { name: 'Total', value: '$12.00', type: 'money' },
        { name: 'Tracking', value: 'TRK-1001' },
      ],
    })
    expect(trained.status, trained.text).toBe(200)
    expect(trained.json.parser.extraction_fields.map((f: { name: string }) => f.name)).toEqual(['Total', 'Order Number', 'Buyer', 'Tracking'])
    const header2 = (await sheetRows(google, spreadsheetId))[0]
    expect(header2).toEqual(['Order Number', 'Buyer', 'Total', 'Received', 'From', 'Subject', 'Message ID', 'Row Key', 'Tracking'])

    // 3. The next email fills the new column; the rows already there are as they were.
    await deliverMail(google, INBOX, tracked(3002, 'TRK-2002'))
    await runMailboxPass(t.db, { userId, deps })
    const after = await sheetRows(google, spreadsheetId)
    expect(after.slice(1, 3)).toEqual(before.slice(1, 3))
    const last = after[after.length - 1]!
    expect(last[0]).toBe('3002')
    expect(last[1]).toBe('Mia Chen')
    expect(last[7]).toBe(`${parser.id}:${(await t.db.select().from(parsedEmails).where(eq(parsedEmails.emailSubject, 'Order #3002 confirmed')))[0]!.gmailMessageId}`)
    expect(last[8]).toBe('TRK-2002')
    const cells = await sheetCells(spreadsheetId)
    expect(cells[cells.length - 1]![2]).toMatchObject({ type: 'number', value: 12 })

    // 4. Reprocessing a row written before the edit finds it by its key and overwrites it in place.
    const reprocessed = await client.post(`/api/parsers/${parser.id}/reprocess`, { ids: [emailId] })
    expect(reprocessed.status).toBe(200)
    const final = await sheetRows(google, spreadsheetId)
    expect(final).toHaveLength(after.length)
    expect(final[2]![8]).toBe('TRK-1001')
  })

  it('refuses a field that is not the parser\'s in the form (new fields come from highlighting)', async () => {
    const { client, parser } = await userWithOrderParser(t, google, { email: `edit${++n}@example.com` })
    const res = await client.put(`/api/parsers/${parser.id}`, {
      name: 'Orders',
      filters: { filterFrom: 'orders@acme.test' },
      fields: [{ name: 'Tracking', previousName: 'Tracking', type: 'text' }],
    })
    expect(res.status).toBe(400)
    expect(res.json.error.message).toMatch(/Not a field of this parser: Tracking/)
    const clash = await client.put(`/api/parsers/${parser.id}`, {
      name: 'Orders',
      filters: { filterFrom: 'orders@acme.test' },
      fields: [{ name: 'Message ID', previousName: 'Customer', type: 'text' }],
    })
    expect(clash.status).toBe(400)
  })
})
