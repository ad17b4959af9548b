import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sessions, users } from '../db/schema'
import { createTestApp, signUpAndIn, VALID_PASSWORD, type HttpClient, type TestApp } from '../testing/test-app'
import { SessionCache } from './session-cache'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

async function signIn(email: string, password = VALID_PASSWORD) {
  const client = t.client()
  expect((await client.post('/api/auth/sign-in/email', { email, password })).status).toBe(200)
  return client
}

/** Reads with this client until its session is in the cache, and proves it is served from there. */
async function warm(client: HttpClient) {
  expect((await client.get('/api/account')).status).toBe(200)
  expect((await client.get('/api/auth/get-session')).json?.user).toBeTruthy()
  expect(t.deps.sessionCache.get(t.deps.sessionCache.keyOf(new Headers({ cookie: cookieHeader(client) })))).toBeTruthy()
}

function cookieHeader(client: HttpClient) {
  return [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
}

async function refused(client: HttpClient) {
  expect((await client.get('/api/account')).status).toBe(401)
  expect((await client.get('/api/auth/get-session')).json).toBeNull()
}

async function userId(email: string) {
  const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email))
  return row!.id
}

describe('the session cache', () => {
  it('answers a signed-in request without looking the session up again', async () => {
    const client = await signUpAndIn(t, 'cached@example.com')
    await warm(client)
    // Deleted behind the app's back (as another server process would): this process still has it
    // for at most SESSION_CACHE_SECONDS. This is the trade-off decision 018 accepts.
    await t.db.delete(sessions).where(eq(sessions.userId, await userId('cached@example.com')))
    expect((await client.get('/api/account')).status).toBe(200)
    t.deps.sessionCache.clear()
    expect((await client.get('/api/account')).status).toBe(401)
  })

  it('refuses a session revoked from another device on the very next request', async () => {
    await signUpAndIn(t, 'revoke-one@example.com')
    const laptop = await signIn('revoke-one@example.com')
    const phone = await signIn('revoke-one@example.com')
    await warm(phone)
    const phoneSession = (await phone.get('/api/sessions')).json.sessions.find((s: { isCurrent: boolean }) => s.isCurrent)
    expect((await laptop.send('DELETE', `/api/sessions/${phoneSession.id}`)).status).toBe(204)
    await refused(phone)
    expect((await laptop.get('/api/account')).status).toBe(200)
  })

  it('refuses the other sessions at once after "sign out of other sessions" and "sign out everywhere"', async () => {
    await signUpAndIn(t, 'revoke-all@example.com')
    const laptop = await signIn('revoke-all@example.com')
    const phone = await signIn('revoke-all@example.com')
    await warm(phone)
    await warm(laptop)
    expect((await laptop.post('/api/sessions/revoke-others')).status).toBe(204)
    await refused(phone)
    expect((await laptop.get('/api/account')).status).toBe(200)

    const tablet = await signIn('revoke-all@example.com')
    await warm(tablet)
    expect((await laptop.post('/api/sessions/revoke-all')).status).toBe(204)
    await refused(tablet)
  })

  it('refuses the other sessions at once after a password change', async () => {
    await signUpAndIn(t, 'password@example.com')
    const laptop = await signIn('password@example.com')
    const phone = await signIn('password@example.com')
    await warm(phone)
    const change = await laptop.post('/api/auth/change-password', { currentPassword: VALID_PASSWORD, newPassword: 'New-Secret-42' })
    expect(change.status).toBe(200)
    await refused(phone)
  })

  it("refuses a session ended through Better Auth's own endpoints (revoke-session, sign-out)", async () => {
    await signUpAndIn(t, 'better-auth@example.com')
    const laptop = await signIn('better-auth@example.com')
    const phone = await signIn('better-auth@example.com')
    await warm(phone)
    const phoneToken = (await phone.get('/api/auth/get-session')).json.session.token
    expect((await laptop.post('/api/auth/revoke-session', { token: phoneToken })).status).toBe(200)
    await refused(phone)

    // A stolen copy of a signed-out cookie is refused too.
    await warm(laptop)
    const copy = cookieHeader(laptop)
    expect((await laptop.post('/api/auth/sign-out')).status).toBe(200)
    const replay = await t.app.request('/api/account', { headers: { cookie: copy, origin: 'http://localhost:3000' } })
    expect(replay.status).toBe(401)
  })

  it('refuses every session of a deleted account at once', async () => {
    const laptop = await signUpAndIn(t, 'deleted@example.com')
    const phone = await signIn('deleted@example.com')
    await warm(phone)
    expect((await laptop.post('/api/account/delete', { password: VALID_PASSWORD })).status).toBe(204)
    await refused(phone)
  })
})

describe('SessionCache', () => {
  const value = (userId: string, expiresAt = new Date(Date.now() + 60_000)) =>
    ({ session: { id: 's', token: 't', userId, expiresAt, createdAt: new Date(), updatedAt: new Date() }, user: { id: userId } }) as never

  it('does not store a lookup that started before an invalidation (it may have read a revoked session)', () => {
    const cache = new SessionCache('c', 10_000)
    const mark = cache.mark()
    cache.forgetUser('u1')
    cache.set('k', value('u1'), mark)
    expect(cache.get('k')).toBeUndefined()
    cache.set('k', value('u1'), cache.mark())
    expect(cache.get('k')).toBeTruthy()
  })

  it('forgets an entry at its TTL or when the session itself expires', () => {
    const cache = new SessionCache('c', 10_000)
    const now = Date.now()
    cache.set('k', value('u1'), cache.mark(), now)
    expect(cache.get('k', now + 9_999)).toBeTruthy()
    expect(cache.get('k', now + 10_000)).toBeUndefined()
    cache.set('k2', value('u1', new Date(now + 1_000)), cache.mark(), now)
    expect(cache.get('k2', now + 1_000)).toBeUndefined()
  })

  it('reads its key from the session cookie only', () => {
    const cache = new SessionCache('mailrow.session_token', 10_000)
    expect(cache.keyOf(new Headers({ cookie: 'a=1; mailrow.session_token=abc.def; b=2' }))).toBe('abc.def')
    expect(cache.keyOf(new Headers({ cookie: 'xmailrow.session_token=abc' }))).toBeUndefined()
    expect(cache.keyOf(new Headers())).toBeUndefined()
  })
})
