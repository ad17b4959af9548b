import type Stripe from 'stripe'
import type { BillingView, CheckoutInput, InvoiceView, PortalInput } from '@shared/contracts/billing'
import { paths, isClientRoute } from '@shared/paths'
import { GRACE_PERIOD_DAYS, PAID_PLANS, PLAN_INFO, toPlan, type PaidPlan, type Plan } from '@shared/plans'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/errors'
import type { Logger } from '../../lib/logger'
import { findUserById } from '../account/account.queries'
import type { MailMessage, Mailer } from '../mail/mailer'
import { getMonthlyUsage } from '../usage/usage.service'
import type { BillingConfig } from './billing.client'
import {
  findBillingAccountByUser,
  insertBillingAccount,
  lockBillingAccountByCustomer,
  recordStripeEvent,
  setUserPlanById,
  updateBillingAccount,
  type BillingAccountRow,
} from './billing.queries'

/** Subscription statuses that are paid for (past_due: a renewal failed, the grace period runs). */
const PAID_STATUSES = new Set(['active', 'trialing', 'past_due'])

/** The events that can change a plan (docs/decisions/021); others are acknowledged and ignored. */
export const HANDLED_EVENTS = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
])

const INVOICES_SHOWN = 12
const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Stripe unreachable or failing on its side: the user is told to try again (503), not shown a 500.
 * Anything else (a bad price id, a bad key) is a configuration problem and stays a logged 500.
 */
async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    const type = (error as { type?: string }).type
    if (type === 'StripeConnectionError' || type === 'StripeAPIError' || type === 'StripeRateLimitError') {
      throw new AppError('UNAVAILABLE', 'Payments are not available right now. Please try again in a minute.')
    }
    throw error
  }
}

function requireBilling(billing: BillingConfig | null): BillingConfig {
  if (!billing) throw new AppError('NOT_FOUND', 'Billing is not enabled on this server. Your plan is set by the administrator.')
  return billing
}

export function graceEndsAt(failedAt: Date): Date {
  return new Date(failedAt.getTime() + GRACE_PERIOD_DAYS * DAY_MS)
}

function isLive(account: BillingAccountRow | undefined): boolean {
  return Boolean(account?.status && PAID_STATUSES.has(account.status))
}

function toInvoiceView(invoice: Stripe.Invoice): InvoiceView {
  return {
    id: invoice.id ?? '',
    number: invoice.number ?? null,
    date: new Date(invoice.created * 1000).toISOString(),
    amount: invoice.amount_due,
    currency: invoice.currency,
    status: invoice.status ?? 'draft',
    url: invoice.hosted_invoice_url ?? null,
    pdfUrl: invoice.invoice_pdf ?? null,
  }
}

/** Settings → Plan & billing: the plan, this month's usage, the subscription as last heard from Stripe, invoices. */
export async function getBilling(db: Db, { userId, billing, logger }: { userId: string; billing: BillingConfig | null; logger: Logger }): Promise<BillingView> {
  const [user, account, usage] = await Promise.all([findUserById(db, userId), findBillingAccountByUser(db, userId), getMonthlyUsage(db, { userId })])
  if (!user) throw new AppError('NOT_FOUND', 'Account not found')
  const plan = toPlan(user.plan)
  if (!billing) return { enabled: false, plan, subscription: null, paymentIssue: null, invoices: [], usage }
  let invoices: InvoiceView[] = []
  if (account) {
    // Stripe being slow or down must not take the settings page with it: the invoices just wait.
    invoices = await billing.stripe.invoices
      .list({ customer: account.stripeCustomerId, limit: INVOICES_SHOWN })
      .then((page) => page.data.filter((invoice) => invoice.status !== 'draft').map(toInvoiceView))
      .catch((error: unknown) => {
        logger.warn({ err: error, userId }, 'could not list Stripe invoices')
        return []
      })
  }
  const live = isLive(account) && account
  return {
    enabled: true,
    plan,
    subscription: live
      ? { plan: toPlan(live.plan), status: live.status!, cancelAtPeriodEnd: live.cancelAtPeriodEnd, currentPeriodEnd: live.currentPeriodEnd?.toISOString() ?? null }
      : null,
    paymentIssue:
      live && live.status === 'past_due' && live.paymentFailedAt
        ? { failedAt: live.paymentFailedAt.toISOString(), graceEndsAt: graceEndsAt(live.paymentFailedAt).toISOString() }
        : null,
    invoices,
    usage,
  }
}

/** Only the app's own pages: anything else (another site, a protocol-relative URL) returns to /settings. */
function returnPath(returnTo: string | undefined): string {
  if (!returnTo || !returnTo.startsWith('/') || returnTo.startsWith('//')) return paths.settings
  const pathname = returnTo.split(/[?#]/)[0]!
  return isClientRoute(pathname) ? pathname : paths.settings
}

/** The user's Stripe customer, created the first time they upgrade. */
async function ensureCustomer(db: Db, billing: BillingConfig, userId: string): Promise<BillingAccountRow> {
  const existing = await findBillingAccountByUser(db, userId)
  if (existing) return existing
  const user = await findUserById(db, userId)
  if (!user) throw new AppError('NOT_FOUND', 'Account not found')
  // The idempotency key makes a double click (or two tabs) create one customer, not two.
  const customer = await callStripe(() =>
    billing.stripe.customers.create({ email: user.email, name: user.name, metadata: { userId } }, { idempotencyKey: `mailrow-customer-${userId}` }),
  )
  const row = await insertBillingAccount(db, { userId, customerId: customer.id })
  if (!row) throw new AppError('INTERNAL', 'Could not link your billing account')
  return row
}

/** 'Upgrade Now': a Stripe Checkout session for a paid plan. The plan changes when Stripe's webhook says it is paid. */
export async function startCheckout(
  db: Db,
  { userId, input, billing: maybeBilling, appUrl }: { userId: string; input: CheckoutInput; billing: BillingConfig | null; appUrl: string },
): Promise<{ url: string }> {
  const billing = requireBilling(maybeBilling)
  const account = await ensureCustomer(db, billing, userId)
  if (isLive(account)) throw new AppError('CONFLICT', 'You already have a subscription. Change your plan from Manage billing.')
  const path = returnPath(input.returnTo)
  const back = (outcome: string) => `${appUrl}${path}?checkout=${outcome}${path === paths.settings ? '#plan' : ''}`
  const session = await callStripe(() =>
    billing.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: account.stripeCustomerId,
      client_reference_id: userId,
      line_items: [{ price: billing.prices[input.plan], quantity: 1 }],
      success_url: back('success'),
      cancel_url: back('cancelled'),
      metadata: { userId, plan: input.plan },
      subscription_data: { metadata: { userId } },
    }),
  )
  if (!session.url) throw new AppError('INTERNAL', 'Stripe did not return a checkout page')
  return { url: session.url }
}

/** 'Manage billing', 'Change plan', 'Cancel plan', 'Resume plan': Stripe's Billing Portal. */
export async function openBillingPortal(
  db: Db,
  { userId, input, billing: maybeBilling, appUrl }: { userId: string; input: PortalInput; billing: BillingConfig | null; appUrl: string },
): Promise<{ url: string }> {
  const billing = requireBilling(maybeBilling)
  const account = await findBillingAccountByUser(db, userId)
  if (!account) throw new AppError('NOT_FOUND', 'You have no subscription to manage yet.')
  const returnUrl = `${appUrl}${paths.settings}#plan`
  const subscription = isLive(account) ? account.subscriptionId : null
  const flow: Stripe.BillingPortal.SessionCreateParams.FlowData | undefined =
    subscription && input.flow === 'cancel'
      ? { type: 'subscription_cancel', subscription_cancel: { subscription }, after_completion: { type: 'redirect', redirect: { return_url: returnUrl } } }
      : subscription && input.flow === 'change'
        ? { type: 'subscription_update', subscription_update: { subscription } }
        : undefined
  const session = await callStripe(() =>
    billing.stripe.billingPortal.sessions.create({ customer: account.stripeCustomerId, return_url: returnUrl, ...(flow ? { flow_data: flow } : {}) }),
  )
  return { url: session.url }
}

type SubscriptionState = {
  subscriptionId: string | null
  status: string | null
  plan: PaidPlan | null
  cancelAtPeriodEnd: boolean
  currentPeriodEnd: Date | null
}

const STATUS_RANK: Record<string, number> = { active: 3, trialing: 3, past_due: 2 }

/**
 * The customer's subscription as Stripe has it now: events are only a prompt to look, so one that
 * arrives late or out of order cannot put an older state back.
 */
async function readSubscriptionState(billing: BillingConfig, customerId: string): Promise<SubscriptionState> {
  const { data } = await billing.stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 20 })
  const best = [...data].sort((a, b) => (STATUS_RANK[b.status] ?? 0) - (STATUS_RANK[a.status] ?? 0) || b.created - a.created)[0]
  if (!best) return { subscriptionId: null, status: null, plan: null, cancelAtPeriodEnd: false, currentPeriodEnd: null }
  const item = best.items.data[0]
  const priceId = item?.price.id
  const plan = PAID_PLANS.find((p) => billing.prices[p] === priceId) ?? null
  return {
    subscriptionId: best.id,
    status: best.status,
    plan,
    cancelAtPeriodEnd: best.cancel_at_period_end,
    currentPeriodEnd: item ? new Date(item.current_period_end * 1000) : null,
  }
}

function customerOf(object: unknown): string | null {
  const customer = (object as { customer?: unknown }).customer
  if (typeof customer === 'string') return customer
  if (customer && typeof customer === 'object' && 'id' in customer && typeof customer.id === 'string') return customer.id
  return null
}

function paymentFailedMail({ to, plan, graceEnd, appUrl }: { to: string; plan: Plan; graceEnd: Date; appUrl: string }): MailMessage {
  const name = PLAN_INFO[plan].name
  const date = graceEnd.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })
  return {
    to,
    subject: 'Your Mailrow payment failed',
    text: [
      `We could not charge your card for your ${name} plan.`,
      `Update your card by ${date} to keep ${name}. After that your account moves to the Free plan; your parsers and rows are kept.`,
      '',
      `${appUrl}${paths.settings}#plan`,
    ].join('\n'),
  }
}

/**
 * Stripe's webhook: verified with the endpoint secret (a forged or stale signature is refused),
 * handled once per event id, one event of a customer at a time, and always from the
 * subscription's current state read back from Stripe.
 */
export async function handleStripeWebhook(
  db: Db,
  {
    payload,
    signature,
    billing: maybeBilling,
    mailer,
    logger,
    appUrl,
  }: { payload: string; signature: string | undefined; billing: BillingConfig | null; mailer: Mailer; logger: Logger; appUrl: string },
): Promise<{ duplicate: boolean }> {
  const billing = requireBilling(maybeBilling)
  let event: Stripe.Event
  try {
    // Checks the HMAC and that the signature is under 5 minutes old (a replayed request is refused).
    event = billing.stripe.webhooks.constructEvent(payload, signature ?? '', billing.webhookSecret)
  } catch {
    throw new AppError('VALIDATION', 'Invalid Stripe signature')
  }
  if (!HANDLED_EVENTS.has(event.type)) return { duplicate: false }

  const object = event.data.object
  const customerId = customerOf(object)
  let mail: MailMessage | null = null
  const duplicate = await db.transaction(async (tx) => {
    let account = customerId ? await lockBillingAccountByCustomer(tx, customerId) : undefined
    if (!account && customerId && event.type === 'checkout.session.completed') {
      // A customer made outside Mailrow's own Checkout call: Checkout names the user it was for.
      const userId = (object as Stripe.Checkout.Session).client_reference_id
      if (userId && (await findUserById(tx, userId))) {
        await insertBillingAccount(tx, { userId, customerId })
        account = await lockBillingAccountByCustomer(tx, customerId)
      }
    }
    if (!(await recordStripeEvent(tx, { id: event.id, type: event.type }))) return true
    if (!account) {
      logger.warn({ eventId: event.id, type: event.type, customerId }, 'Stripe event for a customer Mailrow does not know; ignored')
      return false
    }
    const state = await readSubscriptionState(billing, account.stripeCustomerId)
    const isPaid = state.status !== null && PAID_STATUSES.has(state.status)
    const paymentFailedAt = state.status === 'past_due' ? (account.paymentFailedAt ?? new Date(event.created * 1000)) : null
    await updateBillingAccount(tx, account.userId, { ...state, paymentFailedAt })
    const user = await setUserPlanById(tx, account.userId, isPaid && state.plan ? state.plan : 'free')
    if (event.type === 'invoice.payment_failed' && paymentFailedAt && user && state.plan) {
      mail = paymentFailedMail({ to: user.email, plan: state.plan, graceEnd: graceEndsAt(paymentFailedAt), appUrl })
    }
    logger.info({ eventId: event.id, type: event.type, userId: account.userId, status: state.status, plan: isPaid ? state.plan : 'free' }, 'Stripe event handled')
    return false
  })
  if (mail) await mailer.send(mail).catch((error: unknown) => logger.error({ err: error }, 'could not send the payment-failed mail'))
  return { duplicate }
}

/** Deleting the account: its live subscription is canceled at once (no further renewals). */
export async function endSubscriptionNow(db: Db, { userId, billing }: { userId: string; billing: BillingConfig | null }) {
  if (!billing) return
  const account = await findBillingAccountByUser(db, userId)
  if (!account) return
  const { data } = await billing.stripe.subscriptions.list({ customer: account.stripeCustomerId, limit: 20 })
  for (const subscription of data) {
    if (subscription.status !== 'canceled' && subscription.status !== 'incomplete_expired') await billing.stripe.subscriptions.cancel(subscription.id)
  }
}
