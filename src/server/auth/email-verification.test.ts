import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { users } from '../db/schema'
import { CONFIRM_SUBJECT, confirmationLink, confirmEmail, signUpAndIn, TEST_APP_URL, VALID_PASSWORD, type HttpClient } from '../testing/test-app'
import { deliverMail, useGoogleTestApp } from '../testing/test-emulator'
import { secretFromTotpUri, totpCode } from '../testing/totp'

const app = useGoogleTestApp()

/** 'Sign in with Google' as the browser does it, consenting as `account` on the emulator. */
async function signInWithGoogle(client: HttpClient, account: string) {
  const start = await client.post('/api/auth/sign-in/social', { provider: 'google', callbackURL: '/dashboard' })
  expect(start.status).toBe(200)
  const decision = await app.google.control('/oauth/consent', { body: { authUrl: start.json.url, account } })
  const redirect = new URL(decision.json.redirectUrl ?? decision.json.location ?? decision.json.url)
  const back = await client.get(redirect.pathname + redirect.search)
  return new URL(back.headers.get('location') ?? '/', TEST_APP_URL)
}

describe('confirming the address', () => {
  it('mails a link at sign-up; until it is opened the password does not sign in', async () => {
    const client = app.t.client()
    await client.post('/api/auth/sign-up/email', { email: 'new@example.com', password: VALID_PASSWORD, name: 'N' })
    expect(confirmationLink(app.t, 'new@example.com')).toMatch(/\/api\/auth\/verify-email\?token=.+callbackURL=%2Fdashboard/)

    const before = app.t.sentMail.length
    const early = await client.post('/api/auth/sign-in/email', { email: 'new@example.com', password: VALID_PASSWORD })
    expect(early.status).toBe(403)
    expect(early.json.code).toBe('EMAIL_NOT_VERIFIED')
    // The attempt mails a fresh link, which lands on the dashboard too.
    expect(app.t.sentMail.slice(before).map((m) => m.subject)).toEqual([CONFIRM_SUBJECT])
    expect(confirmationLink(app.t, 'new@example.com')).toContain('callbackURL=%2Fdashboard')
  })

  it('the link confirms the address, signs the user in and lands on /dashboard', async () => {
    const signUp = app.t.client()
    await signUp.post('/api/auth/sign-up/email', { email: 'link@example.com', password: VALID_PASSWORD, name: 'L' })
    const browser = app.t.client()
    const landing = await confirmEmail(app.t, browser, 'link@example.com')
    expect(landing.headers.get('location')).toBe('/dashboard')
    expect((await browser.get('/api/account')).json.account.email).toBe('link@example.com')
    expect((await app.t.client().post('/api/auth/sign-in/email', { email: 'link@example.com', password: VALID_PASSWORD })).status).toBe(200)
  })

  it('resends the link on request, and answers alike for unknown addresses', async () => {
    await app.t.client().post('/api/auth/sign-up/email', { email: 'resend@example.com', password: VALID_PASSWORD, name: 'R' })
    const before = app.t.sentMail.length
    const known = await app.t.client().post('/api/auth/send-verification-email', { email: 'resend@example.com' })
    const unknown = await app.t.client().post('/api/auth/send-verification-email', { email: 'nobody-here@example.com' })
    expect(known.status).toBe(200)
    expect(unknown.json).toEqual(known.json)
    expect(app.t.sentMail.slice(before).map((m) => m.to)).toEqual(['resend@example.com'])
  })
})

describe('Google sign-in and unconfirmed accounts', () => {
  it("an owner's verified Google sign-in replaces a squatter's unconfirmed account on their address", async () => {
    await app.t.client().post('/api/auth/sign-up/email', { email: 'other@mailrow.test', password: 'Squatter-Pass1', name: 'Squatter' })
    const [squatter] = await app.t.db.select().from(users).where(eq(users.email, 'other@mailrow.test'))

    const owner = app.t.client()
    const landing = await signInWithGoogle(owner, 'other@mailrow.test')
    expect(landing.pathname).toBe('/dashboard')
    expect(landing.searchParams.get('error')).toBeNull()
    const account = (await owner.get('/api/account')).json.account
    expect(account.email).toBe('other@mailrow.test')
    expect(account.id).not.toBe(squatter!.id)
    expect(account.hasPassword).toBe(false)
    // The squatter's password no longer opens anything.
    expect((await app.t.client().post('/api/auth/sign-in/email', { email: 'other@mailrow.test', password: 'Squatter-Pass1' })).status).toBe(401)
  })

  it('links Google to a confirmed password account with the same address', async () => {
    const client = await signUpAndIn(app.t, 'demo@mailrow.test')
    const { id } = (await client.get('/api/account')).json.account
    const browser = app.t.client()
    const landing = await signInWithGoogle(browser, 'demo@mailrow.test')
    expect(landing.pathname).toBe('/dashboard')
    const account = (await browser.get('/api/account')).json.account
    expect(account.id).toBe(id)
    expect(account.signInMethods.sort()).toEqual(['credential', 'google'])
  })

  it('asks for the second factor after Google too', async () => {
    await deliverMail(app.google, 'guarded@mailrow.test', { from: 'a@b.test', subject: 'hi', text: 'x' })
    const client = await signUpAndIn(app.t, 'guarded@mailrow.test')
    const enable = await client.post('/api/auth/two-factor/enable', { password: VALID_PASSWORD })
    const secret = secretFromTotpUri(enable.json.totpURI)
    await client.post('/api/auth/two-factor/verify-totp', { code: totpCode(secret) })

    const browser = app.t.client()
    const landing = await signInWithGoogle(browser, 'guarded@mailrow.test')
    expect(landing.pathname).toBe('/two-factor')
    expect((await browser.get('/api/account')).status).toBe(401)
    expect((await browser.post('/api/auth/two-factor/verify-totp', { code: totpCode(secret) })).status).toBe(200)
    expect((await browser.get('/api/account')).status).toBe(200)
  })
})
