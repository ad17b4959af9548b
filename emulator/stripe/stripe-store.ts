import { randomToken } from '../ids'

/**
 * The Stripe emulator's state and rules: customers, prices, Checkout and portal sessions,
 * subscriptions, invoices and the events they raise, on a clock tests can move. The objects have
 * Stripe's shapes (API version 2026-10-28: a subscription's period lives on its items, an
 * invoice's subscription under `parent.subscription_details`).
 */

const DAY = 24 * 60 * 60

/** Card numbers with Stripe's test meanings (https://docs.stripe.com/testing#cards). */
export const TEST_CARDS = {
  /** Succeeds. */
  ok: '4242424242424242',
  /** Declined at once (generic_decline). */
  declined: '4000000000000002',
  /** Attaches, but every later charge fails: renewals fail. */
  failsLater: '4000000000000341',
} as const

export type StripeObject = Record<string, unknown> & { id: string }

export type StripePrice = StripeObject & { unit_amount: number; currency: string; nickname: string | null; product: string }

export type Card = { number: string; last4: string }

export type Customer = StripeObject & { email: string | null; name: string | null; metadata: Record<string, string>; created: number }

type SubscriptionState = {
  id: string
  customer: string
  price: string
  status: 'active' | 'past_due' | 'canceled' | 'incomplete' | 'incomplete_expired' | 'unpaid'
  cancelAtPeriodEnd: boolean
  periodStart: number
  periodEnd: number
  created: number
  canceledAt: number | null
  endedAt: number | null
  latestInvoice: string | null
  metadata: Record<string, string>
  itemId: string
}

type InvoiceState = {
  id: string
  number: string
  customer: string
  subscription: string | null
  amount: number
  currency: string
  status: 'open' | 'paid' | 'void' | 'uncollectible'
  created: number
  periodStart: number
  periodEnd: number
  attemptCount: number
  nextPaymentAttempt: number | null
  billingReason: string
}

export type CheckoutSession = {
  id: string
  customer: string
  price: string
  successUrl: string
  cancelUrl: string
  clientReferenceId: string | null
  metadata: Record<string, string>
  subscriptionMetadata: Record<string, string>
  status: 'open' | 'complete' | 'expired'
  subscription: string | null
  created: number
}

export type PortalSession = { id: string; customer: string; returnUrl: string; created: number; flow: string | null }

export type StripeEvent = { id: string; type: string; created: number; data: { object: unknown; previous_attributes?: unknown } }

/** How long a failed renewal is retried, in days after the first failure; then the subscription is canceled. */
export const RETRY_SCHEDULE_DAYS = [3, 7]

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; message: string; code?: string; param?: string; decline_code?: string },
  ) {
    super(body.message)
  }
}

export const notFound = (kind: string, id: string, param = 'id') =>
  new StripeApiError(404, { type: 'invalid_request_error', code: 'resource_missing', param, message: `No such ${kind}: '${id}'` })

export type StoreOptions = {
  prices: { id: string; unitAmount: number; nickname: string; currency?: string }[]
  baseUrl: () => string
  onEvent: (event: StripeEvent) => void
}

/** Seconds since the epoch, shifted by the test clock. */
export type TestClock = { now: () => number; advance: (seconds: number) => void; reset: () => void; offset: () => number }

export function createTestClock(): TestClock {
  let offset = 0
  return {
    now: () => Math.floor(Date.now() / 1000) + offset,
    advance: (seconds) => {
      offset += Math.max(0, Math.floor(seconds))
    },
    reset: () => {
      offset = 0
    },
    offset: () => offset,
  }
}

/** One calendar month on (Stripe bills monthly plans on the same day of the month). */
function addMonth(seconds: number): number {
  const date = new Date(seconds * 1000)
  date.setUTCMonth(date.getUTCMonth() + 1)
  return Math.floor(date.getTime() / 1000)
}

export function createStripeStore(clock: TestClock, options: StoreOptions) {
  const customers = new Map<string, Customer>()
  const cards = new Map<string, Card>()
  const prices = new Map<string, StripePrice>()
  const checkoutSessions = new Map<string, CheckoutSession>()
  const portalSessions = new Map<string, PortalSession>()
  const subscriptions = new Map<string, SubscriptionState>()
  const invoices = new Map<string, InvoiceState>()
  const events: StripeEvent[] = []
  let invoiceCounter = 0

  const id = (prefix: string) => `${prefix}_${randomToken(24, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')}`

  function seedPrices() {
    for (const price of options.prices) {
      prices.set(price.id, {
        id: price.id,
        object: 'price',
        active: true,
        currency: price.currency ?? 'usd',
        unit_amount: price.unitAmount,
        nickname: price.nickname,
        product: `prod_${price.id.replace(/^price_/, '')}`,
        recurring: { interval: 'month', interval_count: 1, usage_type: 'licensed' },
        type: 'recurring',
        livemode: false,
        created: clock.now(),
        metadata: {},
      })
    }
  }
  seedPrices()

  function emit(type: string, object: unknown, previous?: unknown) {
    const event: StripeEvent = { id: id('evt'), type, created: clock.now(), data: previous ? { object, previous_attributes: previous } : { object } }
    events.push(event)
    options.onEvent(event)
  }

  // ── views in Stripe's shapes ──

  function priceView(priceId: string) {
    return prices.get(priceId) ?? null
  }

  function subscriptionView(sub: SubscriptionState) {
    const item = {
      id: sub.itemId,
      object: 'subscription_item',
      price: priceView(sub.price),
      quantity: 1,
      current_period_start: sub.periodStart,
      current_period_end: sub.periodEnd,
      subscription: sub.id,
      created: sub.created,
      metadata: {},
    }
    return {
      id: sub.id,
      object: 'subscription',
      customer: sub.customer,
      status: sub.status,
      cancel_at_period_end: sub.cancelAtPeriodEnd,
      cancel_at: sub.cancelAtPeriodEnd ? sub.periodEnd : null,
      canceled_at: sub.canceledAt,
      ended_at: sub.endedAt,
      created: sub.created,
      start_date: sub.created,
      currency: priceView(sub.price)?.currency ?? 'usd',
      items: { object: 'list', data: [item], has_more: false, total_count: 1, url: `/v1/subscription_items?subscription=${sub.id}` },
      latest_invoice: sub.latestInvoice,
      metadata: sub.metadata,
      collection_method: 'charge_automatically',
      livemode: false,
    }
  }

  function invoiceView(inv: InvoiceState) {
    const base = options.baseUrl()
    return {
      id: inv.id,
      object: 'invoice',
      customer: inv.customer,
      number: inv.number,
      status: inv.status,
      currency: inv.currency,
      amount_due: inv.amount,
      amount_paid: inv.status === 'paid' ? inv.amount : 0,
      amount_remaining: inv.status === 'paid' ? 0 : inv.amount,
      total: inv.amount,
      created: inv.created,
      period_start: inv.periodStart,
      period_end: inv.periodEnd,
      attempt_count: inv.attemptCount,
      attempted: inv.attemptCount > 0,
      next_payment_attempt: inv.nextPaymentAttempt,
      billing_reason: inv.billingReason,
      hosted_invoice_url: `${base}/invoices/${inv.id}`,
      invoice_pdf: `${base}/invoices/${inv.id}/pdf`,
      parent: inv.subscription
        ? { type: 'subscription_details', quote_details: null, subscription_details: { subscription: inv.subscription, metadata: subscriptions.get(inv.subscription)?.metadata ?? {} } }
        : null,
      livemode: false,
    }
  }

  function checkoutView(session: CheckoutSession) {
    return {
      id: session.id,
      object: 'checkout.session',
      mode: 'subscription',
      status: session.status,
      payment_status: session.status === 'complete' ? 'paid' : 'unpaid',
      customer: session.customer,
      customer_email: customers.get(session.customer)?.email ?? null,
      client_reference_id: session.clientReferenceId,
      subscription: session.subscription,
      success_url: session.successUrl,
      cancel_url: session.cancelUrl,
      url: session.status === 'open' ? `${options.baseUrl()}/c/pay/${session.id}` : null,
      metadata: session.metadata,
      created: session.created,
      expires_at: session.created + DAY,
      livemode: false,
    }
  }

  function portalView(session: PortalSession) {
    return {
      id: session.id,
      object: 'billing_portal.session',
      customer: session.customer,
      return_url: session.returnUrl,
      url: `${options.baseUrl()}/p/session/${session.id}`,
      created: session.created,
      flow: session.flow ? { type: session.flow } : null,
      livemode: false,
    }
  }

  // ── charging ──

  /** Charges the customer's card for an invoice; true when paid. Raises the invoice's events. */
  function attemptPayment(inv: InvoiceState): boolean {
    const card = cards.get(inv.customer)
    inv.attemptCount += 1
    const ok = card !== undefined && card.number !== TEST_CARDS.declined && card.number !== TEST_CARDS.failsLater
    if (ok) {
      inv.status = 'paid'
      inv.nextPaymentAttempt = null
      emit('invoice.paid', invoiceView(inv))
      return true
    }
    const retryDay = RETRY_SCHEDULE_DAYS[inv.attemptCount - 1]
    inv.nextPaymentAttempt = retryDay === undefined ? null : inv.created + retryDay * DAY
    emit('invoice.payment_failed', invoiceView(inv))
    return false
  }

  function newInvoice(sub: SubscriptionState, amount: number, billingReason: string): InvoiceState {
    invoiceCounter += 1
    const inv: InvoiceState = {
      id: id('in'),
      number: `MAILROW-${String(invoiceCounter).padStart(4, '0')}`,
      customer: sub.customer,
      subscription: sub.id,
      amount,
      currency: priceView(sub.price)?.currency ?? 'usd',
      status: 'open',
      created: clock.now(),
      periodStart: sub.periodStart,
      periodEnd: sub.periodEnd,
      attemptCount: 0,
      nextPaymentAttempt: null,
      billingReason,
    }
    invoices.set(inv.id, inv)
    sub.latestInvoice = inv.id
    emit('invoice.created', invoiceView(inv))
    return inv
  }

  function setStatus(sub: SubscriptionState, status: SubscriptionState['status']) {
    if (sub.status === status) return
    const previous = { status: sub.status }
    sub.status = status
    emit('customer.subscription.updated', subscriptionView(sub), previous)
  }

  function endSubscription(sub: SubscriptionState, at: number) {
    sub.status = 'canceled'
    sub.endedAt = at
    sub.canceledAt ??= at
    for (const inv of invoices.values()) {
      if (inv.subscription === sub.id && inv.status === 'open') {
        inv.status = 'void'
        inv.nextPaymentAttempt = null
      }
    }
    emit('customer.subscription.deleted', subscriptionView(sub))
  }

  /** Runs what falls due up to the clock's now: renewals, period-end cancellations, payment retries. */
  function tick() {
    const now = clock.now()
    for (const sub of subscriptions.values()) {
      while (sub.status === 'active' || sub.status === 'past_due') {
        const retry = [...invoices.values()].find((inv) => inv.subscription === sub.id && inv.status === 'open' && inv.nextPaymentAttempt !== null)
        const due = Math.min(sub.periodEnd, retry?.nextPaymentAttempt ?? Infinity)
        if (due > now) break
        if (retry && retry.nextPaymentAttempt! <= sub.periodEnd) {
          if (attemptPayment(retry)) setStatus(sub, 'active')
          else if (retry.nextPaymentAttempt === null) endSubscription(sub, retry.created + RETRY_SCHEDULE_DAYS.at(-1)! * DAY)
          continue
        }
        if (sub.cancelAtPeriodEnd) {
          endSubscription(sub, sub.periodEnd)
          break
        }
        const previous = { items: subscriptionView(sub).items }
        sub.periodStart = sub.periodEnd
        sub.periodEnd = addMonth(sub.periodEnd)
        emit('customer.subscription.updated', subscriptionView(sub), previous)
        const inv = newInvoice(sub, priceView(sub.price)?.unit_amount ?? 0, 'subscription_cycle')
        inv.created = sub.periodStart
        if (!attemptPayment(inv)) setStatus(sub, 'past_due')
        else setStatus(sub, 'active')
      }
    }
  }

  // ── operations ──

  return {
    clock,
    events,
    listEvents: () => events,
    findEvent: (eventId: string) => events.find((e) => e.id === eventId),

    createCustomer(params: { email?: string; name?: string; metadata?: Record<string, string> }) {
      const customer: Customer = {
        id: id('cus'),
        object: 'customer',
        email: params.email ?? null,
        name: params.name ?? null,
        metadata: params.metadata ?? {},
        created: clock.now(),
        livemode: false,
        invoice_settings: { default_payment_method: null },
      }
      customers.set(customer.id, customer)
      emit('customer.created', customer)
      return customer
    },
    getCustomer(customerId: string) {
      const customer = customers.get(customerId)
      if (!customer) throw notFound('customer', customerId)
      return customer
    },
    card: (customerId: string) => cards.get(customerId) ?? null,

    getPrice(priceId: string) {
      const price = prices.get(priceId)
      if (!price) throw notFound('price', priceId)
      return price
    },
    listPrices: () => [...prices.values()],

    createCheckoutSession(params: {
      customer: string
      price: string
      successUrl: string
      cancelUrl: string
      clientReferenceId?: string
      metadata?: Record<string, string>
      subscriptionMetadata?: Record<string, string>
    }) {
      if (!customers.has(params.customer)) throw notFound('customer', params.customer, 'customer')
      if (!prices.has(params.price)) throw notFound('price', params.price, 'line_items[0][price]')
      const session: CheckoutSession = {
        id: `cs_test_${randomToken(40, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')}`,
        customer: params.customer,
        price: params.price,
        successUrl: params.successUrl,
        cancelUrl: params.cancelUrl,
        clientReferenceId: params.clientReferenceId ?? null,
        metadata: params.metadata ?? {},
        subscriptionMetadata: params.subscriptionMetadata ?? {},
        status: 'open',
        subscription: null,
        created: clock.now(),
      }
      checkoutSessions.set(session.id, session)
      return checkoutView(session)
    },
    getCheckoutSession(sessionId: string) {
      const session = checkoutSessions.get(sessionId)
      if (!session) throw notFound('checkout.session', sessionId)
      return session
    },
    checkoutView,

    /**
     * The hosted page's Pay button: a declined card changes nothing; any other card becomes the
     * customer's, the subscription starts now and its first invoice is paid.
     */
    payCheckoutSession(sessionId: string, cardNumber: string): { ok: true; redirect: string } | { ok: false; message: string } {
      const session = checkoutSessions.get(sessionId)
      if (!session) throw notFound('checkout.session', sessionId)
      if (session.status !== 'open') return { ok: false, message: 'This checkout session is no longer open.' }
      const number = cardNumber.replace(/\D/g, '')
      if (!/^\d{16}$/.test(number)) return { ok: false, message: 'Your card number is incomplete.' }
      if (number === TEST_CARDS.declined || number === TEST_CARDS.failsLater) return { ok: false, message: 'Your card was declined.' }
      cards.set(session.customer, { number, last4: number.slice(-4) })
      const now = clock.now()
      const sub: SubscriptionState = {
        id: id('sub'),
        customer: session.customer,
        price: session.price,
        status: 'active',
        cancelAtPeriodEnd: false,
        periodStart: now,
        periodEnd: addMonth(now),
        created: now,
        canceledAt: null,
        endedAt: null,
        latestInvoice: null,
        metadata: session.subscriptionMetadata,
        itemId: id('si'),
      }
      subscriptions.set(sub.id, sub)
      emit('customer.subscription.created', subscriptionView(sub))
      const inv = newInvoice(sub, priceView(sub.price)?.unit_amount ?? 0, 'subscription_create')
      attemptPayment(inv)
      session.status = 'complete'
      session.subscription = sub.id
      emit('checkout.session.completed', checkoutView(session))
      return { ok: true, redirect: session.successUrl.replace('{CHECKOUT_SESSION_ID}', session.id) }
    },

    createPortalSession(params: { customer: string; returnUrl: string; flow?: string }) {
      if (!customers.has(params.customer)) throw notFound('customer', params.customer, 'customer')
      const session: PortalSession = { id: id('bps'), customer: params.customer, returnUrl: params.returnUrl, created: clock.now(), flow: params.flow ?? null }
      portalSessions.set(session.id, session)
      return portalView(session)
    },
    getPortalSession(sessionId: string) {
      const session = portalSessions.get(sessionId)
      if (!session) throw notFound('billing_portal.session', sessionId)
      return session
    },

    getSubscription(subscriptionId: string) {
      const sub = subscriptions.get(subscriptionId)
      if (!sub) throw notFound('subscription', subscriptionId)
      return subscriptionView(sub)
    },
    listSubscriptions(filter: { customer?: string; status?: string }) {
      return [...subscriptions.values()]
        .filter((s) => !filter.customer || s.customer === filter.customer)
        .filter((s) => (filter.status === 'all' ? true : filter.status ? s.status === filter.status : s.status !== 'canceled' && s.status !== 'incomplete_expired'))
        .sort((a, b) => b.created - a.created)
        .map(subscriptionView)
    },
    /** cancel_at_period_end and a new price (an upgrade is prorated and invoiced at once). */
    updateSubscription(subscriptionId: string, params: { cancelAtPeriodEnd?: boolean; price?: string }) {
      const sub = subscriptions.get(subscriptionId)
      if (!sub) throw notFound('subscription', subscriptionId)
      if (sub.status === 'canceled') {
        throw new StripeApiError(400, { type: 'invalid_request_error', message: 'A canceled subscription can only update its cancellation_details and metadata.' })
      }
      const previous: Record<string, unknown> = {}
      if (params.cancelAtPeriodEnd !== undefined && params.cancelAtPeriodEnd !== sub.cancelAtPeriodEnd) {
        previous.cancel_at_period_end = sub.cancelAtPeriodEnd
        sub.cancelAtPeriodEnd = params.cancelAtPeriodEnd
        sub.canceledAt = params.cancelAtPeriodEnd ? clock.now() : null
      }
      let proration = 0
      if (params.price !== undefined && params.price !== sub.price) {
        const next = prices.get(params.price)
        if (!next) throw notFound('price', params.price, 'items[0][price]')
        const current = priceView(sub.price)?.unit_amount ?? 0
        const left = Math.max(0, sub.periodEnd - clock.now()) / Math.max(1, sub.periodEnd - sub.periodStart)
        proration = Math.round((next.unit_amount - current) * left)
        previous.items = subscriptionView(sub).items
        sub.price = params.price
      }
      if (Object.keys(previous).length > 0) emit('customer.subscription.updated', subscriptionView(sub), previous)
      if (proration > 0) {
        const inv = newInvoice(sub, proration, 'subscription_update')
        if (!attemptPayment(inv)) setStatus(sub, 'past_due')
      }
      return subscriptionView(sub)
    },
    cancelSubscription(subscriptionId: string) {
      const sub = subscriptions.get(subscriptionId)
      if (!sub) throw notFound('subscription', subscriptionId)
      if (sub.status !== 'canceled') endSubscription(sub, clock.now())
      return subscriptionView(sub)
    },

    getInvoice(invoiceId: string) {
      const inv = invoices.get(invoiceId)
      if (!inv) throw notFound('invoice', invoiceId)
      return invoiceView(inv)
    },
    listInvoices(filter: { customer?: string; subscription?: string }) {
      return [...invoices.values()]
        .filter((inv) => (!filter.customer || inv.customer === filter.customer) && (!filter.subscription || inv.subscription === filter.subscription))
        .sort((a, b) => b.created - a.created || b.number.localeCompare(a.number))
        .map(invoiceView)
    },

    /** The portal's card form: the new card pays what is open at once, as Stripe retries on a new payment method. */
    updateCard(customerId: string, cardNumber: string): { ok: true } | { ok: false; message: string } {
      if (!customers.has(customerId)) throw notFound('customer', customerId)
      const number = cardNumber.replace(/\D/g, '')
      if (!/^\d{16}$/.test(number)) return { ok: false, message: 'Your card number is incomplete.' }
      if (number === TEST_CARDS.declined) return { ok: false, message: 'Your card was declined.' }
      cards.set(customerId, { number, last4: number.slice(-4) })
      for (const inv of invoices.values()) {
        if (inv.customer !== customerId || inv.status !== 'open' || !inv.subscription) continue
        const sub = subscriptions.get(inv.subscription)
        if (sub && sub.status !== 'canceled' && attemptPayment(inv)) setStatus(sub, 'active')
      }
      return { ok: true }
    },

    tick,

    reset() {
      for (const map of [customers, cards, checkoutSessions, portalSessions, subscriptions, invoices]) map.clear()
      prices.clear()
      events.length = 0
      invoiceCounter = 0
      clock.reset()
      seedPrices()
    },
  }
}

export type StripeStore = ReturnType<typeof createStripeStore>
