import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../server/db/client'
import { connectedAccounts, users } from '../server/db/schema'
import { claimDueMailboxes } from '../server/features/pipeline/pipeline.queries'
import { createLogger } from '../server/lib/logger'
import { seedConnectedMailboxes } from '../server/testing/mailbox-fixtures'
import { eventually } from '../server/testing/pipeline-fixtures'
import { openPostgresTestDatabase, openTestDatabase } from '../server/testing/test-database'
import { reservedPrioritySlots, startScheduler } from './scheduler'

const HOUR = 3_600_000

describe('mailbox scheduler (one database connection: PGlite, or TEST_DATABASE_URL)', () => {
  let database: Database
  beforeAll(async () => {
    database = await openTestDatabase()
  })
  afterAll(async () => {
    await database.close()
  })

  it('hands out each due mailbox once per interval, the longest-waiting first', async () => {
    const db = database.db
    const seeded = await seedConnectedMailboxes(db, { count: 30, prefix: 'order' })
    const now = new Date('2030-01-01T00:00:00Z')
    // The last mailbox written has waited longest: a scheduler that takes rows in table order starves it.
    const starved = seeded.at(-1)!.userId
    await db.update(connectedAccounts).set({ nextPollAt: new Date(now.getTime() - 60_000) }).where(eq(connectedAccounts.userId, starved))
    await db.update(connectedAccounts).set({ nextPollAt: new Date(now.getTime() - 1_000) }).where(sql`${connectedAccounts.userId} <> ${starved}`)

    const [first] = await claimDueMailboxes(db, { limit: 1, intervalMs: 30_000, now })
    expect(first?.userId).toBe(starved)
    expect(first).toMatchObject({ hasParsers: true, hasWork: false })

    const rest = [...(await claimDueMailboxes(db, { limit: 20, intervalMs: 30_000, now })), ...(await claimDueMailboxes(db, { limit: 20, intervalMs: 30_000, now }))]
    expect(rest.map((m) => m.userId).sort()).toEqual(seeded.map((s) => s.userId).filter((id) => id !== starved).sort())
    // Claimed: nothing is due again until the interval has passed, then every one is.
    expect(await claimDueMailboxes(db, { limit: 100, intervalMs: 30_000, now: new Date(now.getTime() + 29_000) })).toEqual([])
    expect(await claimDueMailboxes(db, { limit: 100, intervalMs: 30_000, now: new Date(now.getTime() + 30_000) })).toHaveLength(30)
  })

  it('starves no mailbox when more fall due than the worker can pass', async () => {
    const db = database.db
    await db.delete(connectedAccounts)
    const seeded = await seedConnectedMailboxes(db, { count: 40, prefix: 'busy' })
    const passes = new Map<string, number>()
    let running = 0
    let mostAtOnce = 0
    const scheduler = startScheduler({
      db,
      logger: createLogger('silent'),
      // Overloaded on purpose: 40 mailboxes due every 20 ms, 3 passes of 5 ms at a time. Taken
      // longest-waiting first, every mailbox still gets its turn; taken newest-due first, some never do.
      concurrency: 3,
      intervalMs: 20,
      tickMs: 10,
      async runPass(mailbox) {
        mostAtOnce = Math.max(mostAtOnce, ++running)
        await new Promise((resolve) => setTimeout(resolve, 5))
        passes.set(mailbox.userId, (passes.get(mailbox.userId) ?? 0) + 1)
        running--
      },
    })
    try {
      await eventually(async () => seeded.filter((s) => (passes.get(s.userId) ?? 0) >= 3).length, (n) => n === seeded.length, 20_000)
    } finally {
      await scheduler.stop()
    }
    expect(mostAtOnce).toBeLessThanOrEqual(3)
  })
})

describe('priority processing (Pro)', () => {
  let database: Database
  beforeAll(async () => {
    database = await openTestDatabase()
  })
  afterAll(async () => {
    await database.close()
  })

  it('claims due Pro mailboxes before others that have waited longer', async () => {
    const db = database.db
    const seeded = await seedConnectedMailboxes(db, { count: 6, prefix: 'mixed' })
    const now = new Date('2030-01-01T00:00:00Z')
    await db.update(connectedAccounts).set({ nextPollAt: new Date(now.getTime() - 60_000) })
    const pro = seeded[5]!.userId
    await db.update(users).set({ plan: 'pro' }).where(eq(users.id, pro))
    await db.update(connectedAccounts).set({ nextPollAt: new Date(now.getTime() - 1_000) }).where(eq(connectedAccounts.userId, pro))
    const [first] = await claimDueMailboxes(db, { limit: 1, intervalMs: 30_000, now })
    expect(first).toMatchObject({ userId: pro, isPriority: true })
    expect(await claimDueMailboxes(db, { limit: 5, intervalMs: 30_000, now, priorityOnly: true })).toEqual([])
    expect((await claimDueMailboxes(db, { limit: 10, intervalMs: 30_000, now })).every((m) => !m.isPriority)).toBe(true)
  })

  it("starts a Pro mailbox's pass at once while free-plan passes hold every other slot", async () => {
    const db = database.db
    await db.delete(connectedAccounts)
    const concurrency = 5
    const free = await seedConnectedMailboxes(db, { count: 30, prefix: 'backlog' })
    const [pro] = await seedConnectedMailboxes(db, { count: 1, prefix: 'vip' })
    await db.update(users).set({ plan: 'pro' }).where(eq(users.id, pro!.userId))
    // The Pro mailbox is not due yet: the free backlog takes the slots first.
    await db.update(connectedAccounts).set({ nextPollAt: new Date(Date.now() + HOUR) }).where(eq(connectedAccounts.userId, pro!.userId))
    const started: string[] = []
    let release!: () => void
    const blocked = new Promise<void>((resolve) => (release = resolve))
    const scheduler = startScheduler({
      db,
      logger: createLogger('silent'),
      concurrency,
      intervalMs: HOUR,
      tickMs: 10,
      async runPass(mailbox) {
        started.push(mailbox.userId)
        // Free-plan passes with a long backlog: they hold their slots until released.
        if (!mailbox.isPriority) await blocked
      },
    })
    try {
      await eventually(async () => started.length, (n) => n === concurrency - reservedPrioritySlots(concurrency))
      await db.update(connectedAccounts).set({ nextPollAt: new Date() }).where(eq(connectedAccounts.userId, pro!.userId))
      await eventually(async () => started.includes(pro!.userId), Boolean, 5_000)
      // Nothing of the backlog finished, and it never took the reserved slot.
      expect(started.filter((id) => id !== pro!.userId)).toHaveLength(concurrency - reservedPrioritySlots(concurrency))
      expect(free.map((f) => f.userId)).toEqual(expect.arrayContaining(started.filter((id) => id !== pro!.userId)))
    } finally {
      release()
      await scheduler.stop()
    }
  })
})

// Several workers claim at once on separate connections, which embedded PGlite can't do: PostgreSQL
// (TEST_DATABASE_URL, or the machine's server at 127.0.0.1:5432), as the worker-process tests.
describe('mailbox scheduler on PostgreSQL with several workers', () => {
  let database: Database
  let url: string
  const others: Database[] = []
  beforeAll(async () => {
    ;({ database, url } = await openPostgresTestDatabase())
    for (let i = 0; i < 3; i++) others.push(await openDatabase({ url }))
  })
  afterAll(async () => {
    for (const other of others) await other.close()
    await database.close()
  })

  it('never hands a mailbox to two workers in the same interval, and leaves none out', async () => {
    const seeded = await seedConnectedMailboxes(database.db, { count: 600, prefix: 'shared' })
    const workers = [database, ...others]
    const start = Date.now() + HOUR
    for (let round = 0; round < 3; round++) {
      const now = new Date(start + round * HOUR)
      const claimed: string[] = []
      // 4 workers (own connection pools) × 6 claim loops each, racing for the same due rows.
      await Promise.all(
        workers.flatMap((worker) =>
          Array.from({ length: 6 }, async () => {
            for (;;) {
              const batch = await claimDueMailboxes(worker.db, { limit: 7, intervalMs: HOUR, now })
              if (batch.length === 0) return
              claimed.push(...batch.map((m) => m.userId))
            }
          }),
        ),
      )
      const twice = claimed.filter((id, i) => claimed.indexOf(id) !== i)
      expect(twice, `round ${round}: mailboxes handed out twice`).toEqual([])
      expect(claimed.sort(), `round ${round}: every mailbox handed out`).toEqual(seeded.map((s) => s.userId).sort())
    }
  })
})
