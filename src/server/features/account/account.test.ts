import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parsedEmails, parsers, sessions, users } from '../../db/schema'
import { createTestApp, signUpAndIn, VALID_PASSWORD, type TestApp } from '../../testing/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

const idOf = async (email: string) => (await t.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id

describe('GET /api/account', () => {
  it("shows this month's usage against the plan's allowance", async () => {
    const client = await signUpAndIn(t, 'usage@example.com')
    const userId = await idOf('usage@example.com')
    const [parser] = await t.db.insert(parsers).values({ userId, name: 'P' }).returning()
    const now = new Date()
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15))
    await t.db.insert(parsedEmails).values([
      { userId, parserId: parser!.id, status: 'success' },
      { userId, parserId: parser!.id, status: 'failed' },
      { userId, parserId: parser!.id, status: 'quota_exceeded' },
      { userId, parserId: parser!.id, status: 'success', processedAt: lastMonth },
    ])
    const { usage } = (await client.get('/api/account')).json.account
    expect(usage).toEqual({ month: now.toISOString().slice(0, 7), used: 2, limit: 50 })
    await t.db.update(users).set({ plan: 'starter' }).where(eq(users.id, userId))
    expect((await client.get('/api/account')).json.account.usage.limit).toBe(500)
  })
})

describe('POST /api/account/delete', () => {
  it('needs the password, then erases the user and everything of theirs', async () => {
    const client = await signUpAndIn(t, 'leaving@example.com')
    const userId = await idOf('leaving@example.com')
    const [parser] = await t.db.insert(parsers).values({ userId, name: 'P' }).returning()
    await t.db.insert(parsedEmails).values({ userId, parserId: parser!.id, status: 'success' })

    const wrong = await client.post('/api/account/delete', { password: 'Wrong-Pass1' })
    expect(wrong.status).toBe(403)
    expect(wrong.json.error.message).toBe('Incorrect password')

    expect((await client.post('/api/account/delete', { password: VALID_PASSWORD })).status).toBe(204)
    expect(await t.db.select().from(users).where(eq(users.id, userId))).toEqual([])
    expect(await t.db.select().from(parsers).where(eq(parsers.userId, userId))).toEqual([])
    expect(await t.db.select().from(parsedEmails).where(eq(parsedEmails.userId, userId))).toEqual([])
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, userId))).toEqual([])
    expect((await client.get('/api/account')).status).toBe(401)
  })
})

describe('GET /api/notifications', () => {
  it("lists the week's failed emails, newest first, and nobody else's", async () => {
    const client = await signUpAndIn(t, 'bell@example.com')
    const userId = await idOf('bell@example.com')
    const [parser] = await t.db.insert(parsers).values({ userId, name: 'Invoices' }).returning()
    await t.db.insert(parsedEmails).values([
      { userId, parserId: parser!.id, status: 'success', emailSubject: 'fine' },
      { userId, parserId: parser!.id, status: 'failed', emailSubject: 'Invoice 9', error: 'no field was found in this email' },
      { userId, parserId: parser!.id, status: 'failed', emailSubject: 'ancient', processedAt: new Date(Date.now() - 30 * 86_400_000) },
    ])
    const items = (await client.get('/api/notifications')).json.items
    expect(items).toHaveLength(1)
    expect(items[0]).toMatchObject({ kind: 'failure', title: 'Invoices: failed', message: 'Invoice 9 — no field was found in this email' })
    const stranger = await signUpAndIn(t, 'stranger-bell@example.com')
    expect((await stranger.get('/api/notifications')).json.items).toEqual([])
  })
})
