import { BACKUP_CODE_ALPHABET } from './backup-codes'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accounts, rateLimits, users } from '../db/schema'
import { confirmEmail, createTestApp, signUpAndIn, TEST_IP_HEADER, VALID_PASSWORD, type TestApp } from '../testing/test-app'
import { secretFromTotpUri, totpCode } from '../testing/totp'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ rateLimits: { signIn: { window: 60, max: 4 } } })
})
afterAll(async () => {
  await t.close()
})

describe('sign-up', () => {
  it.each([
    [{ email: 'not-an-email', password: VALID_PASSWORD }, 'Invalid email address'],
    [{ email: `${'a'.repeat(250)}@example.com`, password: VALID_PASSWORD }, 'Email too long'],
    [{ email: 'short@example.com', password: 'Ab1' }, 'Password must be at least 8 characters'],
    [{ email: 'long@example.com', password: `Aa1${'x'.repeat(130)}` }, 'Password too long'],
    [{ email: 'upper@example.com', password: 'lowercase1' }, 'Password must contain at least one uppercase letter'],
    [{ email: 'lower@example.com', password: 'UPPERCASE1' }, 'Password must contain at least one lowercase letter'],
    [{ email: 'digit@example.com', password: 'NoDigitsHere' }, 'Password must contain at least one number'],
  ])('rejects what the form rejects: %j', async (body, message) => {
    const response = await t.client().post('/api/auth/sign-up/email', { ...body, name: 'x' })
    expect(response.status).toBe(400)
    expect(response.json.message).toBe(message)
  })

  it('creates a free-plan account without signing in, and the plan cannot be chosen at sign-up', async () => {
    const client = t.client()
    const response = await client.post('/api/auth/sign-up/email', {
      email: '  New.User@Example.com ',
      password: VALID_PASSWORD,
      name: 'New',
      plan: 'pro',
    })
    expect(response.status).toBe(200)
    expect(response.json.token).toBeNull()
    const [user] = await t.db.select().from(users).where(eq(users.email, 'new.user@example.com'))
    expect(user?.plan).toBe('free')
    expect((await client.get('/api/account')).status).toBe(401)
  })

  it('stores the password as an Argon2id hash', async () => {
    await signUpAndIn(t, 'hash@example.com')
    const [row] = await t.db
      .select({ password: accounts.password })
      .from(accounts)
      .innerJoin(users, eq(users.id, accounts.userId))
      .where(eq(users.email, 'hash@example.com'))
    expect(row?.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
  })

  it('answers a sign-up for a taken email like a new one, and tells the owner by mail', async () => {
    await signUpAndIn(t, 'taken@example.com')
    const before = t.sentMail.length
    const response = await t.client().post('/api/auth/sign-up/email', { email: 'taken@example.com', password: 'Other-Pass9', name: 'x' })
    expect(response.status).toBe(200)
    expect(response.json.user.email).toBe('taken@example.com')
    expect(t.sentMail.slice(before).map((m) => m.to)).toEqual(['taken@example.com'])
  })
})

describe('sign-in', () => {
  it('trims and lowercases the email, sets an httpOnly SameSite cookie and returns the session', async () => {
    const signUp = t.client()
    await signUp.post('/api/auth/sign-up/email', { email: 'case@example.com', password: VALID_PASSWORD, name: 'x' })
    await confirmEmail(t, signUp, 'case@example.com')
    const client = t.client()
    const response = await client.post('/api/auth/sign-in/email', { email: '  CASE@Example.COM ', password: VALID_PASSWORD })
    expect(response.status).toBe(200)
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('mailrow.session_token='))
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    const account = await client.get('/api/account')
    expect(account.status).toBe(200)
    expect(account.json.account).toMatchObject({ email: 'case@example.com', plan: 'free', twoFactorEnabled: false, hasPassword: true })
  })

  it('applies the login form rules on the server', async () => {
    const badEmail = await t.client().post('/api/auth/sign-in/email', { email: 'nope', password: 'whatever' })
    expect(badEmail.json.message).toBe('Please enter a valid email address')
    const shortPassword = await t.client().post('/api/auth/sign-in/email', { email: 'a@b.co', password: '12345' })
    expect(shortPassword.json.message).toBe('Password must be at least 6 characters')
  })

  it('gives the same answer for an unknown email and a wrong password', async () => {
    await t.client().post('/api/auth/sign-up/email', { email: 'known@example.com', password: VALID_PASSWORD, name: 'x' })
    const wrongPassword = await t.client().post('/api/auth/sign-in/email', { email: 'known@example.com', password: 'Wrong-Pass1' }, { [TEST_IP_HEADER]: '192.0.2.10' })
    const unknown = await t.client().post('/api/auth/sign-in/email', { email: 'ghost@example.com', password: 'Wrong-Pass1' }, { [TEST_IP_HEADER]: '192.0.2.10' })
    expect(wrongPassword.status).toBe(unknown.status)
    expect(wrongPassword.json).toEqual(unknown.json)
    expect(unknown.json.message).toBe('Invalid email or password')
  })

  it('rate-limits repeated attempts per caller, with the counters kept in the database', async () => {
    // An address of its own: the per-account delay (throttle.test.ts) must not get in the way here.
    const attempt = (ip: string) =>
      t.client().post('/api/auth/sign-in/email', { email: 'ip-limit@example.com', password: 'Wrong-Pass1' }, { [TEST_IP_HEADER]: ip })
    const statuses = []
    for (let i = 0; i < 6; i++) statuses.push((await attempt('192.0.2.99')).status)
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401])
    expect(statuses.slice(4)).toEqual([429, 429])
    expect((await attempt('192.0.2.100')).status).toBe(401)
    const counters = await t.db.select().from(rateLimits)
    expect(counters.some((row) => row.key.includes('192.0.2.99'))).toBe(true)
  })

  it('signs out, after which the session no longer works', async () => {
    const client = await signUpAndIn(t, 'signout@example.com')
    expect((await client.get('/api/account')).status).toBe(200)
    expect((await client.post('/api/auth/sign-out')).status).toBe(200)
    expect((await client.get('/api/account')).status).toBe(401)
  })
})

describe('two-factor authentication', () => {
  it('enrols TOTP, then asks for the code at sign-in and accepts a valid one', async () => {
    const client = await signUpAndIn(t, 'twofa@example.com')
    const enable = await client.post('/api/auth/two-factor/enable', { password: VALID_PASSWORD })
    expect(enable.status).toBe(200)
    expect(enable.json.backupCodes.length).toBeGreaterThan(0)
    // Without look-alike characters: the codes from our alphabet, the key base32 (A-Z, 2-7).
    for (const code of enable.json.backupCodes) expect(code).toMatch(new RegExp(`^[${BACKUP_CODE_ALPHABET}]{5}-[${BACKUP_CODE_ALPHABET}]{5}$`))
    expect(new URL(enable.json.totpURI).searchParams.get('secret')).toMatch(/^[A-Z2-7]+=*$/)
    const secret = secretFromTotpUri(enable.json.totpURI)
    const verify = await client.post('/api/auth/two-factor/verify-totp', { code: totpCode(secret) })
    expect(verify.status).toBe(200)
    expect((await client.get('/api/account')).json.account.twoFactorEnabled).toBe(true)

    const fresh = t.client()
    const signIn = await fresh.post('/api/auth/sign-in/email', { email: 'twofa@example.com', password: VALID_PASSWORD })
    expect(signIn.json.twoFactorRedirect).toBe(true)
    expect((await fresh.get('/api/account')).status).toBe(401)

    const wrong = await fresh.post('/api/auth/two-factor/verify-totp', { code: '000000' })
    expect(wrong.status).toBe(401)
    const right = await fresh.post('/api/auth/two-factor/verify-totp', { code: totpCode(secret) })
    expect(right.status).toBe(200)
    expect((await fresh.get('/api/account')).status).toBe(200)
  })

  it('accepts a backup code instead of the TOTP code, once', async () => {
    const client = await signUpAndIn(t, 'backup@example.com')
    const enable = await client.post('/api/auth/two-factor/enable', { password: VALID_PASSWORD })
    await client.post('/api/auth/two-factor/verify-totp', { code: totpCode(secretFromTotpUri(enable.json.totpURI)) })
    const code: string = enable.json.backupCodes[0]

    const first = t.client()
    await first.post('/api/auth/sign-in/email', { email: 'backup@example.com', password: VALID_PASSWORD })
    expect((await first.post('/api/auth/two-factor/verify-backup-code', { code })).status).toBe(200)

    const second = t.client()
    await second.post('/api/auth/sign-in/email', { email: 'backup@example.com', password: VALID_PASSWORD })
    expect((await second.post('/api/auth/two-factor/verify-backup-code', { code })).status).toBe(401)
  })
})

describe('password reset', () => {
  it('mails a link whose token sets a new password; unknown emails get the same answer and no mail', async () => {
    await signUpAndIn(t, 'forgot@example.com')
    const before = t.sentMail.length
    const known = await t.client().post('/api/auth/request-password-reset', { email: 'forgot@example.com', redirectTo: '/reset-password' })
    const unknown = await t.client().post('/api/auth/request-password-reset', { email: 'nobody@example.com', redirectTo: '/reset-password' })
    expect(known.status).toBe(200)
    expect(unknown.json).toEqual(known.json)
    const mail = t.sentMail.slice(before)
    expect(mail).toHaveLength(1)
    expect(mail[0]!.to).toBe('forgot@example.com')

    const link = mail[0]!.text.match(/https?:\/\/\S+/)![0]
    const token = new URL(link).pathname.split('/').pop()!
    const reset = await t.client().post('/api/auth/reset-password', { token, newPassword: 'Brand-New-Pass2' })
    expect(reset.status).toBe(200)
    const signIn = await t.client().post('/api/auth/sign-in/email', { email: 'forgot@example.com', password: 'Brand-New-Pass2' })
    expect(signIn.status).toBe(200)
    const reuse = await t.client().post('/api/auth/reset-password', { token, newPassword: 'Another-Pass3' })
    expect(reuse.status).toBe(400)
  })
})

describe('JWKS', () => {
  it('publishes the signing keys at /.well-known/jwks.json', async () => {
    await signUpAndIn(t, 'jwt@example.com')
    const response = await t.app.request('/.well-known/jwks.json')
    expect(response.status).toBe(200)
    const body = (await response.json()) as { keys: Array<{ kty: string; kid: string }> }
    expect(body.keys.length).toBeGreaterThan(0)
    expect(body.keys[0]).toMatchObject({ kty: 'OKP' })
    expect(JSON.stringify(body)).not.toMatch(/"d"/)
  })
})
