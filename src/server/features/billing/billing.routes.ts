import { Hono } from 'hono'
import { checkoutInputSchema, portalInputSchema } from '@shared/contracts/billing'
import type { AppEnv } from '../../context'
import { requireSession } from '../../lib/session'
import { validate } from '../../lib/validate'
import { getBilling, handleStripeWebhook, openBillingPortal, startCheckout } from './billing.service'

/** Where Stripe posts events (no session: the Stripe-Signature header is the proof). */
export const BILLING_WEBHOOK_PATH = '/api/billing/webhook'

export const billingWebhookRoutes = new Hono<AppEnv>().post('/', async (c) => {
  const { billing, mailer, logger, env } = c.var.deps
  // The signature covers the exact bytes Stripe sent, so the body is read as text, never re-encoded.
  const result = await handleStripeWebhook(c.var.db, { payload: await c.req.text(), signature: c.req.header('stripe-signature'), billing, mailer, logger, appUrl: env.APP_URL })
  return c.json({ received: true, duplicate: result.duplicate })
})

export const billingRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get('/', async (c) => c.json({ billing: await getBilling(c.var.db, { userId: c.var.user.id, billing: c.var.deps.billing, logger: c.var.logger }) }))
  .post('/checkout', validate('json', checkoutInputSchema), async (c) =>
    c.json(await startCheckout(c.var.db, { userId: c.var.user.id, input: c.req.valid('json'), billing: c.var.deps.billing, appUrl: c.var.deps.env.APP_URL })),
  )
  .post('/portal', validate('json', portalInputSchema), async (c) =>
    c.json(await openBillingPortal(c.var.db, { userId: c.var.user.id, input: c.req.valid('json'), billing: c.var.deps.billing, appUrl: c.var.deps.env.APP_URL })),
  )
