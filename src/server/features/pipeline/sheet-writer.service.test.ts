import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { pipelineDepsOf } from '../../bootstrap'
import { parsedEmails } from '../../db/schema'
import { deliverOrders, eventually, sheetRows, userWithOrderParser } from '../../testing/pipeline-fixtures'
import { createTestApp, type TestApp } from '../../testing/test-app'
import { startTestEmulator, type TestEmulator } from '../../testing/test-emulator'
import { syncMailbox } from './mailbox-sync.service'
import { runMailboxPass, type PipelineDeps } from './pipeline.service'
import { processPendingEmails } from './process.service'
import { writeQueuedRows } from './sheet-writer.service'

// Google's times divided by 6: the client gives up after 30 s (5 s here), Sheets may go on with a
// request for 180 s (30 s). A 35 s stall lands 0.8 s after the client gave up, a 70 s one 6.7 s
// after: long enough for the next pass to look at the sheet before the write is there.
const SCALE = 1 / 6
const CLIENT_TIMEOUT_MS = 30_000 * SCALE
const SHEETS_DEADLINE_MS = 180_000 * SCALE
const APPEND = '/v4/spreadsheets/*/values/*:append'

let google: TestEmulator
let t: TestApp
let deps: PipelineDeps
let n = 0

beforeAll(async () => {
  google = await startTestEmulator()
  t = await createTestApp({ emulatorUrl: google.url })
  const base = pipelineDepsOf(t.deps)!
  deps = {
    ...base,
    access: { ...base.access, google: { ...base.access.google, timeoutMs: CLIENT_TIMEOUT_MS } },
    write: { sleep: async () => {}, ambiguousDeadlineMs: SHEETS_DEADLINE_MS },
  }
})
afterAll(async () => {
  await t.close()
  await google.close()
})
beforeEach(async () => {
  await google.control('/reset', { body: {} })
})

const isOpen = (r: typeof parsedEmails.$inferSelect) => ['pending', 'processing'].includes(r.status) || ['queued', 'writing'].includes(r.sheetState)

/** Passes one after another, as a busy worker would run them, until the ledger has no open work. */
async function passUntilSettled(userId: string, { maxPasses = 400 } = {}) {
  for (let pass = 0; pass < maxPasses; pass++) {
    await runMailboxPass(t.db, { userId, deps }).catch(() => undefined)
    const ledger = await t.db.select().from(parsedEmails).where(eq(parsedEmails.userId, userId))
    if (!ledger.some(isOpen)) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error('ledger did not settle')
}

/** Adds a fault; returns a reader of the append requests it fired on (from the emulator's request log). */
async function injectAppendFault(spec: Record<string, unknown>) {
  const fault = (await google.control('/faults', { body: { pathPattern: APPEND, method: 'POST', nth: 1, times: 1, ...spec } })).json as { id: string }
  return async () => {
    const log = (await google.control('/requests?api=sheets.spreadsheets.values.append')).json as { total: number; requests: Array<{ fault?: string }> }
    return { appends: log.total, fired: log.requests.filter((r) => r.fault === fault.id).length }
  }
}

function expectEachOnce(rows: string[][], ids: string[]) {
  const messageIds = rows.slice(1).map((r) => r[6])
  expect([...messageIds].sort()).toEqual([...ids].sort())
}

describe('an append whose answer never comes is not written twice', () => {
  it.each([
    ['a 35 s stall', 35_000],
    ['a 70 s stall', 70_000],
  ])('%s: the append lands after the client gave up, and every row is in the sheet once', { timeout: 90_000 }, async (_name, stallMs) => {
    const { userId, spreadsheetId } = await userWithOrderParser(t, google, { email: `stall${++n}@example.com` })
    const appendLog = await injectAppendFault({ mode: 'latency', latencyMs: Math.round(stallMs * SCALE) })
    const ids = await deliverOrders(google, 10, 5)

    await passUntilSettled(userId)
    // The stalled request is over (the emulator logs a request when it has answered it).
    await eventually(appendLog, (log) => log.fired === 1)

    expectEachOnce(await sheetRows(google, spreadsheetId), ids)
    // The stalled append was the only one: nothing was appended while it could still land.
    expect(await appendLog()).toEqual({ appends: 1, fired: 1 })
  })

  it('an answer lost after the write: the rows are found in the sheet, not appended again', async () => {
    const { userId, spreadsheetId } = await userWithOrderParser(t, google, { email: `drop${++n}@example.com` })
    const appendLog = await injectAppendFault({ mode: 'drop-after-write' })
    const ids = await deliverOrders(google, 20, 5)

    await passUntilSettled(userId)

    expectEachOnce(await sheetRows(google, spreadsheetId), ids)
    expect(await appendLog()).toEqual({ appends: 1, fired: 1 })
  })

  it('a 5xx after the write: the rows are found in the sheet, not appended again', async () => {
    const { userId, spreadsheetId } = await userWithOrderParser(t, google, { email: `5xx${++n}@example.com` })
    const appendLog = await injectAppendFault({ mode: 'error-after-write', status: 503 })
    const ids = await deliverOrders(google, 30, 5)

    await passUntilSettled(userId)

    expectEachOnce(await sheetRows(google, spreadsheetId), ids)
    expect(await appendLog()).toEqual({ appends: 1, fired: 1 })
  })
})

describe('the sheet writer', () => {
  it('appends the rows of an unanswered append again only once its deadline has passed, and then only once', async () => {
    const { userId, spreadsheetId } = await userWithOrderParser(t, google, { email: `writer${++n}@example.com` })
    const ids = await deliverOrders(google, 40, 3)
    await syncMailbox(t.db, { userId, access: deps.access })
    await processPendingEmails(t.db, { userId, access: deps.access, ai: null })
    // The connection is cut before Sheets sees the request: nothing lands, but the writer can't know.
    const appendLog = await injectAppendFault({ mode: 'drop' })
    const start = Date.now()
    const write = (atMs: number) =>
      writeQueuedRows(t.db, { userId, access: deps.access, options: { ...deps.write, ambiguousDeadlineMs: 180_000, now: () => new Date(start + atMs) } })

    expect(await write(0)).toMatchObject({ appendCalls: 1, rowsWritten: 0, ambiguous: 1 })
    // Within Sheets' 180 s the request might still be carried out: the writer looks, and waits.
    expect(await write(60_000)).toMatchObject({ appendCalls: 0, rowsWritten: 0 })
    expect(await write(179_000)).toMatchObject({ appendCalls: 0, rowsWritten: 0 })
    expect((await sheetRows(google, spreadsheetId)).slice(1)).toEqual([])
    // After it, the key column says what is missing, and only that is appended.
    expect(await write(181_000)).toMatchObject({ appendCalls: 1, rowsWritten: 3 })
    expect(await write(182_000)).toMatchObject({ appendCalls: 0, rowsWritten: 0 })

    expectEachOnce(await sheetRows(google, spreadsheetId), ids)
    expect(await appendLog()).toEqual({ appends: 2, fired: 1 })
    const ledger = await t.db.select().from(parsedEmails).where(eq(parsedEmails.userId, userId))
    expect(ledger.map((r) => r.sheetState)).toEqual(['written', 'written', 'written'])
  })

  it('settles an unanswered append as soon as its rows show up in the sheet', async () => {
    const { userId, spreadsheetId } = await userWithOrderParser(t, google, { email: `writer${++n}@example.com` })
    const ids = await deliverOrders(google, 50, 2)
    await syncMailbox(t.db, { userId, access: deps.access })
    await processPendingEmails(t.db, { userId, access: deps.access, ai: null })
    const appendLog = await injectAppendFault({ mode: 'error-after-write', status: 500 })
    const write = () => writeQueuedRows(t.db, { userId, access: deps.access, options: { ...deps.write, ambiguousDeadlineMs: 180_000 } })

    expect(await write()).toMatchObject({ appendCalls: 1, rowsWritten: 0, ambiguous: 1 })
    expect(await write()).toMatchObject({ appendCalls: 0, rowsWritten: 2 })
    expectEachOnce(await sheetRows(google, spreadsheetId), ids)
    expect(await appendLog()).toEqual({ appends: 1, fired: 1 })
  })

  it('in steady state a pass with new rows makes one Sheets call, the append', async () => {
    const { userId, spreadsheetId } = await userWithOrderParser(t, google, { email: `steady${++n}@example.com` })
    await deliverOrders(google, 60, 2)
    await passUntilSettled(userId)
    await google.control('/requests', { method: 'DELETE' })
    const ids = await deliverOrders(google, 62, 3)
    await passUntilSettled(userId)
    const sheetsCalls = (await google.control('/requests?pathPrefix=/v4/')).json as { total: number; byApi: Record<string, number> }
    expect(sheetsCalls.byApi).toEqual({ 'sheets.spreadsheets.values.append': 1 })
    expect((await sheetRows(google, spreadsheetId)).slice(1).filter((r) => ids.includes(r[6]!))).toHaveLength(3)
  })
})
