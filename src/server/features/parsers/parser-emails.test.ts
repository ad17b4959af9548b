import { beforeAll, describe, expect, it } from 'vitest'
import { parsedEmails } from '../../db/schema'
import { deliverOrders, INBOX, orderEmail, pipelineTestDeps, sheetRows, userWithOrderParser } from '../../testing/pipeline-fixtures'
import { type HttpClient, type TestApp } from '../../testing/test-app'
import { deliverMail, useGoogleTestApp, type TestEmulator } from '../../testing/test-emulator'
import { getMonthlyUsage } from '../usage/usage.service'
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

/** The same sender after a redesign: a Status row, and the customer now called 'Buyer'. */
function redesignedOrder(number: number, customer: string, total: string) {
  return {
    from: 'Acme Store <orders@acme.test>',
    subject: `Order #${number} confirmed`,
    html: `<h1>Thanks for your order</h1><table><tr><td>Order number:</td><td>${number}</td></tr><tr><td>Status:</td><td>Shipped</td></tr><tr><td>Buyer:</td><td>${customer}</td></tr><tr><td>Total:</td><td>${total}</td></tr></table><p>Acme Store</p>`,
    labels: ['Orders'],
  }
}

type Setup = Awaited<ReturnType<typeof userWithOrderParser>>

async function parserWithMail(orders = 4): Promise<Setup & { redesigned: string[] }> {
  const setup = await userWithOrderParser(t, google, { email: `pages${++n}@example.com` })
  await deliverOrders(google, 1, orders)
  const redesigned = [
    await deliverMail(google, INBOX, redesignedOrder(2001, 'Mia Chen', '$12.00')),
    await deliverMail(google, INBOX, redesignedOrder(2002, 'Kofi Mensah', '$99.50')),
  ]
  await runMailboxPass(t.db, { userId: setup.userId, deps })
  return { ...setup, redesigned }
}

const emails = (client: HttpClient, parserId: string, query = '') => client.get(`/api/parsers/${parserId}/emails${query}`)

describe("a parser's page", () => {
  it('lists the emails a page at a time, newest first, with a total and counts per status', async () => {
    const { client, parser } = await parserWithMail(6)
    const first = await emails(client, parser.id, '?pageSize=3')
    expect(first.status).toBe(200)
    expect(first.json.total).toBe(8)
    expect(first.json.emails).toHaveLength(3)
    expect(first.json.emails[0].subject).toBe('Order #2002 confirmed')
    expect(first.json.counts).toMatchObject({ all: 8, success: 6, partial: 2, failed: 0 })
    const last = await emails(client, parser.id, '?pageSize=3&page=3')
    expect(last.json.emails.map((e: { subject: string }) => e.subject)).toEqual([orderEmail(2).subject, orderEmail(1).subject])
    const beyond = await emails(client, parser.id, '?pageSize=3&page=9')
    expect(beyond.json).toMatchObject({ emails: [], total: 8, page: 9 })
    expect((await emails(client, parser.id, '?pageSize=500')).status).toBe(400)
  })

  it('filters by status and searches subjects, senders and values; partial rows say why per field', async () => {
    const { client, parser } = await parserWithMail(3)
    const partial = await emails(client, parser.id, '?status=partial')
    expect(partial.json.total).toBe(2)
    const row = partial.json.emails[0]
    expect(row.status).toBe('partial')
    expect(row.values['Order Number']).toBe('2002')
    expect(row.values.Customer).toBeNull()
    expect(row.reasons.Customer).toEqual(expect.any(String))
    expect(row.reasons['Order Number']).toBeNull()

    const byValue = await emails(client, parser.id, `?q=${encodeURIComponent(orderEmail(2).expected.customer)}`)
    expect(byValue.json.emails.map((e: { subject: string }) => e.subject)).toEqual([orderEmail(2).subject])
    expect((await emails(client, parser.id, '?q=%23 2001')).json.total).toBe(0)
    expect((await emails(client, parser.id, '?q=%23 2001 c')).json.total).toBe(0)
    expect((await emails(client, parser.id, '?q=%232001')).json.total).toBe(1)
    expect((await emails(client, parser.id, '?q=%25')).json.total).toBe(0)
    expect((await emails(client, parser.id, '?q=ACME.TEST&status=success')).json.total).toBe(3)
  })

  it("answers 404 for another user's parser and emails", async () => {
    const alice = await parserWithMail(1)
    const bob = await userWithOrderParser(t, google, { email: `pages${++n}@example.com`, inbox: 'other@mailrow.test' })
    const aliceEmail = (await emails(alice.client, alice.parser.id)).json.emails[0].id
    expect((await bob.client.get(`/api/parsers/${alice.parser.id}`)).status).toBe(404)
    expect((await emails(bob.client, alice.parser.id)).status).toBe(404)
    expect((await bob.client.post(`/api/parsers/${alice.parser.id}/reprocess`, { allFailed: true })).status).toBe(404)
    // Bob's own parser with Alice's email id.
    expect((await bob.client.post(`/api/parsers/${bob.parser.id}/reprocess`, { ids: [aliceEmail] })).status).toBe(404)
    expect((await bob.client.get(`/api/parsers/${bob.parser.id}/emails/${aliceEmail}/training`)).status).toBe(404)
    const fields = [{ name: 'Order Number', value: '1001' }]
    expect((await bob.client.post(`/api/parsers/${bob.parser.id}/train`, { emailId: aliceEmail, fields })).status).toBe(404)
    expect((await bob.client.post(`/api/parsers/${bob.parser.id}/train/preview`, { emailId: aliceEmail, fields })).status).toBe(404)
    expect((await emails(bob.client, 'not-a-uuid')).status).toBe(400)
  })
})

describe('reprocessing', () => {
  it('runs chosen emails again without counting an email twice in the month', async () => {
    const { client, parser, userId } = await parserWithMail(3)
    const before = await getMonthlyUsage(t.db, { userId })
    expect(before.used).toBe(5)
    const all = (await emails(client, parser.id)).json.emails as Array<{ id: string; status: string }>
    const chosen = all.slice(0, 3).map((e) => e.id)
    const response = await client.post(`/api/parsers/${parser.id}/reprocess`, { ids: chosen })
    expect(response.status).toBe(200)
    expect(response.json).toEqual({ reprocessed: 3, outcomes: { success: 1, partial: 2, failed: 0, waiting: 0, skipped: 0 } })
    expect((await getMonthlyUsage(t.db, { userId })).used).toBe(5)

    const failedOnly = await client.post(`/api/parsers/${parser.id}/reprocess`, { allFailed: true })
    expect(failedOnly.json).toMatchObject({ reprocessed: 2, outcomes: { partial: 2 } })
    expect((await getMonthlyUsage(t.db, { userId })).used).toBe(5)
  })

  it("reprocesses emails counted this month even when the month's allowance is used up", async () => {
    const { client, parser, userId } = await parserWithMail(1)
    const { used, limit } = await getMonthlyUsage(t.db, { userId })
    // Other mail of the month fills the allowance to the brim.
    await t.db.insert(parsedEmails).values(Array.from({ length: limit - used }, () => ({ userId, status: 'success' as const })))
    expect((await getMonthlyUsage(t.db, { userId })).used).toBe(limit)
    const response = await client.post(`/api/parsers/${parser.id}/reprocess`, { allFailed: true })
    expect(response.json).toEqual({ reprocessed: 2, outcomes: { success: 0, partial: 2, failed: 0, waiting: 0, skipped: 0 } })
    expect((await getMonthlyUsage(t.db, { userId })).used).toBe(limit)
  })
})

describe('Train on this email', () => {
  it('re-learns from every sample so the partial emails come out complete when reprocessed', async () => {
    const { client, parser, redesigned, spreadsheetId } = await parserWithMail(2)
    const partial = (await emails(client, parser.id, '?status=partial')).json.emails as Array<{ id: string; gmailMessageId: string }>
    // Partial emails are written with the missing cell blank.
    const before = await sheetRows(google, spreadsheetId)
    expect(before).toHaveLength(5)
    expect(before.find((r) => r.includes(redesigned[1]!))!.slice(0, 3)).toEqual(['2002', '', '$99.50'])
    const target = partial.find((e) => e.gmailMessageId === redesigned[0])!

    const training = await client.get(`/api/parsers/${parser.id}/emails/${target.id}/training`)
    expect(training.status).toBe(200)
    expect(training.json.email.bodyHtml).toContain('Mia Chen')
    expect(training.json.values).toMatchObject({ 'Order Number': '2001', Customer: null, Total: '$12.00' })

    const fields = [
      { name: 'Order Number', value: '2001' },
      { name: 'Customer', value: 'Mia Chen' },
      { name: 'Total', value: '$12.00' },
    ]
    const preview = await client.post(`/api/parsers/${parser.id}/train/preview`, { emailId: target.id, fields })
    expect(preview.status).toBe(200)
    const other = preview.json.rows.find((r: { messageId: string }) => r.messageId === redesigned[1])
    expect(other).toMatchObject({ status: 'success', fields: { Customer: 'Kofi Mensah' } })
    // The old layout still reads as before.
    expect(preview.json.rows.filter((r: { status: string }) => r.status === 'success')).toHaveLength(3)

    expect((await client.post(`/api/parsers/${parser.id}/train`, { emailId: target.id, fields: [{ name: 'Nope', value: '2001' }] })).status).toBe(400)
    const trained = await client.post(`/api/parsers/${parser.id}/train`, { emailId: target.id, fields })
    expect(trained.status).toBe(200)
    expect(trained.json).toMatchObject({ samples: 2, unmatched: [], incomplete: 2 })

    const reprocessed = await client.post(`/api/parsers/${parser.id}/reprocess`, { allFailed: true })
    expect(reprocessed.json).toEqual({ reprocessed: 2, outcomes: { success: 2, partial: 0, failed: 0, waiting: 0, skipped: 0 } })
    const after = (await emails(client, parser.id, `?q=Kofi`)).json.emails
    expect(after).toHaveLength(1)
    expect(after[0]).toMatchObject({ status: 'success', values: { Customer: 'Kofi Mensah', Total: '$99.50' } })
    // The sheet's rows are corrected where they are: no row is added.
    const after2 = await sheetRows(google, spreadsheetId)
    expect(after2).toHaveLength(5)
    expect(after2.find((r) => r.includes(redesigned[1]!))!.slice(0, 3)).toEqual(['2002', 'Kofi Mensah', '$99.50'])
    expect(after2.find((r) => r.includes(redesigned[0]!))!.slice(0, 3)).toEqual(['2001', 'Mia Chen', '$12.00'])
    expect(after2.slice(0, 3)).toEqual(before.slice(0, 3))
  })
})
