import Stripe from 'stripe'
import type { PaidPlan } from '@shared/plans'
import type { Env } from '../../env'

/** Stripe as Mailrow uses it: the official client, the webhook secret and the plans' prices. */
export type BillingConfig = {
  stripe: Stripe
  webhookSecret: string
  prices: Record<PaidPlan, string>
  /** True against the local Stripe emulator (demo mode, tests). */
  isEmulator: boolean
}

/**
 * The key, webhook secret and prices demo mode gives the Stripe emulator it starts, and uses to
 * talk to it (the same role DEMO_OAUTH_CLIENT plays for the Google emulator).
 */
export const DEMO_STRIPE = {
  secretKey: 'sk_test_mailrow_demo',
  webhookSecret: 'whsec_mailrow_demo',
  prices: { starter: 'price_mailrow_starter', pro: 'price_mailrow_pro' },
} as const satisfies { secretKey: string; webhookSecret: string; prices: Record<PaidPlan, string> }

/** The official client, pointed at `apiUrl` (an emulator) when given. */
export function createStripeClient(secretKey: string, apiUrl?: string): Stripe {
  const target = apiUrl ? new URL(apiUrl) : undefined
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Mailrow' },
    ...(target ? { host: target.hostname, port: target.port || (target.protocol === 'https:' ? 443 : 80), protocol: target.protocol === 'https:' ? 'https' : 'http' } : {}),
  })
}

/**
 * Billing is on with STRIPE_SECRET_KEY (Stripe, or the emulator at STRIPE_API_URL), or against an
 * emulator without a key (demo mode, or one you started yourself). Otherwise it is off and the
 * operator sets plans.
 */
export function billingConfigFor(env: Env, emulatorUrl: string | undefined): BillingConfig | null {
  if (env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET && env.STRIPE_PRICE_STARTER && env.STRIPE_PRICE_PRO) {
    return {
      stripe: createStripeClient(env.STRIPE_SECRET_KEY, emulatorUrl ?? env.STRIPE_API_URL),
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      prices: { starter: env.STRIPE_PRICE_STARTER, pro: env.STRIPE_PRICE_PRO },
      isEmulator: Boolean(emulatorUrl ?? env.STRIPE_API_URL),
    }
  }
  const url = emulatorUrl ?? env.STRIPE_API_URL
  if (!url) return null
  return { stripe: createStripeClient(DEMO_STRIPE.secretKey, url), webhookSecret: DEMO_STRIPE.webhookSecret, prices: { ...DEMO_STRIPE.prices }, isEmulator: true }
}
