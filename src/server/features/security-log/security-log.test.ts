import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { securityEvents } from '../../db/schema'
import { createTestApp, signUpAndIn, TEST_IP_HEADER, VALID_PASSWORD, type TestApp } from '../../testing/test-app'
import { secretFromTotpUri, totpCode } from '../../testing/totp'
import { purgeExpiredData } from '../maintenance/maintenance.service'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'
const types = async (client: Awaited<ReturnType<typeof signUpAndIn>>) =>
  ((await client.get('/api/security-log')).json.events as Array<{ type: string }>).map((e) => e.type)

describe('security log', () => {
  it('records sign-ins, failed sign-ins, 2FA and password changes, newest first, for the owner only', async () => {
    const client = await signUpAndIn(t, 'log@example.com')
    await t.client().post('/api/auth/sign-in/email', { email: 'log@example.com', password: 'Wrong-Pass1' }, { [TEST_IP_HEADER]: '203.0.113.50' })
    const enable = await client.post('/api/auth/two-factor/enable', { password: VALID_PASSWORD })
    await client.post('/api/auth/two-factor/verify-totp', { code: totpCode(secretFromTotpUri(enable.json.totpURI)) })
    await client.post('/api/auth/two-factor/disable', { password: VALID_PASSWORD })
    await client.post('/api/auth/change-password', { currentPassword: VALID_PASSWORD, newPassword: 'Another-Pass9' })

    const log = (await client.get('/api/security-log')).json.events
    expect(log.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['password_changed', 'two_factor_disabled', 'two_factor_enabled', 'sign_in_failed', 'sign_in']),
    )
    expect(log[0].type).toBe('password_changed')
    const failed = log.find((e: { type: string }) => e.type === 'sign_in_failed')
    expect(failed).toMatchObject({ label: 'Failed sign-in', ipAddress: '203.0.113.50' })

    const stranger = await signUpAndIn(t, 'stranger@example.com')
    expect(await types(stranger)).toEqual(['sign_in', 'sign_in'])
  })

  it('mails the owner about a sign-in from a new device, but not from a known one', async () => {
    await signUpAndIn(t, 'devicemail@example.com')
    const before = t.sentMail.length
    await t.client().post('/api/auth/sign-in/email', { email: 'devicemail@example.com', password: VALID_PASSWORD }, { 'user-agent': FIREFOX })
    const newDevice = t.sentMail.slice(before).filter((m) => m.to === 'devicemail@example.com')
    expect(newDevice.map((m) => m.subject)).toEqual(['New sign-in to your Mailrow account'])
    expect(newDevice[0]!.text).toContain('Firefox on Linux')

    const again = t.sentMail.length
    await t.client().post('/api/auth/sign-in/email', { email: 'devicemail@example.com', password: VALID_PASSWORD }, { 'user-agent': FIREFOX })
    expect(t.sentMail.slice(again).filter((m) => m.to === 'devicemail@example.com')).toEqual([])
  })

  it('mails the owner when the password or the second factor changes', async () => {
    const client = await signUpAndIn(t, 'changes@example.com')
    const before = t.sentMail.length
    const enable = await client.post('/api/auth/two-factor/enable', { password: VALID_PASSWORD })
    await client.post('/api/auth/two-factor/verify-totp', { code: totpCode(secretFromTotpUri(enable.json.totpURI)) })
    await client.post('/api/auth/change-password', { currentPassword: VALID_PASSWORD, newPassword: 'Another-Pass9' })
    const subjects = t.sentMail.slice(before).filter((m) => m.to === 'changes@example.com').map((m) => m.subject)
    expect(subjects).toEqual(['Two-factor authentication was turned on for your Mailrow account', 'Your Mailrow password was changed'])
  })

  it('keeps events for 90 days', async () => {
    const client = await signUpAndIn(t, 'old@example.com')
    const { id } = (await client.get('/api/account')).json.account
    const now = new Date()
    await t.db.insert(securityEvents).values({ userId: id, type: 'sign_in', createdAt: new Date(now.getTime() - 91 * 24 * 60 * 60 * 1000) })
    expect((await client.get('/api/security-log')).json.events).toHaveLength(2)
    await purgeExpiredData(t.db, now)
    expect((await client.get('/api/security-log')).json.events).toHaveLength(2)
    const rows = (await t.db.select().from(securityEvents)).filter((e) => e.userId === id)
    expect(rows).toHaveLength(2)
  })
})
