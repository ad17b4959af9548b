import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pipelineDepsOf } from '../../bootstrap'
import { users, webhookDeliveries } from '../../db/schema'
import { deliverOrders, orderEmail, userWithOrderParser } from '../../testing/pipeline-fixtures'
import { createTestApp, type TestApp } from '../../testing/test-app'
import { startTestEmulator, type TestEmulator } from '../../testing/test-emulator'
import { startWebhookReceiver, verifyStandardWebhook, type WebhookReceiver } from '../../testing/webhook-receiver'
import { markNeedsReconnect } from '../connections/connections.service'
import { runMailboxPass } from '../pipeline/pipeline.service'
import { deliverDueWebhooks, webhookDepsOf } from './webhooks.service'

let google: TestEmulator
let t: TestApp
let receiver: WebhookReceiver

beforeAll(async () => {
  google = await startTestEmulator()
  t = await createTestApp({ emulatorUrl: google.url, env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } })
  receiver = await startWebhookReceiver()
})
afterAll(async () => {
  await receiver.close()
  await t.close()
  await google.close()
})

describe('events from the pipeline', () => {
  it('sends email.parsed with the fields when a row reaches its outcome, usage.limit_reached once, and connection_lost', async () => {
    const { client, userId, parser } = await userWithOrderParser(t, google, { email: 'events@example.com', plan: 'pro' })
    const created = await client.post('/api/webhooks', { url: `${receiver.url}/events`, events: ['email.parsed', 'usage.limit_reached', 'parser.needs_attention'] })
    expect(created.status).toBe(201)
    const secret = created.json.secret as string
    const deps = pipelineDepsOf(t.deps)!

    await deliverOrders(google, 1, 2)
    await runMailboxPass(t.db, { userId, deps })
    await deliverDueWebhooks(t.db, webhookDepsOf(t.deps), { limit: 10 })
    const parsed = receiver.received.map((r) => JSON.parse(r.body)).filter((b) => b.type === 'email.parsed')
    expect(parsed).toHaveLength(2)
    expect(receiver.received.every((r) => verifyStandardWebhook(secret, r))).toBe(true)
    const first = parsed.find((b) => b.data.fields['Order Number'] === orderEmail(1).expected.order)
    expect(first.data).toMatchObject({
      status: 'success',
      parser: { id: parser.id, name: 'Orders' },
      email: { subject: orderEmail(1).subject },
      fields: { 'Order Number': orderEmail(1).expected.order, Customer: orderEmail(1).expected.customer, Total: orderEmail(1).expected.total },
    })

    // The month's allowance runs out (Pro's 5,000 lowered to 2 for the test, rather than 5,000 emails): announced once.
    await t.db.update(users).set({ plan: 'pro' }).where(eq(users.id, userId))
    const { PLAN_INFO } = await import('@shared/plans')
    const limit = PLAN_INFO.pro.emailsPerMonth
    PLAN_INFO.pro.emailsPerMonth = 2
    try {
      await deliverOrders(google, 3, 2)
      await runMailboxPass(t.db, { userId, deps })
      await deliverOrders(google, 5, 1)
      await runMailboxPass(t.db, { userId, deps })
    } finally {
      PLAN_INFO.pro.emailsPerMonth = limit
    }
    await markNeedsReconnect(t.db, { userId, reason: 'Google said the grant was revoked.' })
    await markNeedsReconnect(t.db, { userId, reason: 'Google said the grant was revoked.' })
    await deliverDueWebhooks(t.db, webhookDepsOf(t.deps), { limit: 10 })
    const types = receiver.received.map((r) => JSON.parse(r.body)).map((b) => `${b.type}${b.data.reason ? `:${b.data.reason}` : ''}`)
    expect(types.filter((x) => x === 'usage.limit_reached')).toHaveLength(1)
    expect(types.filter((x) => x === 'parser.needs_attention:connection_lost')).toHaveLength(1)
    expect(types.filter((x) => x === 'email.parsed')).toHaveLength(2)
    const rows = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, userId))
    expect(rows.every((r) => r.status === 'succeeded')).toBe(true)
  })
})
