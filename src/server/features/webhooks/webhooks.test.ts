import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WEBHOOKS_PLAN_MESSAGE } from '@shared/contracts/webhooks'
import { users, webhookDeliveries, webhookEndpoints } from '../../db/schema'
import { createTestApp, signUpAndIn, type HttpClient, type TestApp } from '../../testing/test-app'
import { startWebhookReceiver, verifyStandardWebhook, type WebhookReceiver } from '../../testing/webhook-receiver'
import { isPrivateAddress, PRIVATE_TARGET_MESSAGE } from './webhook-target'
import { deliverDueWebhooks, emitWebhookEvent, RETRY_DELAYS_MS, webhookDepsOf, type WebhookDeps } from './webhooks.service'

let t: TestApp
let strict: TestApp
let receiver: WebhookReceiver
let n = 0

beforeAll(async () => {
  // The receiver listens on 127.0.0.1: this app is the operator who allowed private targets.
  t = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } })
  strict = await createTestApp()
  receiver = await startWebhookReceiver()
})
afterAll(async () => {
  await receiver.close()
  await t.close()
  await strict.close()
})

async function proUser(app = t, plan: 'free' | 'starter' | 'pro' = 'pro') {
  const email = `hooks${++n}@example.com`
  const client = await signUpAndIn(app, email)
  await app.db.update(users).set({ plan }).where(eq(users.email, email))
  const [user] = await app.db.select({ id: users.id }).from(users).where(eq(users.email, email))
  return { client, userId: user!.id }
}

async function addWebhook(client: HttpClient, body: Record<string, unknown> = {}) {
  const created = await client.post('/api/webhooks', { url: `${receiver.url}/hooks`, events: ['email.parsed'], ...body })
  expect(created.status, created.text).toBe(201)
  return created.json as { webhook: { id: string }; secret: string }
}

describe('plans', () => {
  it.each(['free', 'starter'] as const)('answers a %s user 403 with the upgrade wording, and the UI data stays closed', async (plan) => {
    const { client } = await proUser(t, plan)
    for (const response of [await client.get('/api/webhooks'), await client.post('/api/webhooks', { url: `${receiver.url}/x`, events: ['email.parsed'] })]) {
      expect(response.status).toBe(403)
      expect(response.json.error).toEqual({ code: 'FORBIDDEN', message: WEBHOOKS_PLAN_MESSAGE })
    }
  })

  it('needs a session', async () => {
    expect((await t.client().get('/api/webhooks')).status).toBe(401)
  })
})

describe('endpoints', () => {
  it('adds an endpoint with a whsec_ secret stored encrypted, and refuses bad input with the contract messages', async () => {
    const { client } = await proUser()
    const { webhook, secret } = await addWebhook(client, { description: 'Orders to the ERP' })
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    const [stored] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, webhook.id))
    expect(stored!.secret).not.toContain(secret.slice(6))
    expect((await client.get(`/api/webhooks/${webhook.id}/secret`)).json.secret).toBe(secret)
    expect((await client.get('/api/webhooks')).json.webhooks).toEqual([expect.objectContaining({ id: webhook.id, events: ['email.parsed'], enabled: true })])

    const noEvents = await client.post('/api/webhooks', { url: `${receiver.url}/x`, events: [] })
    expect(noEvents.json.error).toEqual({ code: 'VALIDATION', message: 'events: Please choose at least one event.' })
    const ftp = await client.post('/api/webhooks', { url: 'ftp://example.com/x', events: ['email.parsed'] })
    expect(ftp.json.error.message).toBe('url: Please enter an http:// or https:// URL.')
  })

  it("answers 404 for another user's endpoint and deliveries", async () => {
    const owner = await proUser()
    const { webhook } = await addWebhook(owner.client)
    await owner.client.post(`/api/webhooks/${webhook.id}/test`)
    const [delivery] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, webhook.id))
    const other = await proUser()
    const attempts = [
      await other.client.get(`/api/webhooks/${webhook.id}/deliveries`),
      await other.client.get(`/api/webhooks/${webhook.id}/secret`),
      await other.client.send('PATCH', `/api/webhooks/${webhook.id}`, { enabled: false }),
      await other.client.post(`/api/webhooks/${webhook.id}/test`),
      await other.client.post(`/api/webhooks/${webhook.id}/deliveries/${delivery!.id}/redeliver`),
      await other.client.send('DELETE', `/api/webhooks/${webhook.id}`),
      await other.client.get('/api/webhooks/not-a-uuid/deliveries'),
    ]
    expect(attempts.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404])
    expect((await owner.client.get('/api/webhooks')).json.webhooks).toHaveLength(1)
  })
})

describe('signing and the delivery log', () => {
  it('sends a test event signed per Standard Webhooks, verified by an independent implementation, and logs it', async () => {
    const { client } = await proUser()
    const { webhook, secret } = await addWebhook(client)
    receiver.respondWith(() => ({ status: 202, body: 'accepted by the test receiver' }))
    const before = receiver.received.length
    const sent = await client.post(`/api/webhooks/${webhook.id}/test`)
    expect(sent.status).toBe(200)

    const request = receiver.received[before]!
    expect(verifyStandardWebhook(secret, request)).toBe(true)
    // A changed body or another secret does not verify: the check above is not vacuous.
    expect(verifyStandardWebhook(secret, { ...request, body: request.body.replace('test', 'tEst') })).toBe(false)
    expect(verifyStandardWebhook('whsec_' + Buffer.alloc(24, 1).toString('base64'), request)).toBe(false)
    expect(request.headers['webhook-id']).toBe(sent.json.delivery.messageId)
    expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300)
    expect(JSON.parse(request.body)).toMatchObject({ type: 'webhook.test', data: { webhookId: webhook.id } })

    const log = (await client.get(`/api/webhooks/${webhook.id}/deliveries`)).json.deliveries
    expect(log).toHaveLength(1)
    expect(log[0]).toMatchObject({ eventType: 'webhook.test', status: 'succeeded' })
    expect(log[0].attempts[0]).toMatchObject({ statusCode: 202, error: null, responseExcerpt: 'accepted by the test receiver' })
    receiver.respondWith(() => ({ status: 200, body: 'ok' }))
  })

  it('keeps only an excerpt of a long answer, and redelivers with the same webhook-id', async () => {
    const { client, userId } = await proUser()
    const { webhook, secret } = await addWebhook(client)
    receiver.respondWith(() => ({ status: 200, body: 'x'.repeat(50_000) }))
    await emitWebhookEvent(t.db, { userId, event: { type: 'email.parsed', data: { id: 'e1' } } })
    await deliverDueWebhooks(t.db, webhookDepsOf(t.deps), { limit: 10 })
    const [delivery] = (await client.get(`/api/webhooks/${webhook.id}/deliveries`)).json.deliveries
    expect(delivery.attempts[0].responseExcerpt.length).toBeLessThanOrEqual(1001)

    const before = receiver.received.length
    const again = await client.post(`/api/webhooks/${webhook.id}/deliveries/${delivery.id}/redeliver`)
    expect(again.status).toBe(200)
    expect(again.json.delivery.attempts).toHaveLength(2)
    const resent = receiver.received[before]!
    expect(resent.headers['webhook-id']).toBe(delivery.messageId)
    expect(verifyStandardWebhook(secret, resent)).toBe(true)
    receiver.respondWith(() => ({ status: 200, body: 'ok' }))
  })

  it('sends an event only to endpoints that asked for it and for its parser', async () => {
    const { client, userId } = await proUser()
    const parserA = '00000000-0000-4000-8000-00000000000a'
    const all = await addWebhook(client)
    const onlyA = await addWebhook(client, { parserIds: [parserA] })
    const usageOnly = await addWebhook(client, { events: ['usage.limit_reached'] })
    const queued = await emitWebhookEvent(t.db, { userId, event: { type: 'email.parsed', parserId: '00000000-0000-4000-8000-00000000000b', data: {} } })
    expect(queued).toBe(1)
    const rows = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, userId))
    expect(rows.map((r) => r.endpointId)).toEqual([all.webhook.id])
    expect(await emitWebhookEvent(t.db, { userId, event: { type: 'usage.limit_reached', data: {}, dedupeKey: 'usage:2026-11' } })).toBe(1)
    expect(await emitWebhookEvent(t.db, { userId, event: { type: 'usage.limit_reached', data: {}, dedupeKey: 'usage:2026-11' } })).toBe(0)
    expect(onlyA.webhook.id).not.toBe(usageOnly.webhook.id)
    await t.db.delete(webhookDeliveries).where(eq(webhookDeliveries.userId, userId))
  })
})

describe('retries', () => {
  it('retries a receiver answering 500 with growing delays, then turns the endpoint off and tells the user', async () => {
    const { client, userId } = await proUser()
    const failing = await startWebhookReceiver()
    failing.respondWith(() => ({ status: 500, body: 'database down' }))
    try {
      const { webhook, secret } = await addWebhook(client, { url: `${failing.url}/hooks` })
      let now = new Date()
      const deps: WebhookDeps = { ...webhookDepsOf(t.deps), now: () => now }
      await emitWebhookEvent(t.db, { userId, event: { type: 'email.parsed', data: { id: 'retry-me' } }, now })

      const sentAt: number[] = []
      for (let attempt = 0; attempt < 20; attempt++) {
        const sent = await deliverDueWebhooks(t.db, deps, { limit: 10 })
        if (sent === 0) break
        sentAt.push(now.getTime())
        // Not due again before its delay: nothing is sent a second early.
        const [row] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, webhook.id))
        if (row!.status !== 'pending') break
        now = new Date(row!.nextAttemptAt.getTime() - 1000)
        expect(await deliverDueWebhooks(t.db, deps, { limit: 10 })).toBe(0)
        now = row!.nextAttemptAt
      }

      expect(failing.received).toHaveLength(RETRY_DELAYS_MS.length + 1)
      const gaps = sentAt.slice(1).map((at, i) => at - sentAt[i]!)
      expect(gaps).toEqual(RETRY_DELAYS_MS)
      for (let i = 1; i < gaps.length; i++) expect(gaps[i]!).toBeGreaterThanOrEqual(gaps[i - 1]!)
      expect(sentAt.at(-1)! - sentAt[0]!).toBeGreaterThan(24 * 3_600_000)
      // Every attempt is the same message, signed afresh with the attempt's timestamp.
      expect(new Set(failing.received.map((r) => r.headers['webhook-id'])).size).toBe(1)
      expect(failing.received.every((r) => verifyStandardWebhook(secret, r))).toBe(true)
      expect(failing.received.map((r) => Number(r.headers['webhook-timestamp']))).toEqual(sentAt.map((at) => Math.floor(at / 1000)))

      const [log] = (await client.get(`/api/webhooks/${webhook.id}/deliveries`)).json.deliveries
      expect(log.status).toBe('failed')
      expect(log.attempts).toHaveLength(RETRY_DELAYS_MS.length + 1)
      expect(log.attempts[0]).toMatchObject({ statusCode: 500, error: 'The receiver answered HTTP 500.', responseExcerpt: 'database down' })

      const [endpoint] = (await client.get('/api/webhooks')).json.webhooks
      expect(endpoint.enabled).toBe(false)
      expect(endpoint.disabledReason).toMatch(/failed for over a day/)
      const bell = (await client.get('/api/notifications')).json.items
      expect(bell).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'webhook', title: 'Webhook turned off' })]))

      // Turned back on by the user: the notification goes away.
      await client.send('PATCH', `/api/webhooks/${webhook.id}`, { enabled: true })
      expect((await client.get('/api/notifications')).json.items.some((i: { kind: string }) => i.kind === 'webhook')).toBe(false)
    } finally {
      await failing.close()
    }
  })

  it('does not turn off an endpoint that succeeded since the failed message was queued', async () => {
    const { client, userId } = await proUser()
    const { webhook } = await addWebhook(client)
    let now = new Date()
    const deps: WebhookDeps = { ...webhookDepsOf(t.deps), now: () => now }
    receiver.respondWith(() => ({ status: 503 }))
    await emitWebhookEvent(t.db, { userId, event: { type: 'email.parsed', data: { id: 'a' } }, now })
    await deliverDueWebhooks(t.db, deps, { limit: 10 })
    receiver.respondWith(() => ({ status: 200 }))
    expect((await client.post(`/api/webhooks/${webhook.id}/test`)).json.delivery.status).toBe('succeeded')
    receiver.respondWith((r) => ({ status: JSON.parse(r.body).type === 'webhook.test' ? 200 : 503 }))
    for (let i = 0; i < 20; i++) {
      now = new Date(now.getTime() + 11 * 3_600_000)
      await deliverDueWebhooks(t.db, deps, { limit: 10 })
    }
    receiver.respondWith(() => ({ status: 200, body: 'ok' }))
    const [endpoint] = (await client.get('/api/webhooks')).json.webhooks
    expect(endpoint.enabled).toBe(true)
  })
})

describe('private targets', () => {
  it.each([
    ['loopback', 'http://127.0.0.1:9/hook'],
    ['a name that resolves to loopback', 'http://localhost:9/hook'],
    ['link-local (cloud metadata)', 'http://169.254.169.254/latest/meta-data'],
    ['a private network', 'https://10.1.2.3/hook'],
    ['IPv6 loopback', 'http://[::1]:9/hook'],
    ['IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]:9/hook'],
  ])('refuses %s unless the operator allows it', async (_, url) => {
    const { client } = await proUser(strict)
    const refused = await client.post('/api/webhooks', { url, events: ['email.parsed'] })
    expect(refused.status).toBe(400)
    expect(refused.json.error.message).toBe(PRIVATE_TARGET_MESSAGE)
  })

  it('checks again when sending (DNS may have changed), and follows no redirect', async () => {
    const { userId } = await proUser(strict)
    const box = strict.deps.box
    const [endpoint] = await strict.db
      .insert(webhookEndpoints)
      .values({ userId, url: `http://localhost:${receiver.port}/hooks`, events: ['email.parsed'], secret: box.encrypt('whsec_' + Buffer.alloc(24, 7).toString('base64')) })
      .returning()
    const before = receiver.received.length
    await emitWebhookEvent(strict.db, { userId, event: { type: 'email.parsed', data: {} } })
    await deliverDueWebhooks(strict.db, webhookDepsOf(strict.deps), { limit: 10 })
    expect(receiver.received.length).toBe(before)
    const [row] = await strict.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint!.id))
    expect(row!.attempts[0]!.error).toBe(PRIVATE_TARGET_MESSAGE)

    // Allowed to reach the receiver, which redirects to a private address: not followed.
    receiver.respondWith(() => ({ status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data' } }))
    const { client: allowed, userId: allowedUser } = await proUser()
    const { webhook } = await addWebhook(allowed)
    await emitWebhookEvent(t.db, { userId: allowedUser, event: { type: 'email.parsed', data: {} } })
    await deliverDueWebhooks(t.db, webhookDepsOf(t.deps), { limit: 10 })
    receiver.respondWith(() => ({ status: 200, body: 'ok' }))
    const [log] = (await allowed.get(`/api/webhooks/${webhook.id}/deliveries`)).json.deliveries
    expect(log.status).toBe('pending')
    expect(log.attempts[0]).toMatchObject({ statusCode: 302, error: 'Redirects are not followed (HTTP 302 to http://169.254.169.254/latest/meta-data).' })
  })

  it('classifies addresses', () => {
    for (const address of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', '::ffff:7f00:1', '224.0.0.1']) {
      expect(isPrivateAddress(address), address).toBe(true)
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '172.32.0.1', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(address), address).toBe(false)
    }
  })
})
