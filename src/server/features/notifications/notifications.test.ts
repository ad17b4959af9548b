import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parsedEmails, parsers, users } from '../../db/schema'
import { createTestApp, signUpAndIn, type TestApp } from '../../testing/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

async function userWithFailures(email: string, times: string[]) {
  const client = await signUpAndIn(t, email)
  const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email))
  const [parser] = await t.db.insert(parsers).values({ userId: user!.id, name: 'Orders' }).returning()
  await t.db.insert(parsedEmails).values(
    times.map((at, i) => ({ userId: user!.id, parserId: parser!.id, emailSubject: `Order ${i}`, status: 'failed' as const, processedAt: new Date(at) })),
  )
  return client
}

const unreadCount = async (client: Awaited<ReturnType<typeof signUpAndIn>>) =>
  ((await client.get('/api/notifications')).json.items as Array<{ unread: boolean }>).filter((item) => item.unread).length

describe('notifications read state', () => {
  it('is kept on the server: seen in one session, seen in every other; later failures are new again', async () => {
    const now = Date.now()
    const older = new Date(now - 3 * 60 * 60 * 1000).toISOString()
    const newer = new Date(now - 60 * 60 * 1000).toISOString()
    const laptop = await userWithFailures('bell@example.com', [older, newer])
    const phone = await signUpAndIn(t, 'bell@example.com')
    expect(await unreadCount(laptop)).toBe(2)
    expect(await unreadCount(phone)).toBe(2)

    const { items } = (await laptop.get('/api/notifications')).json
    expect((await laptop.post('/api/notifications/seen', { through: items[0].at })).status).toBe(204)
    expect(await unreadCount(laptop)).toBe(0)
    expect(await unreadCount(phone)).toBe(0)

    // A browser with an older list can't bring the newer item back.
    await phone.post('/api/notifications/seen', { through: older })
    expect(await unreadCount(laptop)).toBe(0)

    const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, 'bell@example.com'))
    const [parser] = await t.db.select({ id: parsers.id }).from(parsers).where(eq(parsers.userId, user!.id))
    await t.db.insert(parsedEmails).values({ userId: user!.id, parserId: parser!.id, emailSubject: 'Later', status: 'failed', processedAt: new Date(now - 60_000) })
    expect(await unreadCount(phone)).toBe(1)
  })

  it("is each user's own, and refuses a bad time", async () => {
    const now = Date.now()
    const alice = await userWithFailures('alice-bell@example.com', [new Date(now - 60_000).toISOString()])
    const bob = await userWithFailures('bob-bell@example.com', [new Date(now - 60_000).toISOString()])
    await alice.post('/api/notifications/seen', { through: new Date(now).toISOString() })
    expect(await unreadCount(alice)).toBe(0)
    expect(await unreadCount(bob)).toBe(1)
    const bad = await bob.post('/api/notifications/seen', { through: 'yesterday' })
    expect(bad.status).toBe(400)
    expect(bad.json.error.message).toContain('Give the time of the newest notification seen')
  })
})
