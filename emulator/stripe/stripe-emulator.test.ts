import Stripe from 'stripe'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createStripeEmulator, type RunningStripeEmulator, type StripeEmulator } from './stripe-emulator'

const SECRET = 'whsec_emulator_test'
const DAY = 86_400

let emulator: StripeEmulator
let running: RunningStripeEmulator
let stripe: Stripe
const received: { event: Stripe.Event; header: string }[] = []

beforeAll(async () => {
  emulator = createStripeEmulator({
    redirectWaitMs: 0,
    webhooks: [
      {
        url: 'http://mailrow.test/api/billing/webhook',
        secret: SECRET,
        // The official client's check, exactly as a receiver runs it.
        fetch: async (_url, init) => {
          const header = (init.headers as Record<string, string>)['stripe-signature']!
          received.push({ event: stripe.webhooks.constructEvent(init.body as string, header, SECRET), header })
          return new Response('{}', { status: 200 })
        },
      },
    ],
  })
  running = await emulator.start(0)
  const url = new URL(running.url)
  stripe = new Stripe('sk_test_emulator', { host: url.hostname, port: url.port, protocol: 'http', maxNetworkRetries: 0 })
})
afterAll(async () => {
  await running?.close()
})
beforeEach(() => {
  received.length = 0
})

async function subscribe(card = '4242424242424242') {
  const customer = await stripe.customers.create({ email: 'buyer@example.com' })
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    line_items: [{ price: 'price_mailrow_starter', quantity: 1 }],
    success_url: 'http://mailrow.test/settings?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://mailrow.test/settings',
  })
  const response = await fetch(session.url!, { method: 'POST', body: new URLSearchParams({ card }), redirect: 'manual' })
  await emulator.flush()
  return { customer, session, response }
}

const types = () => received.map((r) => r.event.type)

describe('Stripe emulator', () => {
  it('signs webhooks as Stripe does, so stripe.webhooks.constructEvent accepts them', async () => {
    const { session, response } = await subscribe()
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe(`http://mailrow.test/settings?session=${session.id}`)
    expect(types()).toEqual(['customer.created', 'customer.subscription.created', 'invoice.created', 'invoice.paid', 'checkout.session.completed'])
    for (const { header } of received) expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    // Other bytes under the same signature are refused.
    const tampered = JSON.stringify({ ...received[0]!.event, type: 'customer.deleted' })
    expect(() => stripe.webhooks.constructEvent(tampered, received[0]!.header, SECRET)).toThrow(/signature/i)
  })

  it('refuses a declined card on the Checkout page and creates nothing', async () => {
    const { customer, response } = await subscribe('4000 0000 0000 0002')
    expect(response.status).toBe(402)
    expect(await response.text()).toContain('Your card was declined.')
    expect(types()).toEqual(['customer.created'])
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data).toEqual([])
  })

  it("answers with Stripe's error shapes", async () => {
    const url = new URL(running.url)
    const noKey = new Stripe('sk_live_wrong', { host: url.hostname, port: url.port, protocol: 'http', maxNetworkRetries: 0 })
    await expect(noKey.customers.create({})).rejects.toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401 })
    await expect(stripe.subscriptions.retrieve('sub_missing')).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 404, code: 'resource_missing', param: 'id' })
    await expect(stripe.billingPortal.sessions.create({ customer: 'cus_missing', return_url: 'http://x' })).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' })
    await expect(stripe.billingPortal.sessions.create({ return_url: 'http://x' } as Stripe.BillingPortal.SessionCreateParams)).rejects.toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'customer' })
  })

  it('renews on the test clock, and ends a subscription cancelled at period end', async () => {
    const { customer } = await subscribe()
    const [sub] = (await stripe.subscriptions.list({ customer: customer.id })).data
    const periodEnd = sub!.items.data[0]!.current_period_end
    emulator.advance(periodEnd - emulator.store.clock.now() + 60)
    await emulator.flush()
    const renewed = await stripe.subscriptions.retrieve(sub!.id)
    expect(renewed.status).toBe('active')
    expect(renewed.items.data[0]!.current_period_start).toBe(periodEnd)
    expect((await stripe.invoices.list({ customer: customer.id })).data.map((i) => [i.status, i.billing_reason])).toEqual([
      ['paid', 'subscription_cycle'],
      ['paid', 'subscription_create'],
    ])

    await stripe.subscriptions.update(sub!.id, { cancel_at_period_end: true })
    emulator.advance(renewed.items.data[0]!.current_period_end - emulator.store.clock.now() - DAY)
    expect((await stripe.subscriptions.retrieve(sub!.id)).status).toBe('active')
    emulator.advance(2 * DAY)
    await emulator.flush()
    expect((await stripe.subscriptions.retrieve(sub!.id)).status).toBe('canceled')
    expect(types().at(-1)).toBe('customer.subscription.deleted')
  })

  it('retries a failed renewal, then cancels the subscription', async () => {
    const { customer } = await subscribe()
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'http://mailrow.test/settings' })
    expect((await fetch(`${portal.url}/card`, { method: 'POST', body: new URLSearchParams({ card: '4000000000000341' }), redirect: 'manual' })).status).toBe(303)
    const [sub] = (await stripe.subscriptions.list({ customer: customer.id })).data
    emulator.advance(sub!.items.data[0]!.current_period_end - emulator.store.clock.now() + 60)
    expect((await stripe.subscriptions.retrieve(sub!.id)).status).toBe('past_due')
    emulator.advance(3 * DAY)
    expect((await stripe.subscriptions.retrieve(sub!.id)).status).toBe('past_due')
    emulator.advance(4 * DAY)
    await emulator.flush()
    expect((await stripe.subscriptions.retrieve(sub!.id)).status).toBe('canceled')
    expect(types().filter((t) => t === 'invoice.payment_failed')).toHaveLength(3)
  })

  it("does not let one customer's portal touch another's subscription", async () => {
    const mine = await subscribe()
    const theirs = await subscribe()
    const [theirSub] = (await stripe.subscriptions.list({ customer: theirs.customer.id })).data
    const portal = await stripe.billingPortal.sessions.create({ customer: mine.customer.id, return_url: 'http://mailrow.test/settings' })
    const response = await fetch(`${portal.url}/cancel`, { method: 'POST', body: new URLSearchParams({ subscription: theirSub!.id }), redirect: 'manual' })
    expect(response.status).toBe(402)
    expect((await stripe.subscriptions.retrieve(theirSub!.id)).cancel_at_period_end).toBe(false)
  })
})
