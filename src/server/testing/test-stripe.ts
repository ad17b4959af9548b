import { createStripeEmulator, type StripeEmulatorOptions } from '@emulator/stripe/stripe-emulator'
import { BILLING_WEBHOOK_PATH } from '../features/billing/billing.routes'
import { createTestApp, TEST_APP_URL, type TestApp } from './test-app'

export const TEST_STRIPE = {
  secretKey: 'sk_test_mailrow_tests',
  webhookSecret: 'whsec_mailrow_tests',
  prices: { starter: 'price_test_starter', pro: 'price_test_pro' },
}

/**
 * The Stripe emulator on a free port and an in-process app billing through it, configured as an
 * operator would (STRIPE_* keys); webhooks go straight to the app, signed with the test secret.
 */
export async function createBillingTestApp(options: StripeEmulatorOptions = {}) {
  // Events can only reach the app once it exists; the emulator has to start first (the app needs its URL).
  const target: { app?: TestApp } = {}
  const stripe = createStripeEmulator({
    secretKeys: [TEST_STRIPE.secretKey],
    prices: [
      { id: TEST_STRIPE.prices.starter, unitAmount: 2900, nickname: 'Starter' },
      { id: TEST_STRIPE.prices.pro, unitAmount: 7900, nickname: 'Pro' },
    ],
    webhooks: [
      {
        url: `${TEST_APP_URL}${BILLING_WEBHOOK_PATH}`,
        secret: TEST_STRIPE.webhookSecret,
        fetch: async (url, init) => {
          if (!target.app) return new Response('not ready', { status: 503 })
          return target.app.app.request(new URL(url).pathname, init)
        },
      },
    ],
    redirectWaitMs: 0,
    ...options,
  })
  const running = await stripe.start(0)
  const testApp = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: TEST_STRIPE.secretKey,
      STRIPE_WEBHOOK_SECRET: TEST_STRIPE.webhookSecret,
      STRIPE_PRICE_STARTER: TEST_STRIPE.prices.starter,
      STRIPE_PRICE_PRO: TEST_STRIPE.prices.pro,
      STRIPE_API_URL: running.url,
    },
  })
  target.app = testApp
  return {
    ...testApp,
    stripe,
    stripeUrl: running.url,
    close: async () => {
      await running.close()
      await testApp.close()
    },
  }
}
export type BillingTestApp = Awaited<ReturnType<typeof createBillingTestApp>>

/** Submits the hosted Checkout page's card form, as a user would. */
export async function payCheckout(checkoutUrl: string, card: string) {
  const response = await fetch(checkoutUrl, { method: 'POST', body: new URLSearchParams({ card, exp: '12 / 34', cvc: '123' }), redirect: 'manual' })
  return { status: response.status, location: response.headers.get('location'), text: await response.text() }
}

/** Presses a button of the Billing Portal page ('cancel', 'resume', 'switch', 'card'). */
export async function portalAction(portalUrl: string, action: 'cancel' | 'resume' | 'switch' | 'card', fields: Record<string, string> = {}) {
  const page = await (await fetch(portalUrl)).text()
  const subscription = /name="subscription" value="(sub_\w+)"/.exec(page)?.[1] ?? ''
  const response = await fetch(`${portalUrl}/${action}`, { method: 'POST', body: new URLSearchParams({ subscription, ...fields }), redirect: 'manual' })
  return { status: response.status, text: await response.text() }
}
