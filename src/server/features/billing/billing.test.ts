import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signatureHeader } from '@emulator/stripe/webhooks'
import { billingAccounts, parsers, stripeEvents, users } from '../../db/schema'
import { createBillingTestApp, payCheckout, portalAction, TEST_STRIPE, type BillingTestApp } from '../../testing/test-stripe'
import { createTestApp, signUpAndIn, TEST_APP_URL, VALID_PASSWORD, type HttpClient } from '../../testing/test-app'
import { listActiveParsersByUser } from '../pipeline/pipeline.queries'

const DAY = 86_400

let t: BillingTestApp
beforeAll(async () => {
  t = await createBillingTestApp()
})
afterAll(async () => {
  await t?.close()
})

let counter = 0
async function newUser() {
  const email = `billing${++counter}@example.com`
  const client = await signUpAndIn(t, email)
  const [user] = await t.db.select().from(users).where(eq(users.email, email))
  return { client, email, userId: user!.id }
}

async function billingOf(client: HttpClient) {
  const response = await client.get('/api/billing')
  expect(response.status).toBe(200)
  return response.json.billing
}

/** Upgrades through Checkout with a card that works; resolves once Stripe's webhooks were handled. */
async function upgrade(client: HttpClient, plan: 'starter' | 'pro' = 'starter') {
  const checkout = await client.post('/api/billing/checkout', { plan })
  expect(checkout.status).toBe(200)
  const paid = await payCheckout(checkout.json.url, '4242 4242 4242 4242')
  expect(paid.status).toBe(303)
  await t.stripe.flush()
  return paid
}

async function portalUrl(client: HttpClient) {
  const response = await client.post('/api/billing/portal', {})
  expect(response.status).toBe(200)
  return response.json.url as string
}

function periodEndOf(billing: { subscription: { currentPeriodEnd: string } }) {
  return Math.floor(new Date(billing.subscription.currentPeriodEnd).getTime() / 1000)
}

describe('upgrading through Stripe Checkout', () => {
  it('changes the plan once Stripe says it is paid, and the AI parser the plan locked resumes', async () => {
    const { client, userId } = await newUser()
    await t.db.insert(parsers).values({ userId, name: 'Invoices (AI)', parserType: 'smart_ai' })
    const before = await client.get('/api/parsers')
    expect(before.json.parsers[0]).toMatchObject({ paused_by_plan: true, alert: 'Paused: Smart AI Parser requires Starter plan. It resumes when you upgrade.' })
    expect(await listActiveParsersByUser(t.db, userId)).toHaveLength(0)

    const checkout = await client.post('/api/billing/checkout', { plan: 'starter', returnTo: '/create-parser' })
    expect(checkout.json.url).toMatch(/\/c\/pay\/cs_test_/)
    // Nothing changes before payment: the plan follows Stripe's events only.
    expect((await client.get('/api/account')).json.account.plan).toBe('free')

    const paid = await payCheckout(checkout.json.url, '4242424242424242')
    expect(paid.location).toBe(`${TEST_APP_URL}/create-parser?checkout=success`)
    await t.stripe.flush()

    expect((await client.get('/api/account')).json.account.plan).toBe('starter')
    const billing = await billingOf(client)
    expect(billing).toMatchObject({ enabled: true, plan: 'starter', subscription: { plan: 'starter', status: 'active', cancelAtPeriodEnd: false }, paymentIssue: null })
    expect(billing.invoices).toHaveLength(1)
    expect(billing.invoices[0]).toMatchObject({ amount: 2900, currency: 'usd', status: 'paid' })
    expect(billing.invoices[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/invoices\/in_/)

    const after = await client.get('/api/parsers')
    expect(after.json.parsers[0]).toMatchObject({ paused_by_plan: false, alert: null })
    expect(await listActiveParsersByUser(t.db, userId)).toHaveLength(1)
  })

  it('changes nothing when the card is declined', async () => {
    const { client } = await newUser()
    const checkout = await client.post('/api/billing/checkout', { plan: 'pro' })
    const declined = await payCheckout(checkout.json.url, '4000 0000 0000 0002')
    expect(declined.status).toBe(402)
    expect(declined.text).toContain('Your card was declined.')
    await t.stripe.flush()
    expect((await client.get('/api/account')).json.account.plan).toBe('free')
    expect(await billingOf(client)).toMatchObject({ plan: 'free', subscription: null, invoices: [] })
  })

  it('refuses a second subscription and bad plans, and returns only to pages of the app', async () => {
    const { client } = await newUser()
    expect((await client.post('/api/billing/checkout', { plan: 'free' })).status).toBe(400)
    const offsite = await client.post('/api/billing/checkout', { plan: 'starter', returnTo: '//evil.example/steal' })
    const page = await (await fetch(offsite.json.url)).text()
    expect(page).toContain(`href="${TEST_APP_URL}/settings?checkout=cancelled#plan"`)
    await upgrade(client)
    const again = await client.post('/api/billing/checkout', { plan: 'pro' })
    expect(again.status).toBe(409)
    expect(again.json.error.message).toBe('You already have a subscription. Change your plan from Manage billing.')
  })

  it('needs a session', async () => {
    const anonymous = t.client()
    expect((await anonymous.get('/api/billing')).status).toBe(401)
    expect((await anonymous.post('/api/billing/checkout', { plan: 'starter' })).status).toBe(401)
    expect((await anonymous.post('/api/billing/portal', {})).status).toBe(401)
  })
})

describe('cancelling and changing through the Billing Portal', () => {
  it('keeps the paid plan until the period ends, then moves to free and pauses what free does not allow', async () => {
    const { client, userId } = await newUser()
    await t.db.insert(parsers).values({ userId, name: 'Receipts (AI)', parserType: 'smart_ai' })
    await upgrade(client)
    const periodEnd = periodEndOf(await billingOf(client))

    expect((await portalAction(await portalUrl(client), 'cancel')).status).toBe(303)
    await t.stripe.flush()
    expect(await billingOf(client)).toMatchObject({ plan: 'starter', subscription: { cancelAtPeriodEnd: true } })

    // Halfway through the paid period: still Starter.
    t.stripe.advance(periodEnd - t.stripe.store.clock.now() - 10 * DAY)
    await t.stripe.flush()
    expect((await client.get('/api/account')).json.account.plan).toBe('starter')

    t.stripe.advance(periodEnd - t.stripe.store.clock.now() + 60)
    await t.stripe.flush()
    expect((await client.get('/api/account')).json.account.plan).toBe('free')
    expect(await billingOf(client)).toMatchObject({ plan: 'free', subscription: null })
    // Downgrading keeps the parser; it is paused with the reason, not deleted.
    const list = await client.get('/api/parsers')
    expect(list.json.parsers).toHaveLength(1)
    expect(list.json.parsers[0]).toMatchObject({ active: true, paused_by_plan: true })
    expect(await listActiveParsersByUser(t.db, userId)).toHaveLength(0)
  })

  it('resumes a cancelled plan before the period ends, and upgrades to Pro at once', async () => {
    const { client } = await newUser()
    await upgrade(client)
    const url = await portalUrl(client)
    await portalAction(url, 'cancel')
    await portalAction(url, 'resume')
    await t.stripe.flush()
    expect(await billingOf(client)).toMatchObject({ subscription: { cancelAtPeriodEnd: false } })

    await portalAction(url, 'switch', { price: TEST_STRIPE.prices.pro })
    await t.stripe.flush()
    const billing = await billingOf(client)
    expect(billing).toMatchObject({ plan: 'pro', subscription: { plan: 'pro', status: 'active' } })
    // The upgrade is prorated: a second invoice for the rest of the period's difference.
    expect(billing.invoices).toHaveLength(2)
    expect(billing.invoices[0].amount).toBeGreaterThan(0)
    expect(billing.invoices[0].amount).toBeLessThanOrEqual(5000)
  })

  // Known failure on PostgreSQL (TEST_DATABASE_URL): the deletion answers 500 there after the
  // merge of this stop's branches, while it passes on PGlite; not yet diagnosed (closing note, issue 14).
  it('cancels the subscription at once when the account is deleted', async () => {
    const { client, userId } = await newUser()
    await upgrade(client)
    const [account] = await t.db.select().from(billingAccounts).where(eq(billingAccounts.userId, userId))
    expect(t.stripe.store.getSubscription(account!.subscriptionId!).status).toBe('active')
    expect((await client.post('/api/account/delete', { password: VALID_PASSWORD })).status).toBe(204)
    expect(t.stripe.store.getSubscription(account!.subscriptionId!).status).toBe('canceled')
    await t.stripe.flush()
  })

  it('has no portal for a user who never subscribed', async () => {
    const { client } = await newUser()
    expect((await client.post('/api/billing/portal', {})).status).toBe(404)
  })
})

describe('a failed renewal', () => {
  it('keeps the plan through a grace period with a warning, then moves to free', async () => {
    const { client, email } = await newUser()
    await upgrade(client)
    const periodEnd = periodEndOf(await billingOf(client))
    // The card on file starts failing (Stripe's 4000 0000 0000 0341).
    await portalAction(await portalUrl(client), 'card', { card: '4000000000000341' })

    t.stripe.advance(periodEnd - t.stripe.store.clock.now() + 60)
    await t.stripe.flush()
    const grace = await billingOf(client)
    expect(grace).toMatchObject({ plan: 'starter', subscription: { status: 'past_due' } })
    expect(grace.paymentIssue).not.toBeNull()
    expect(new Date(grace.paymentIssue.graceEndsAt).getTime() - new Date(grace.paymentIssue.failedAt).getTime()).toBe(7 * DAY * 1000)
    const failedMail = t.sentMail.filter((m) => m.to === email && m.subject === 'Your Mailrow payment failed')
    expect(failedMail).toHaveLength(1)

    // Stripe retries after 3 days: still failing, still in the grace period.
    t.stripe.advance(3 * DAY + 60)
    await t.stripe.flush()
    expect((await client.get('/api/account')).json.account.plan).toBe('starter')

    // The last retry fails: Stripe cancels the subscription and the account is free.
    t.stripe.advance(5 * DAY)
    await t.stripe.flush()
    expect((await client.get('/api/account')).json.account.plan).toBe('free')
    expect(await billingOf(client)).toMatchObject({ plan: 'free', subscription: null, paymentIssue: null })
  })

  it('ends the grace period when a new card pays the invoice', async () => {
    const { client } = await newUser()
    await upgrade(client)
    const url = await portalUrl(client)
    await portalAction(url, 'card', { card: '4000000000000341' })
    t.stripe.advance(periodEndOf(await billingOf(client)) - t.stripe.store.clock.now() + 60)
    await t.stripe.flush()
    expect((await billingOf(client)).paymentIssue).not.toBeNull()
    await portalAction(url, 'card', { card: '4242424242424242' })
    await t.stripe.flush()
    expect(await billingOf(client)).toMatchObject({ plan: 'starter', subscription: { status: 'active' }, paymentIssue: null })
  })
})

describe('POST /api/billing/webhook', () => {
  async function lastEventFor(type: string) {
    const event = [...t.stripe.store.listEvents()].reverse().find((e) => e.type === type)
    if (!event) throw new Error(`no ${type} event`)
    return event
  }

  function post(body: string, signature?: string) {
    return t.app.request('/api/billing/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
      body,
    })
  }

  it('refuses a forged event and a replayed old one, and changes nothing', async () => {
    const { client } = await newUser()
    const checkout = await client.post('/api/billing/checkout', { plan: 'pro' })
    t.stripe.webhooks.pause()
    await payCheckout(checkout.json.url, '4242424242424242')
    const held = t.stripe.webhooks.takeHeld()
    t.stripe.webhooks.resume()
    const completed = held.find((e) => e.type === 'checkout.session.completed')!
    const payload = JSON.stringify({ id: completed.id, object: 'event', type: completed.type, created: completed.created, data: completed.data, api_version: '2026-10-28.endive', livemode: false })
    const now = Math.floor(Date.now() / 1000)

    const unsigned = await post(payload)
    expect(unsigned.status).toBe(400)
    expect(await unsigned.json()).toEqual({ error: { code: 'VALIDATION', message: 'Invalid Stripe signature' } })
    expect((await post(payload, signatureHeader(payload, 'whsec_guessed', now))).status).toBe(400)
    // Stripe's own signature on other bytes: the body was tampered with.
    expect((await post(payload.replace('"livemode":false', '"livemode":true'), signatureHeader(payload, TEST_STRIPE.webhookSecret, now))).status).toBe(400)
    // A genuine request captured and sent again an hour later: outside Stripe's 5-minute tolerance.
    expect((await post(payload, signatureHeader(payload, TEST_STRIPE.webhookSecret, now - 3600))).status).toBe(400)
    expect((await client.get('/api/account')).json.account.plan).toBe('free')
    expect(await t.db.select().from(stripeEvents).where(eq(stripeEvents.id, completed.id))).toHaveLength(0)

    // The same event, signed now with the endpoint's secret, is taken.
    const genuine = await post(payload, signatureHeader(payload, TEST_STRIPE.webhookSecret, now))
    expect(genuine.status).toBe(200)
    expect((await client.get('/api/account')).json.account.plan).toBe('pro')
  })

  it('handles the same event once however often it is delivered', async () => {
    const { client, email } = await newUser()
    await upgrade(client)
    await portalAction(await portalUrl(client), 'card', { card: '4000000000000341' })
    t.stripe.advance(periodEndOf(await billingOf(client)) - t.stripe.store.clock.now() + 60)
    await t.stripe.flush()
    const failed = await lastEventFor('invoice.payment_failed')
    const mails = () => t.sentMail.filter((m) => m.to === email && m.subject === 'Your Mailrow payment failed').length
    expect(mails()).toBe(1)

    await t.stripe.webhooks.resend(failed)
    await t.stripe.webhooks.resend(failed)
    expect(mails()).toBe(1)
    const deliveries = t.stripe.webhooks.log().filter((d) => d.eventId === failed.id)
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200])
  })

  it('follows the subscription, not the order events arrive in', async () => {
    const { client } = await newUser()
    t.stripe.webhooks.pause()
    const checkout = await client.post('/api/billing/checkout', { plan: 'starter' })
    await payCheckout(checkout.json.url, '4242424242424242')
    // Pro is bought a moment later; all events reach Mailrow afterwards, newest first.
    const completed = t.stripe.webhooks.held().find((e) => e.type === 'checkout.session.completed')!
    const mine = t.stripe.store.getSubscription((completed.data.object as { subscription: string }).subscription)
    t.stripe.store.updateSubscription(mine.id, { price: TEST_STRIPE.prices.pro })
    const held = t.stripe.webhooks.takeHeld()
    t.stripe.webhooks.resume()
    for (const event of held.reverse()) await t.stripe.webhooks.resend(event)
    expect((await client.get('/api/account')).json.account.plan).toBe('pro')
  })

  it('tells the user to try again when Stripe cannot be reached', async () => {
    const down = await createTestApp({
      env: { STRIPE_SECRET_KEY: TEST_STRIPE.secretKey, STRIPE_WEBHOOK_SECRET: TEST_STRIPE.webhookSecret, STRIPE_PRICE_STARTER: 'price_s', STRIPE_PRICE_PRO: 'price_p', STRIPE_API_URL: 'http://127.0.0.1:1' },
    })
    try {
      const client = await signUpAndIn(down, 'stripedown@example.com')
      const response = await client.post('/api/billing/checkout', { plan: 'starter' })
      expect(response.status).toBe(503)
      expect(response.json.error.message).toBe('Payments are not available right now. Please try again in a minute.')
    } finally {
      await down.close()
    }
  }, 120_000)

  it('is not found when billing is off', async () => {
    const off = await createTestApp()
    try {
      const response = await off.app.request('/api/billing/webhook', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
      expect(response.status).toBe(404)
      const client = await signUpAndIn(off, 'nobilling@example.com')
      expect((await client.get('/api/billing')).json.billing).toMatchObject({ enabled: false, plan: 'free', invoices: [] })
      expect((await client.post('/api/billing/checkout', { plan: 'starter' })).status).toBe(404)
    } finally {
      await off.close()
    }
  }, 120_000)
})
