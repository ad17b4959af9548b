import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devOutbox, parsedEmails, parsers, sessions, users, verifications } from '../../db/schema'
import PgBoss from 'pg-boss'
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

describe('account deletion leaves nothing behind', () => {
  it('removes outbox mail to the address, pending reset tokens and OAuth states, and queued jobs', async () => {
    const client = await signUpAndIn(t, 'traces@example.com')
    await signUpAndIn(t, 'stays@example.com')
    const userId = await idOf('traces@example.com')
    const otherId = await idOf('stays@example.com')
    for (const email of ['traces@example.com', 'stays@example.com']) {
      await t.client().post('/api/auth/request-password-reset', { email, redirectTo: '/reset-password' })
      await t.db.insert(devOutbox).values({ to: email, subject: 'Reset your Mailrow password', text: 'link' })
    }
    await t.db.insert(verifications).values({
      id: 'state-1',
      identifier: 'gmail-connect:abc',
      value: JSON.stringify({ userId, codeVerifier: 'v' }),
      expiresAt: new Date(Date.now() + 60_000),
    })
    // Any queued job that names the user.
    const USER_JOB = 'test.user-job'
    const boss = new PgBoss({ db: t.deps.database.sql as PgBoss.Db, schema: 'pgboss', supervise: false, schedule: false })
    await boss.start()
    try {
      await boss.createQueue(USER_JOB)
      await boss.send(USER_JOB, { userId }, { singletonKey: userId })
      await boss.send(USER_JOB, { userId: otherId }, { singletonKey: otherId })
    } finally {
      await boss.stop({ graceful: false })
    }
    const jobsFor = async (id: string) =>
      (await t.deps.database.sql.executeSql(`select id from pgboss.job where data->>'userId' = $1`, [id])).rows.length

    expect(await jobsFor(userId)).toBe(1)
    expect((await client.post('/api/account/delete', { password: VALID_PASSWORD })).status).toBe(204)

    expect(await t.db.select().from(devOutbox).where(eq(devOutbox.to, 'traces@example.com'))).toEqual([])
    const leftovers = (await t.db.select().from(verifications)).filter((v) => v.value.includes(userId))
    expect(leftovers).toEqual([])
    expect(await jobsFor(userId)).toBe(0)
    // Someone else's mail, token and job stay.
    expect(await t.db.select().from(devOutbox).where(eq(devOutbox.to, 'stays@example.com'))).toHaveLength(1)
    expect((await t.db.select().from(verifications)).some((v) => v.value === otherId)).toBe(true)
    expect(await jobsFor(otherId)).toBe(1)
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
