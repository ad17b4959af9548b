import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accounts } from '../../db/schema'
import { createTestApp, signUpAndIn, VALID_PASSWORD, type TestApp } from '../../testing/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1'

async function signIn(email: string, userAgent: string, password = VALID_PASSWORD) {
  const client = t.client()
  const response = await client.post('/api/auth/sign-in/email', { email, password }, { 'user-agent': userAgent })
  expect(response.status).toBe(200)
  return client
}

describe('password rules', () => {
  it('refuses a weak new password on reset and on change', async () => {
    const client = await signUpAndIn(t, 'weak@example.com')
    const change = await client.post('/api/auth/change-password', { currentPassword: VALID_PASSWORD, newPassword: 'aaaaaa' })
    expect(change.status).toBe(400)
    expect(change.json.message).toBe('Password must be at least 8 characters')

    await t.client().post('/api/auth/request-password-reset', { email: 'weak@example.com', redirectTo: '/reset-password' })
    const link = t.sentMail.at(-1)!.text.match(/https?:\/\/\S+/)![0]
    const token = new URL(link).pathname.split('/').pop()!
    const reset = await t.client().post('/api/auth/reset-password', { token, newPassword: 'aaaaaa' })
    expect(reset.status).toBe(400)
    expect((await t.client().post('/api/auth/sign-in/email', { email: 'weak@example.com', password: 'aaaaaa' })).status).toBe(401)
  })
})

describe('changing the password', () => {
  it('ends every other session, even when the client asks to keep them', async () => {
    await signUpAndIn(t, 'change@example.com')
    const laptop = await signIn('change@example.com', CHROME)
    const phone = await signIn('change@example.com', SAFARI)
    const change = await laptop.post('/api/auth/change-password', { currentPassword: VALID_PASSWORD, newPassword: 'New-Secret-42', revokeOtherSessions: false })
    expect(change.status).toBe(200)
    expect((await phone.get('/api/account')).status).toBe(401)
    expect((await laptop.get('/api/account')).status).toBe(200)
  })
})

describe('sessions', () => {
  it('lists the sessions with device and last use, and signs one out', async () => {
    await signUpAndIn(t, 'devices@example.com')
    const laptop = await signIn('devices@example.com', CHROME)
    const phone = await signIn('devices@example.com', SAFARI)
    const { sessions } = (await laptop.get('/api/sessions')).json
    const devices = sessions.map((s: { device: string }) => s.device)
    expect(devices).toEqual(expect.arrayContaining(['Chrome on Windows', 'Safari on iOS']))
    const current = sessions.find((s: { isCurrent: boolean }) => s.isCurrent)
    expect(current.device).toBe('Chrome on Windows')
    expect(Date.parse(current.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000)

    const phoneSession = sessions.find((s: { device: string }) => s.device === 'Safari on iOS')
    expect((await laptop.send('DELETE', `/api/sessions/${phoneSession.id}`)).status).toBe(204)
    expect((await phone.get('/api/account')).status).toBe(401)
  })

  it("can't touch another user's session", async () => {
    const alice = await signUpAndIn(t, 'alice-s@example.com')
    const bob = await signUpAndIn(t, 'bob-s@example.com')
    const [bobSession] = (await bob.get('/api/sessions')).json.sessions
    expect((await alice.send('DELETE', `/api/sessions/${bobSession.id}`)).status).toBe(404)
    expect((await bob.get('/api/account')).status).toBe(200)
  })

  it('signs out of the other sessions, or everywhere', async () => {
    await signUpAndIn(t, 'everywhere@example.com')
    const laptop = await signIn('everywhere@example.com', CHROME)
    const phone = await signIn('everywhere@example.com', SAFARI)
    expect((await laptop.post('/api/sessions/revoke-others')).status).toBe(204)
    expect((await phone.get('/api/account')).status).toBe(401)
    expect((await laptop.get('/api/account')).status).toBe(200)

    const tablet = await signIn('everywhere@example.com', SAFARI)
    expect((await laptop.post('/api/sessions/revoke-all')).status).toBe(204)
    expect((await laptop.get('/api/account')).status).toBe(401)
    expect((await tablet.get('/api/account')).status).toBe(401)
  })
})

describe('two-factor for Google-only accounts', () => {
  it('enables 2FA without a password when the account has none', async () => {
    const client = await signUpAndIn(t, 'google-only@example.com')
    // As if the account came from Google: no password on it.
    const { id } = (await client.get('/api/account')).json.account
    await t.db.update(accounts).set({ password: null }).where(eq(accounts.userId, id))
    const enable = await client.post('/api/auth/two-factor/enable', {})
    expect(enable.status).toBe(200)
    expect(enable.json.totpURI).toMatch(/^otpauth:/)
  })

  it('still asks a password account for its password', async () => {
    const client = await signUpAndIn(t, 'has-password@example.com')
    expect((await client.post('/api/auth/two-factor/enable', {})).status).toBe(400)
  })
})
