import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '../server/db/client'
import { parsedEmails } from '../server/db/schema'
import { createSecretBox } from '../server/lib/crypto'
import { seedConnectedMailboxes } from '../server/testing/mailbox-fixtures'
import { deliverItemOrders, deliverOrders, eventually, injectFault, sheetRows, userWithOrderParser } from '../server/testing/pipeline-fixtures'
import { createTestApp, TEST_APP_SECRET, type TestApp } from '../server/testing/test-app'
import { openPostgresTestDatabase } from '../server/testing/test-database'
import { startTestEmulator, type TestEmulator } from '../server/testing/test-emulator'

// Several worker processes share one database, which embedded PGlite can't do: these tests run
// on PostgreSQL (TEST_DATABASE_URL, or the machine's server at 127.0.0.1:5432).
let google: TestEmulator
let database: Database
let databaseUrl: string
let t: TestApp
const workers = new Set<ChildProcess>()
let n = 0

beforeAll(async () => {
  google = await startTestEmulator()
  const pg = await openPostgresTestDatabase()
  database = pg.database
  databaseUrl = pg.url
  t = await createTestApp({ emulatorUrl: google.url, database })
})
afterAll(async () => {
  await t.close()
  await google.close()
})
beforeEach(async () => {
  await google.control('/reset', { body: {} })
})
afterEach(() => {
  for (const worker of workers) worker.kill('SIGKILL')
  workers.clear()
})

/** `npm run worker` as its own process, on the test database and the test emulator. */
function startWorkerProcess(extraEnv: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      APP_SECRET: TEST_APP_SECRET,
      APP_URL: 'http://localhost:3000',
      GOOGLE_EMULATOR_URL: google.url,
      POLL_INTERVAL_SECONDS: '0.5',
      WORKER_LEASE_SECONDS: '3',
      // The killed worker's append may land late: its rows are looked for, and appended again only after this.
      SHEETS_WRITE_DEADLINE_SECONDS: '5',
      LOG_LEVEL: 'warn',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'mailrow-worker-')),
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk) => (stderr += chunk))
  child.on('exit', (code, signal) => {
    if (code && code !== 0 && signal === null) console.error(`worker exited with ${code}:\n${stderr}`)
  })
  workers.add(child)
  return child
}

function expectExactlyOnce(rows: string[][], ids: string[]) {
  const messageIds = rows.slice(1).map((r) => r[6])
  expect(messageIds.sort()).toEqual([...ids].sort())
}

/** Some of the user's rows are marked 'writing' and the stalled append has not been answered yet. */
// The append has reached Google and Google has not answered yet: rows marked 'writing' alone may
// be a request not yet sent, which a kill then cancels (the stalled append would never land).
const appendInFlight = (userId: string, stall: { fired: () => Promise<number>; arrived: () => Promise<number> }) => async () =>
  (await t.db.select().from(parsedEmails).where(eq(parsedEmails.userId, userId))).some((r) => r.sheetState === 'writing') &&
  (await stall.arrived()) >= 1 &&
  (await stall.fired()) === 0

const settled = (userId: string) => async () =>
  (await t.db.select().from(parsedEmails).where(eq(parsedEmails.userId, userId))).filter(
    (r) => r.status === 'success' && r.sheetState === 'written',
  ).length

describe('worker processes on one PostgreSQL', () => {
  it('a worker killed with SIGKILL mid-batch and restarted still gives exactly N rows', { timeout: 180_000 }, async () => {
    const { userId, spreadsheetId } = await userWithOrderParser(t, google, { email: `killed${++n}@example.com` })
    // Slow appends, so the kill lands while a batch is in flight at Google.
    const stall = await injectFault(google, { pathPattern: '/v4/spreadsheets/*/values/*:append', mode: 'latency', latencyMs: 1500 })
    const first = startWorkerProcess()
    const ids = await deliverOrders(google, 1, 25)
    // Killed while an append is on its way: its rows are 'writing' and Google hasn't answered yet.
    await eventually(appendInFlight(userId, stall), (inFlight) => inFlight, 30_000)
    first.kill('SIGKILL')
    await google.control('/faults', { method: 'DELETE' })
    // The append the worker died in still lands, after the worker is gone.
    await eventually(stall.fired, (fired) => fired >= 1, 30_000)
    ids.push(...(await deliverOrders(google, 100, 5)))

    startWorkerProcess()
    await eventually(settled(userId), (count) => count === ids.length, 120_000)
    expectExactlyOnce(await sheetRows(google, spreadsheetId), ids)
  })

  it('a worker killed with SIGKILL mid-batch, one row per item: every item is one row exactly once', { timeout: 180_000 }, async () => {
    const { userId, spreadsheetId } = await userWithOrderParser(t, google, { email: `killed-items${++n}@example.com`, lineItems: 'per_item' })
    const stall = await injectFault(google, { pathPattern: '/v4/spreadsheets/*/values/*:append', mode: 'latency', latencyMs: 1500 })
    const first = startWorkerProcess()
    const orders = await deliverItemOrders(google, 1, [5, 3, 1, 4, 2, 5, 3, 4, 2, 5])
    // Killed while an append is on its way: its rows are 'writing' and Google hasn't answered yet.
    await eventually(appendInFlight(userId, stall), (inFlight) => inFlight, 30_000)
    first.kill('SIGKILL')
    await google.control('/faults', { method: 'DELETE' })
    // The append the worker died in still lands, after the worker is gone.
    await eventually(stall.fired, (fired) => fired >= 1, 30_000)
    orders.push(...(await deliverItemOrders(google, 50, [5, 2])))

    startWorkerProcess()
    await eventually(settled(userId), (count) => count === orders.length, 120_000)
    const keys = (await sheetRows(google, spreadsheetId)).slice(1).map((r) => `${r[6]}#${r[7]}`)
    expect(keys.sort()).toEqual(orders.flatMap((o) => o.items.map((_, i) => `${o.id}#${i + 1}`)).sort())
  })

  it('two worker processes share the work and give exactly N rows', { timeout: 180_000 }, async () => {
    const { userId, spreadsheetId } = await userWithOrderParser(t, google, { email: `two${++n}@example.com` })
    startWorkerProcess()
    startWorkerProcess()
    const ids: string[] = []
    for (let round = 0; round < 4; round++) {
      ids.push(...(await deliverOrders(google, 200 + round * 10, 10)))
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
    await eventually(settled(userId), (count) => count === ids.length, 120_000)
    expectExactlyOnce(await sheetRows(google, spreadsheetId), ids)
  })

  it('two overloaded worker processes still poll every mailbox: none is starved', { timeout: 120_000 }, async () => {
    // 300 mailboxes due every 0.5 s is more than two workers with one pass at a time can do: taken
    // longest-waiting first, each still gets its turn; taken in any other order, some never do.
    const seeded = await seedConnectedMailboxes(t.db, { count: 300, prefix: `many${++n}-`, google, box: createSecretBox(TEST_APP_SECRET) })
    await google.control('/requests', { method: 'DELETE' })
    startWorkerProcess({ WORKER_CONCURRENCY: '1', POLL_INTERVAL_SECONDS: '0.5' })
    startWorkerProcess({ WORKER_CONCURRENCY: '1', POLL_INTERVAL_SECONDS: '0.5' })
    const pollsOf = async () => {
      const { requests } = (await google.control('/requests?api=gmail.users.history.list')).json as { requests: { email?: string }[] }
      const counts = new Map<string, number>()
      for (const r of requests) if (r.email) counts.set(r.email, (counts.get(r.email) ?? 0) + 1)
      return seeded.filter((s) => (counts.get(s.email) ?? 0) >= 3).length
    }
    await eventually(pollsOf, (polled) => polled === seeded.length, 60_000)
  })
})
