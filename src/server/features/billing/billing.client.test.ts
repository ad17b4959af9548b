import { describe, expect, it } from 'vitest'
import { EnvError, parseEnv } from '../../env'
import { billingConfigFor, DEMO_STRIPE } from './billing.client'

const stripeKeys = { STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_PRICE_STARTER: 'price_s', STRIPE_PRICE_PRO: 'price_p' }
const google = { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' }

describe('billing configuration', () => {
  it('is off for a self-hosted install without a Stripe key: the operator sets plans', () => {
    expect(billingConfigFor(parseEnv(google), undefined)).toBeNull()
  })

  it('uses Stripe with the key, its webhook secret and prices', () => {
    const billing = billingConfigFor(parseEnv({ ...google, ...stripeKeys }), undefined)
    expect(billing).toMatchObject({ webhookSecret: 'whsec_x', prices: { starter: 'price_s', pro: 'price_p' }, isEmulator: false })
  })

  it('uses the emulator demo mode starts, with the demo key and prices', () => {
    expect(billingConfigFor(parseEnv({}), 'http://127.0.0.1:4011')).toMatchObject({ webhookSecret: DEMO_STRIPE.webhookSecret, prices: DEMO_STRIPE.prices, isEmulator: true })
  })

  it('names every Stripe setting missing beside STRIPE_SECRET_KEY', () => {
    try {
      parseEnv({ STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PRICE_PRO: 'price_p' })
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError)
      expect((error as EnvError).problems).toEqual([
        'STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set',
        'STRIPE_PRICE_STARTER: required when STRIPE_SECRET_KEY is set',
      ])
    }
  })
})
