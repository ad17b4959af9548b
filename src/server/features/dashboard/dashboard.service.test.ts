import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parsedEmails, parsers, users } from '../../db/schema'
import { createTestApp, signUpAndIn, type TestApp } from '../../testing/test-app'
import { eq } from 'drizzle-orm'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

async function userId(email: string) {
  const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email))
  return row!.id
}

describe('GET /api/dashboard', () => {
  it('shows zeros and no parsers for a new user', async () => {
    const client = await signUpAndIn(t, 'empty@example.com')
    const response = await client.get('/api/dashboard')
    expect(response.status).toBe(200)
    expect(response.json.dashboard).toEqual({
      stats: { emailsParsed: 0, activeParsers: 0, successRate: 0, waitingForAllowance: 0 },
      parsers: [],
      recentEmails: [],
    })
  })

  it("counts only the signed-in user's parsers and emails, newest first, at most 10", async () => {
    const alice = await signUpAndIn(t, 'alice@example.com')
    await signUpAndIn(t, 'bob@example.com')
    const aliceId = await userId('alice@example.com')
    const bobId = await userId('bob@example.com')
    const [aliceParser] = await t.db
      .insert(parsers)
      .values([{ userId: aliceId, name: 'Orders' }, { userId: aliceId, name: 'Old', active: false }])
      .returning()
    const [bobParser] = await t.db.insert(parsers).values({ userId: bobId, name: 'Bob parser' }).returning()
    const base = Date.parse('2026-11-01T10:00:00Z')
    await t.db.insert(parsedEmails).values(
      Array.from({ length: 12 }, (_, i) => ({
        userId: aliceId,
        parserId: aliceParser!.id,
        emailSubject: `Order ${i}`,
        status: (i % 4 === 0 ? 'failed' : 'success') as 'failed' | 'success',
        processedAt: new Date(base + i * 60_000),
      })),
    )
    await t.db.insert(parsedEmails).values({ userId: bobId, parserId: bobParser!.id, emailSubject: 'secret', status: 'success' })

    const { dashboard } = (await alice.get('/api/dashboard')).json
    expect(dashboard.stats).toEqual({ emailsParsed: 12, activeParsers: 1, successRate: 75, waitingForAllowance: 0 })
    expect(dashboard.parsers.map((p: { name: string }) => p.name).sort()).toEqual(['Old', 'Orders'])
    expect(dashboard.recentEmails).toHaveLength(10)
    expect(dashboard.recentEmails[0]).toMatchObject({ emailSubject: 'Order 11', parserName: 'Orders', status: 'success' })
    expect(JSON.stringify(dashboard)).not.toContain('secret')
  })

  it('counts emails held back by the allowance neither as parsed nor as failed, and the parser says it is waiting', async () => {
    const client = await signUpAndIn(t, 'quota@example.com')
    const id = await userId('quota@example.com')
    const [held, fine] = await t.db
      .insert(parsers)
      .values([
        { userId: id, name: 'Held' },
        { userId: id, name: 'Fine' },
      ])
      .returning()
    await t.db.insert(parsedEmails).values([
      ...Array.from({ length: 50 }, (_, i) => ({ userId: id, parserId: held!.id, emailSubject: `ok ${i}`, status: 'success' as const })),
      ...Array.from({ length: 3 }, (_, i) => ({ userId: id, parserId: held!.id, emailSubject: `held ${i}`, status: 'quota_exceeded' as const })),
      { userId: id, parserId: fine!.id, emailSubject: 'fine', status: 'success' as const },
    ])
    const { dashboard } = (await client.get('/api/dashboard')).json
    expect(dashboard.stats).toEqual({ emailsParsed: 51, activeParsers: 2, successRate: 100, waitingForAllowance: 3 })
    const byName = Object.fromEntries(dashboard.parsers.map((p: { name: string; waiting_for_allowance: number }) => [p.name, p.waiting_for_allowance]))
    expect(byName).toEqual({ Held: 3, Fine: 0 })
    const single = (await client.get(`/api/parsers/${held!.id}`)).json
    expect(single.parser.waiting_for_allowance).toBe(3)
  })
})

/** Counts the SQL statements the app sends while `run` runs (drizzle sends each through $client.query). */
async function countStatements(run: () => Promise<unknown>) {
  const client = (t.db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client
  const original = client.query
  const statements: string[] = []
  client.query = function (this: unknown, ...args: unknown[]) {
    statements.push(String(typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text))
    return original.apply(this, args)
  }
  try {
    await run()
  } finally {
    client.query = original
  }
  return statements
}

describe('the dashboard under load', () => {
  it('costs two statements for a signed-in user: no session lookup, one for the parsers, one for the ledger', async () => {
    const carol = await signUpAndIn(t, 'carol@example.com')
    const carolId = await userId('carol@example.com')
    const [orders, invoices] = await t.db.insert(parsers).values([{ userId: carolId, name: 'Orders' }, { userId: carolId, name: 'Invoices' }]).returning()
    await t.db.insert(parsedEmails).values(
      Array.from({ length: 40 }, (_, i) => ({
        userId: carolId,
        parserId: (i % 2 ? orders : invoices)!.id,
        emailSubject: `Mail ${i}`,
        status: (['success', 'partial', 'failed'] as const)[i % 3]!,
        source: i < 5 ? ('backfill' as const) : ('sync' as const),
        processedAt: new Date(Date.parse('2026-11-01T10:00:00Z') + i * 60_000),
      })),
    )
    // A backfill still running for Orders: 2 of its 5 emails done.
    await t.db.insert(parsedEmails).values(
      Array.from({ length: 3 }, (_, i) => ({ userId: carolId, parserId: orders!.id, emailSubject: `Old ${i}`, status: 'pending' as const, source: 'backfill' as const })),
    )
    // The first request validates the session; the next ones are answered from the session cache.
    expect((await carol.get('/api/dashboard')).status).toBe(200)
    let response: Awaited<ReturnType<typeof carol.get>> | undefined
    const statements = await countStatements(async () => {
      response = await carol.get('/api/dashboard')
    })
    expect(response!.status).toBe(200)
    expect(response!.json.dashboard.recentEmails).toHaveLength(10)
    const views = response!.json.dashboard.parsers as Array<{ name: string; backfill: unknown }>
    expect(views.find((p) => p.name === 'Orders')!.backfill).toEqual({ total: 5, done: 2 })
    expect(views.find((p) => p.name === 'Invoices')!.backfill).toBeNull()
    expect(statements).toHaveLength(2)
    expect(await countStatements(() => carol.get('/api/parsers'))).toHaveLength(2)
  })
})

