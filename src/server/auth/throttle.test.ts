import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, signUpAndIn, TEST_IP_HEADER, VALID_PASSWORD, type TestApp } from '../testing/test-app'
import { secretFromTotpUri, totpCode } from '../testing/totp'
import { claimAttempt, FREE_FAILURES, MAX_DELAY_SECONDS } from './throttle'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

const ips = Array.from({ length: 8 }, (_, i) => `203.0.113.${i + 1}`)

describe('per-account throttling of sign-in', () => {
  it('checks only the first few of 64 wrong passwords sent from 8 addresses within a minute', async () => {
    await signUpAndIn(t, 'target@example.com')
    const statuses: number[] = []
    for (let i = 0; i < 64; i++) {
      const response = await t
        .client()
        .post('/api/auth/sign-in/email', { email: 'target@example.com', password: `Guess-${i}x` }, { [TEST_IP_HEADER]: ips[i % 8]! })
      statuses.push(response.status)
    }
    const checked = statuses.filter((s) => s === 401).length
    expect(checked).toBeGreaterThanOrEqual(FREE_FAILURES)
    expect(checked).toBeLessThanOrEqual(FREE_FAILURES + 4)
    expect(statuses.filter((s) => s === 429).length).toBe(64 - checked)

    // Even the right password is not checked while the delay runs, and the answer says how long.
    const refused = await t.client().post('/api/auth/sign-in/email', { email: 'target@example.com', password: VALID_PASSWORD })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(MAX_DELAY_SECONDS)
    expect(refused.json.message).toMatch(/^Too many attempts\. Try again in \d+ seconds?\.$/)
  })

  it("does not lock the owner out: their known device keeps its own counter", async () => {
    const owner = await signUpAndIn(t, 'owner@example.com')
    await owner.post('/api/auth/sign-out')
    for (let i = 0; i < 20; i++) {
      await t.client().post('/api/auth/sign-in/email', { email: 'owner@example.com', password: `Guess-${i}x` }, { [TEST_IP_HEADER]: ips[i % 8]! })
    }
    const stranger = await t.client().post('/api/auth/sign-in/email', { email: 'owner@example.com', password: VALID_PASSWORD })
    expect(stranger.status).toBe(429)
    const back = await owner.post('/api/auth/sign-in/email', { email: 'owner@example.com', password: VALID_PASSWORD })
    expect(back.status).toBe(200)
  })
})

describe('the delay', () => {
  it('doubles after the free attempts and stops growing at the cap', async () => {
    const key = `unit:${Math.random()}`
    const start = new Date('2026-01-01T00:00:00Z')
    const at = (seconds: number) => new Date(start.getTime() + seconds * 1000)
    for (let i = 0; i < FREE_FAILURES; i++) expect((await claimAttempt(t.db, key, start)).allowed).toBe(true)
    expect(await claimAttempt(t.db, key, start)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect((await claimAttempt(t.db, key, at(1))).allowed).toBe(true)
    expect(await claimAttempt(t.db, key, at(1))).toEqual({ allowed: false, retryAfterSeconds: 2 })
    let now = 1
    for (let i = 0; i < 20; i++) {
      const claim = await claimAttempt(t.db, key, at(now))
      if (!claim.allowed) now += claim.retryAfterSeconds
    }
    const capped = await claimAttempt(t.db, key, at(now))
    expect(capped).toEqual({ allowed: false, retryAfterSeconds: MAX_DELAY_SECONDS })
    // A day without failures and the counter starts over.
    expect((await claimAttempt(t.db, key, at(now + 24 * 60 * 60 + 1))).allowed).toBe(true)
  })
})

describe('per-account throttling of the second factor', () => {
  it('refuses further TOTP guesses after a few wrong ones, whatever the address', async () => {
    const client = await signUpAndIn(t, 'totp-guess@example.com')
    const enable = await client.post('/api/auth/two-factor/enable', { password: VALID_PASSWORD })
    await client.post('/api/auth/two-factor/verify-totp', { code: totpCode(secretFromTotpUri(enable.json.totpURI)) })

    const attacker = t.client()
    await attacker.post('/api/auth/sign-in/email', { email: 'totp-guess@example.com', password: VALID_PASSWORD })
    const statuses: number[] = []
    for (let i = 0; i < 8; i++) {
      statuses.push((await attacker.post('/api/auth/two-factor/verify-totp', { code: String(100000 + i) }, { [TEST_IP_HEADER]: ips[i]! })).status)
    }
    expect(statuses.slice(0, FREE_FAILURES)).toEqual(Array(FREE_FAILURES).fill(401))
    expect(statuses.at(-1)).toBe(429)
  })
})

describe('per-account throttling of account deletion', () => {
  it('stops a stolen session from testing passwords at /api/account/delete', async () => {
    const thief = await signUpAndIn(t, 'stolen@example.com')
    const statuses: number[] = []
    for (let i = 0; i < 8; i++) statuses.push((await thief.post('/api/account/delete', { password: `Guess-${i}x` })).status)
    expect(statuses.slice(0, FREE_FAILURES)).toEqual(Array(FREE_FAILURES).fill(403))
    expect(statuses.at(-1)).toBe(429)
    expect((await thief.get('/api/account')).status).toBe(200)
  })
})
