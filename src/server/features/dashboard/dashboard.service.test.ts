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
      stats: { emailsParsed: 0, activeParsers: 0, successRate: 0 },
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
    expect(dashboard.stats).toEqual({ emailsParsed: 12, activeParsers: 1, successRate: 75 })
    expect(dashboard.parsers.map((p: { name: string }) => p.name).sort()).toEqual(['Old', 'Orders'])
    expect(dashboard.recentEmails).toHaveLength(10)
    expect(dashboard.recentEmails[0]).toMatchObject({ emailSubject: 'Order 11', parserName: 'Orders', status: 'success' })
    expect(JSON.stringify(dashboard)).not.toContain('secret')
  })
})
