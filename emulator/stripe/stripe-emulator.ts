import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { stripeApiRoutes } from './api-routes'
import { stripePageRoutes } from './pages'
import { createStripeStore, createTestClock, StripeApiError, type StripeStore } from './stripe-store'
import { createWebhookDispatcher, type WebhookDispatcher, type WebhookEndpoint } from './webhooks'

/** The API version the emulator's objects follow (that of the `stripe` client Mailrow uses). */
export const EMULATOR_API_VERSION = '2026-10-28.endive'

/** Prices every emulator starts with: Mailrow's plans at the spec's prices. */
export const DEFAULT_PRICES = [
  { id: 'price_mailrow_starter', unitAmount: 2900, nickname: 'Starter' },
  { id: 'price_mailrow_pro', unitAmount: 7900, nickname: 'Pro' },
]

export const DEFAULT_SECRET_KEY = 'sk_test_mailrow_demo'
export const DEFAULT_WEBHOOK_SECRET = 'whsec_mailrow_demo'

export type StripeEmulatorOptions = {
  prices?: { id: string; unitAmount: number; nickname: string; currency?: string }[]
  /** Secret keys accepted; by default any `sk_test_` key. */
  secretKeys?: string[]
  webhooks?: WebhookEndpoint[]
  /** Origin used in the URLs it hands out (checkout, portal, invoices) instead of its own. */
  publicUrl?: string
  /** How long a Checkout or portal action waits for its webhooks to be delivered before redirecting. */
  redirectWaitMs?: number
}

export type RunningStripeEmulator = { url: string; port: number; close: () => Promise<void> }

export type StripeEmulator = {
  app: Hono
  store: StripeStore
  webhooks: WebhookDispatcher
  start: (port?: number, hostname?: string) => Promise<RunningStripeEmulator>
  /** Moves the test clock on and runs what fell due (renewals, period ends, payment retries). */
  advance: (seconds: number) => void
  /** Resolves once every event raised so far has been delivered. */
  flush: () => Promise<void>
  stop: () => void
}

export function createStripeEmulator(options: StripeEmulatorOptions = {}): StripeEmulator {
  let origin = options.publicUrl?.replace(/\/+$/, '') ?? 'http://127.0.0.1'
  const clock = createTestClock()
  const webhooks = createWebhookDispatcher({ apiVersion: EMULATOR_API_VERSION, now: clock.now })
  webhooks.setEndpoints(options.webhooks ?? [])
  const store = createStripeStore(clock, { prices: options.prices ?? DEFAULT_PRICES, baseUrl: () => origin, onEvent: (event) => webhooks.deliver(event) })
  const isValidKey = (key: string) => (options.secretKeys ? options.secretKeys.includes(key) : key.startsWith('sk_test_'))

  const redirectWaitMs = options.redirectWaitMs ?? 3000
  // The hosted pages redirect once their events are delivered (or a moment has passed), so the
  // app usually knows of the change when the user lands back on it; the app never relies on it.
  const afterAction = () => Promise.race([webhooks.flush(), new Promise<void>((resolve) => setTimeout(resolve, redirectWaitMs).unref())])

  const advance = (seconds: number) => {
    clock.advance(seconds)
    store.tick()
  }

  const control = new Hono()
    .get('/health', (c) => c.json({ ok: true }))
    .get('/clock', (c) => c.json({ now: clock.now(), offsetSeconds: clock.offset() }))
    .post('/clock/advance', async (c) => {
      const body = (await c.req.json().catch(() => ({}))) as { seconds?: number; days?: number; to?: number }
      const seconds = body.to !== undefined ? body.to - clock.now() : (body.seconds ?? 0) + (body.days ?? 0) * 86_400
      if (!Number.isFinite(seconds) || seconds < 0) return c.json({ error: { type: 'invalid_request_error', message: 'The clock only moves forward.' } }, 400)
      advance(seconds)
      await afterAction()
      return c.json({ now: clock.now(), offsetSeconds: clock.offset() })
    })
    .post('/webhooks', async (c) => {
      const body = (await c.req.json().catch(() => ({}))) as { url?: string; secret?: string }
      if (!body.url || !body.secret) return c.json({ error: { type: 'invalid_request_error', message: 'url and secret are required' } }, 400)
      webhooks.setEndpoints([...webhooks.endpoints(), { url: body.url, secret: body.secret }])
      return c.json({ endpoints: webhooks.endpoints().map((e) => e.url) })
    })
    .post('/webhooks/pause', (c) => {
      webhooks.pause()
      return c.json({ paused: true })
    })
    .post('/webhooks/resume', async (c) => {
      webhooks.resume()
      await webhooks.flush()
      return c.json({ paused: false })
    })
    .get('/deliveries', (c) => c.json({ deliveries: webhooks.log() }))
    .get('/events', (c) => c.json({ events: store.listEvents() }))
    .post('/events/:id/resend', async (c) => {
      const event = store.findEvent(c.req.param('id'))
      if (!event) return c.json({ error: { type: 'invalid_request_error', message: 'No such event' } }, 404)
      await webhooks.resend(event)
      return c.json({ resent: event.id })
    })
    .post('/reset', (c) => {
      store.reset()
      webhooks.clear()
      return c.json({ ok: true })
    })

  const app = new Hono()
  app.use(async (c, next) => {
    if (!options.publicUrl) origin = new URL(c.req.url).origin
    await next()
  })
  app.route('/v1', stripeApiRoutes(store, { isValidKey }))
  app.route('/', stripePageRoutes(store, { afterAction }))
  app.route('/_control', control)
  app.onError((error, c) => {
    if (error instanceof StripeApiError) return c.json({ error: { ...error.body, doc_url: `https://docs.stripe.com/error-codes${error.body.code ? `/${error.body.code.replace(/_/g, '-')}` : ''}` } }, error.status as 400)
    console.error('[stripe-emulator]', error)
    return c.json({ error: { type: 'api_error', message: 'An unknown error occurred in the Stripe emulator.' } }, 500)
  })
  app.notFound((c) =>
    c.json({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${c.req.method}: ${new URL(c.req.url).pathname}).` } }, 404),
  )

  return {
    app,
    store,
    webhooks,
    advance,
    flush: () => webhooks.flush(),
    stop: () => webhooks.stop(),
    start: (port = 0, hostname = '127.0.0.1') =>
      new Promise((resolve, reject) => {
        const server = serve({ fetch: app.fetch, port, hostname }, (info: AddressInfo) => {
          const url = `http://${hostname}:${info.port}`
          if (!options.publicUrl) origin = url
          resolve({
            url,
            port: info.port,
            close: () =>
              new Promise<void>((done) => {
                webhooks.stop()
                server.close(() => done())
              }),
          })
        })
        server.on('error', reject)
      }),
  }
}
