import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { TEMPLATE_VERSION } from '@engine/template/schema'
import { startWorker } from '@worker/worker'
import { pipelineDepsOf } from '../../bootstrap'
import { connectedAccounts, parsedEmails, parsers, users } from '../../db/schema'
import { createLogger } from '../../lib/logger'
import { deliverItemOrders, deliverOrders, eventually, expectFaultsFired, INBOX, injectFault, ORDER_FIELDS, orderEmail, sheetRows, userWithOrderParser } from '../../testing/pipeline-fixtures'
import { createTestApp, type TestApp } from '../../testing/test-app'
import { deliverMail, startTestEmulator, type TestEmulator } from '../../testing/test-emulator'
import { runMailboxPass, type PipelineDeps } from './pipeline.service'

let google: TestEmulator
let t: TestApp
let deps: PipelineDeps
let n = 0
let skewMs = 0

beforeAll(async () => {
  google = await startTestEmulator()
  t = await createTestApp({ emulatorUrl: google.url })
  // These faults answer at once, so an unanswered append is looked for at the next attempt; stalls
  // that outlive the client's timeout (and Sheets' deadline) are sheet-writer.service.test.ts's.
  // Each drained pass runs a minute after the last as far as the sync's backoff is concerned.
  deps = { ...pipelineDepsOf(t.deps)!, write: { sleep: async () => {}, ambiguousDeadlineMs: 0 }, sync: { now: () => new Date(Date.now() + skewMs) } }
})
afterAll(async () => {
  await t.close()
  await google.close()
})
beforeEach(async () => {
  await google.control('/reset', { body: {} })
})

const nextEmail = () => `pipeline${++n}@example.com`

/** The ledger has no open work and no download waits in the mailbox's backlog. */
async function isSettled(userId: string) {
  const open = await t.db.select().from(parsedEmails).where(eq(parsedEmails.userId, userId))
  const [account] = await t.db.select().from(connectedAccounts).where(eq(connectedAccounts.userId, userId))
  return (account?.syncBacklog.length ?? 0) === 0 && open.every((r) => !['pending', 'processing'].includes(r.status) && !['queued', 'writing'].includes(r.sheetState))
}

/** Runs passes until the ledger has no open work, as the worker's retries would. */
async function drain(userId: string, maxPasses = 30, passDeps = deps) {
  for (let pass = 0; pass < maxPasses; pass++) {
    skewMs += 60_000
    try {
      await runMailboxPass(t.db, { userId, deps: passDeps })
    } catch {
      continue // a failed pass is retried, as pg-boss would
    }
    if (await isSettled(userId)) return
  }
  throw new Error('ledger did not settle')
}

/**
 * One of each fault, each on a fixed request so it fires in every run: a 429 on a history.list, two
 * 500s on message downloads, and on the appends: the first answer dropped after the write, the
 * second a 503 after the write, the third a 500 before anything is written.
 */
async function injectOrderFaults() {
  const append = '/v4/spreadsheets/*/values/*:append'
  return [
    await injectFault(google, { pathPattern: '/gmail/v1/users/*/history', status: 429, nth: 2, times: 1 }),
    await injectFault(google, { pathPattern: '/gmail/v1/users/*/messages/*', status: 500, nth: 3, times: 2 }),
    await injectFault(google, { pathPattern: append, method: 'POST', mode: 'drop-after-write', nth: 1, times: 1 }),
    await injectFault(google, { pathPattern: append, method: 'POST', mode: 'error-after-write', status: 503, nth: 1, times: 1 }),
    await injectFault(google, { pathPattern: append, method: 'POST', status: 500, nth: 1, times: 1 }),
  ]
}

function expectExactlyOnce(rows: string[][], ids: string[]) {
  const messageIds = rows.slice(1).map((r) => r[6])
  expect(messageIds.sort()).toEqual([...ids].sort())
  expect(new Set(messageIds).size).toBe(messageIds.length)
}

describe('the pipeline', () => {
  it('N new matching emails become exactly N rows, with the header in place', async () => {
    const { userId, spreadsheetId } = await userWithOrderParser(t, google, { email: nextEmail() })
    const ids = await deliverOrders(google, 1, 12)
    await deliverMail(google, INBOX, { from: 'news@blog.test', subject: 'Weekly digest', text: 'not an order' })
    await drain(userId)

    const rows = await sheetRows(google, spreadsheetId)
    expect(rows[0]).toEqual(['Order Number', 'Customer', 'Total', 'Received', 'From', 'Subject', 'Message ID', 'Row Key'])
    expectExactlyOnce(rows, ids)
    const third = rows.find((r) => r[6] === ids[2])!
    const expected = orderEmail(3).expected
    expect(third.slice(0, 3)).toEqual([expected.order, expected.customer, expected.total])
    expect(third[5]).toBe('Order #1003 confirmed')

    const ledger = await t.db.select().from(parsedEmails).where(eq(parsedEmails.userId, userId))
    expect(ledger).toHaveLength(12)
    expect(ledger.every((r) => r.status === 'success' && r.writtenToSheets && r.sheetState === 'written')).toBe(true)

    // Running again (a duplicate notification, a retry) changes nothing.
    await runMailboxPass(t.db, { userId, deps })
    expect(await sheetRows(google, spreadsheetId)).toHaveLength(13)
  })

  it('with injected 429s, 5xx before and after the write and a dropped answer, still exactly N rows', async () => {
    const { userId, spreadsheetId } = await userWithOrderParser(t, google, { email: nextEmail() })
    const faults = await injectOrderFaults()
    const ids: string[] = []
    for (let round = 0; round < 4; round++) {
      ids.push(...(await deliverOrders(google, 100 + round * 5, 5)))
      await drain(userId)
    }
    const rows = await sheetRows(google, spreadsheetId)
    expectExactlyOnce(rows, ids)
    await expectFaultsFired(faults, [1, 2, 1, 1, 1])
  })

  it('stops at the monthly limit and processes the rest after an upgrade, never dropping one', async () => {
    const email = nextEmail()
    const { userId, spreadsheetId, parser } = await userWithOrderParser(t, google, { email })
    // 48 of the free plan's 50 emails already used this month.
    await t.db.insert(parsedEmails).values(Array.from({ length: 48 }, () => ({ userId, parserId: parser.id, status: 'success' as const })))
    const ids = await deliverOrders(google, 200, 5)
    await drain(userId)
    let ledger = await t.db.select().from(parsedEmails).where(eq(parsedEmails.parserId, parser.id))
    expect(ledger.filter((r) => r.status === 'quota_exceeded')).toHaveLength(3)
    expect((await sheetRows(google, spreadsheetId)).length - 1).toBe(2)

    await t.db.update(users).set({ plan: 'starter' }).where(eq(users.email, email))
    await drain(userId)
    ledger = await t.db.select().from(parsedEmails).where(eq(parsedEmails.parserId, parser.id))
    expect(ledger.filter((r) => r.status === 'quota_exceeded')).toHaveLength(0)
    expectExactlyOnce(await sheetRows(google, spreadsheetId), ids)
  })

  it('a backfill of 100 emails gives 100 rows, oldest first, in at most 3 append calls', async () => {
    const ids = await deliverOrders(google, 300, 100)
    await google.control('/requests', { method: 'DELETE' })
    const { userId, spreadsheetId, client } = await userWithOrderParser(t, google, { email: nextEmail(), plan: 'starter', parseHistorical: true })
    const progress = (await client.get('/api/dashboard')).json.dashboard.parsers[0].backfill
    expect(progress).toMatchObject({ total: 100, done: 0 })
    await drain(userId)
    const rows = await sheetRows(google, spreadsheetId)
    // The 100 most recent matches: the sample (delivered last) and the 99 newest orders.
    expect(rows.length - 1).toBe(100)
    expect(rows.slice(1).map((r) => r[6])).toEqual(rows.slice(1).map((r) => r[6]).sort((a, b) => String(a).localeCompare(String(b))))
    expect(ids.slice(1).every((id) => rows.some((r) => r[6] === id))).toBe(true)
    const appends = (await google.control('/requests?api=sheets.spreadsheets.values.append')).json.total
    expect(appends).toBeLessThanOrEqual(3)
    expect((await client.get('/api/dashboard')).json.dashboard.parsers[0].backfill).toBeNull()
  })

  it('re-syncs from recent mail when the history id has expired', async () => {
    const { userId, spreadsheetId } = await userWithOrderParser(t, google, { email: nextEmail() })
    await drain(userId)
    await google.control(`/mailboxes/${INBOX}/history/expire`, { body: {} })
    const ids = await deliverOrders(google, 500, 3)
    await drain(userId)
    expectExactlyOnce(await sheetRows(google, spreadsheetId), ids)
  })

  it('a revoked grant pauses the parsers with a visible reason', async () => {
    const { userId, client } = await userWithOrderParser(t, google, { email: nextEmail() })
    await google.control(`/users/${INBOX}/revoke`, { body: {} })
    await google.control('/tokens/expire', { body: { email: INBOX } })
    await expect(runMailboxPass(t.db, { userId, deps })).rejects.toMatchObject({ code: 'GOOGLE_REAUTH_REQUIRED' })
    const [parser] = (await client.get('/api/dashboard')).json.dashboard.parsers
    expect(parser.alert).toMatch(/^Paused: /)
  })

  it('a parser whose recent emails fail shows an alert with the reason', async () => {
    const { userId, client, parser } = await userWithOrderParser(t, google, { email: nextEmail() })
    for (let i = 0; i < 3; i++) await deliverMail(google, INBOX, { from: 'orders@acme.test', subject: 'Hello', text: 'We changed our emails completely.' })
    await drain(userId)
    const view = (await client.get('/api/dashboard')).json.dashboard.parsers.find((p: { id: string }) => p.id === parser.id)
    expect(view.alert).toMatch(/^The last 3 emails failed: /)
  })

  it('a parser whose stored template no longer reads fails its emails with the reason, and the pass goes on', async () => {
    const { userId, parser, spreadsheetId } = await userWithOrderParser(t, google, { email: nextEmail() })
    const [stored] = await t.db.select({ template: parsers.template }).from(parsers).where(eq(parsers.id, parser.id))
    await t.db.update(parsers).set({ template: { ...stored!.template, version: 99 } }).where(eq(parsers.id, parser.id))
    await deliverOrders(google, 900, 2)
    await drain(userId)
    const ledger = await t.db.select().from(parsedEmails).where(eq(parsedEmails.parserId, parser.id))
    expect(ledger.map((r) => [r.status, r.error])).toEqual([
      ['failed', `The parser's saved template cannot be used (the stored template is version 99, newer than this build reads (${TEMPLATE_VERSION})). Create the parser again.`],
      ['failed', `The parser's saved template cannot be used (the stored template is version 99, newer than this build reads (${TEMPLATE_VERSION})). Create the parser again.`],
    ])
    expect(await sheetRows(google, spreadsheetId)).toHaveLength(1)
  })

  it('the worker polls on its own: a new email becomes a row without anyone asking', async () => {
    const { spreadsheetId } = await userWithOrderParser(t, google, { email: nextEmail() })
    const worker = await startWorker({ database: t.deps.database, logger: createLogger('silent'), pipeline: deps, pollIntervalSeconds: 0.5 })
    try {
      const [id] = await deliverOrders(google, 700, 1)
      const rows = await eventually(() => sheetRows(google, spreadsheetId), (r) => r.some((row) => row[6] === id))
      expectExactlyOnce(rows, [id!])
    } finally {
      await worker.stop()
    }
  })

  it('a paused parser takes no new mail', async () => {
    const { userId, client, parser, spreadsheetId } = await userWithOrderParser(t, google, { email: nextEmail() })
    await client.send('PATCH', `/api/parsers/${parser.id}`, { active: false })
    await deliverOrders(google, 800, 2)
    await drain(userId)
    expect(await sheetRows(google, spreadsheetId)).toHaveLength(1)
    expect(await t.db.select().from(parsers).where(eq(parsers.id, parser.id))).toHaveLength(1)
  })
})

describe('one writer, and a key that includes the parser', () => {
  it('two parsers writing to one spreadsheet and matching the same emails each get their rows exactly once', async () => {
    const { userId, spreadsheetId, client, parser: first } = await userWithOrderParser(t, google, { email: nextEmail() })
    const { expected: _, ...sample } = orderEmail(0)
    const sampleId = await deliverMail(google, INBOX, sample)
    const created = await client.post('/api/parsers', {
      name: 'Orders again',
      filters: { filterFrom: 'orders@acme.test', filterSubject: null, filterLabel: null },
      fields: ORDER_FIELDS,
      sample: { messageId: sampleId },
      parserType: 'template',
      parseAttachments: false,
      destination: { type: 'existing', spreadsheet: spreadsheetId },
      parseHistorical: false,
    })
    expect(created.status).toBe(201)
    const second = created.json.parser
    // Two sheet rows per append, so an email's two rows (one per parser) go in different appends;
    // the second append is cut before Sheets sees it. Keyed by Message ID alone, the first parser's
    // row would make the second's look written, and it would be lost.
    const lost = await injectFault(google, { pathPattern: '/v4/spreadsheets/*/values/*:append', method: 'POST', mode: 'drop', nth: 2, times: 1 })
    const ids = await deliverOrders(google, 400, 3)
    await drain(userId, 30, { ...deps, write: { ...deps.write, batchRows: 2 } })

    const body = (await sheetRows(google, spreadsheetId)).slice(1)
    // The second parser's sample arrived after the first parser started: it is the first's too.
    const expected = [`${first.id}:${sampleId}`, ...ids.flatMap((id) => [`${first.id}:${id}`, `${second.id}:${id}`])]
    expect(body.map((r) => r[7]).sort()).toEqual(expected.sort())
    await expectFaultsFired([lost], [1])
  })

  it('the Test Parser dialog writes through the ledger: its row is in the sheet once, and the pipeline does not write it again', async () => {
    const { userId, spreadsheetId, client, parser } = await userWithOrderParser(t, google, { email: nextEmail() })
    const [id] = await deliverOrders(google, 450, 1)
    const tested = (await client.post(`/api/parsers/${parser.id}/test`, { emailId: id })).json.result
    expect(tested).toMatchObject({ success: true, written_to_sheets: true })
    await drain(userId)
    await client.post(`/api/parsers/${parser.id}/test`, { emailId: id })
    expectExactlyOnce(await sheetRows(google, spreadsheetId), [id!])
    const ledger = await t.db.select().from(parsedEmails).where(eq(parsedEmails.parserId, parser.id))
    expect(ledger.map((r) => [r.gmailMessageId, r.sheetState])).toEqual([[id, 'written']])
  })

  it('a parser made before Row Keys keeps writing its old layout, keyed by Message ID', async () => {
    const { userId, spreadsheetId, parser } = await userWithOrderParser(t, google, { email: nextEmail() })
    await t.db.update(parsers).set({ sheetKey: 'message' }).where(eq(parsers.id, parser.id))
    const lost = await injectFault(google, { pathPattern: '/v4/spreadsheets/*/values/*:append', method: 'POST', mode: 'drop-after-write', times: 1 })
    const ids = await deliverOrders(google, 470, 3)
    await drain(userId)
    const body = (await sheetRows(google, spreadsheetId)).slice(1)
    expect(body.every((r) => r.length === 7)).toBe(true)
    expectExactlyOnce(await sheetRows(google, spreadsheetId), ids)
    await expectFaultsFired([lost], [1])
  })
})

type ItemOrder = Awaited<ReturnType<typeof deliverItemOrders>>[number]

/** Every item of every order is one row (Message ID + Item # once each), with the order number on it. */
function expectEveryItemOnce(rows: string[][], orders: ItemOrder[]) {
  const body = rows.slice(1)
  const keys = body.map((r) => `${r[6]}#${r[7] ?? ''}`)
  const expected = orders.flatMap((o) => (o.items.length ? o.items.map((_, i) => `${o.id}#${i + 1}`) : [`${o.id}#`]))
  expect([...keys].sort()).toEqual([...expected].sort())
  for (const order of orders) {
    const mine = body.filter((r) => r[6] === order.id).sort((a, b) => Number(a[7]) - Number(b[7]))
    expect(mine.map((r) => r.slice(0, 3))).toEqual(order.items.length ? order.items.map((item) => [order.order, item.name, item.price]) : [[order.order, '', '']])
  }
}

describe('the pipeline with one row per item', () => {
  it('an order of N items becomes N rows, each with the order number; an order without items one row', async () => {
    const { userId, spreadsheetId, parser } = await userWithOrderParser(t, google, { email: nextEmail(), lineItems: 'per_item' })
    expect(parser.row_mode).toBe('per_item')
    const orders = await deliverItemOrders(google, 1, [5, 1, 3, 0])
    await drain(userId)

    const rows = await sheetRows(google, spreadsheetId)
    expect(rows[0]).toEqual(['Order Number', 'Item', 'Price', 'Received', 'From', 'Subject', 'Message ID', 'Item #', 'Row Key'])
    expectEveryItemOnce(rows, orders)
    const ledger = await t.db.select().from(parsedEmails).where(eq(parsedEmails.userId, userId))
    expect(ledger).toHaveLength(4)
    expect(ledger.every((r) => r.sheetState === 'written')).toBe(true)

    await runMailboxPass(t.db, { userId, deps })
    expect(await sheetRows(google, spreadsheetId)).toHaveLength(rows.length)
  })

  it('with injected 429/500 faults, dropped responses and orders spanning appends, every item is one row exactly once', async () => {
    const { userId, spreadsheetId } = await userWithOrderParser(t, google, { email: nextEmail(), lineItems: 'per_item' })
    // Three sheet rows per append: most orders are cut between two appends.
    const small = { ...deps, write: { ...deps.write, batchRows: 3 } }
    const faults = await injectOrderFaults()
    const orders: ItemOrder[] = []
    for (let round = 0; round < 4; round++) {
      orders.push(...(await deliverItemOrders(google, 100 + round * 5, [5, 2, 4, 1, 3].map((c) => (c + round) % 6))))
      await drain(userId, 40, small)
    }
    expectEveryItemOnce(await sheetRows(google, spreadsheetId), orders)
    await expectFaultsFired(faults, [1, 2, 1, 1, 1])
  })
})
