import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pipelineDepsOf } from '../../bootstrap'
import { createLogger } from '../../lib/logger'
import { seedConnectedMailboxes } from '../../testing/mailbox-fixtures'
import { createTestApp, type TestApp } from '../../testing/test-app'
import { openPostgresTestDatabase } from '../../testing/test-database'
import { startTestEmulator, type TestEmulator } from '../../testing/test-emulator'
import { claimDueMailboxes } from './pipeline.queries'
import { runScheduledPass } from './pipeline.service'

// Statements are counted at the PostgreSQL driver, so this file runs on PostgreSQL
// (TEST_DATABASE_URL, or the machine's server at 127.0.0.1:5432).
let google: TestEmulator
let t: TestApp

beforeAll(async () => {
  google = await startTestEmulator({ accounts: [] })
  t = await createTestApp({ emulatorUrl: google.url, database: (await openPostgresTestDatabase()).database })
})
afterAll(async () => {
  await t.close()
  await google.close()
})

/** Runs `work` and returns how many SQL statements it sent. */
async function statementsOf(work: () => Promise<unknown>) {
  let count = 0
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    count++
    return (query as (...a: unknown[]) => unknown).apply(this, args)
  } as typeof query
  try {
    await work()
  } finally {
    pg.Client.prototype.query = query
  }
  return count
}

describe('an idle mailbox pass', () => {
  it('costs 3 SQL statements (the budget is 4), the claim included, and one Gmail call', async () => {
    const [mailbox] = await seedConnectedMailboxes(t.db, { count: 1, prefix: 'quiet', google, box: t.deps.box })
    const deps = pipelineDepsOf(t.deps)!
    const logger = createLogger('silent')
    let now = Date.now()
    const pass = async () => {
      now += 60_000
      const [claimed] = await claimDueMailboxes(t.db, { limit: 10, intervalMs: 30_000, now: new Date(now) })
      expect(claimed?.userId).toBe(mailbox!.userId)
      await runScheduledPass(t.db, { mailbox: claimed!, deps, logger })
    }
    await pass()
    await google.control('/requests', { method: 'DELETE' })
    const statements = await statementsOf(pass)
    // The claim, the mailbox lease taken and given back.
    expect(statements).toBe(3)
    const calls = (await google.control('/requests')).json.byApi as Record<string, number>
    expect(calls).toEqual({ 'gmail.users.history.list': 1 })
  })
})
