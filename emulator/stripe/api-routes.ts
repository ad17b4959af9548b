import type { Context } from 'hono'
import { Hono } from 'hono'
import { decodeStripeForm, field, stringMap, type FormObject } from './form'
import { StripeApiError, type StripeStore } from './stripe-store'

/** Stripe's list envelope. */
function list(url: string, data: unknown[], limit: number) {
  return { object: 'list', data: data.slice(0, limit), has_more: data.length > limit, url }
}

async function readForm(c: Context): Promise<FormObject> {
  const type = c.req.header('content-type') ?? ''
  if (c.req.method === 'GET' || c.req.method === 'DELETE') return decodeStripeForm(new URL(c.req.url).searchParams)
  if (!type.includes('application/x-www-form-urlencoded')) {
    // Stripe answers JSON bodies with this error; the official clients always send forms.
    if ((await c.req.text()).trim() === '') return {}
    throw new StripeApiError(400, { type: 'invalid_request_error', message: 'Invalid request: the body must be application/x-www-form-urlencoded.' })
  }
  return decodeStripeForm(new URLSearchParams(await c.req.text()))
}

function required(form: FormObject, name: string, ...path: (string | number)[]): string {
  const value = field(form, ...(path.length ? path : [name]))
  if (!value) throw new StripeApiError(400, { type: 'invalid_request_error', code: 'parameter_missing', param: name, message: `Missing required param: ${name}.` })
  return value
}

function limitOf(form: FormObject) {
  const limit = Number(field(form, 'limit') ?? 10)
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new StripeApiError(400, { type: 'invalid_request_error', param: 'limit', message: 'Invalid integer: limit must be between 1 and 100.' })
  }
  return limit
}

/** The REST subset Mailrow calls, under /v1, behind a secret key. */
export function stripeApiRoutes(store: StripeStore, options: { isValidKey: (key: string) => boolean }) {
  return new Hono()
    .use(async (c, next) => {
      const header = c.req.header('authorization') ?? ''
      const key = header.replace(/^Bearer\s+/i, '')
      if (!key) {
        throw new StripeApiError(401, {
          type: 'invalid_request_error',
          message: 'You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. \'Authorization: Bearer YOUR_SECRET_KEY\').',
        })
      }
      if (!options.isValidKey(key)) {
        throw new StripeApiError(401, { type: 'invalid_request_error', code: 'api_key_expired', message: `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}` })
      }
      await next()
    })
    .post('/customers', async (c) => {
      const form = await readForm(c)
      return c.json(store.createCustomer({ email: field(form, 'email'), name: field(form, 'name'), metadata: stringMap(form, 'metadata') }))
    })
    .get('/customers/:id', (c) => c.json(store.getCustomer(c.req.param('id'))))
    .get('/prices', async (c) => c.json(list('/v1/prices', store.listPrices(), limitOf(await readForm(c)))))
    .get('/prices/:id', (c) => c.json(store.getPrice(c.req.param('id'))))
    .post('/checkout/sessions', async (c) => {
      const form = await readForm(c)
      const mode = required(form, 'mode')
      if (mode !== 'subscription') {
        throw new StripeApiError(400, { type: 'invalid_request_error', param: 'mode', message: 'The emulator supports Checkout in subscription mode only.' })
      }
      const session = store.createCheckoutSession({
        customer: required(form, 'customer'),
        price: required(form, 'line_items[0][price]', 'line_items', 0, 'price'),
        successUrl: required(form, 'success_url'),
        cancelUrl: field(form, 'cancel_url') ?? required(form, 'success_url'),
        clientReferenceId: field(form, 'client_reference_id'),
        metadata: stringMap(form, 'metadata'),
        subscriptionMetadata: stringMap((form.subscription_data as FormObject | undefined) ?? {}, 'metadata'),
      })
      return c.json(session)
    })
    .get('/checkout/sessions/:id', (c) => c.json(store.checkoutView(store.getCheckoutSession(c.req.param('id')))))
    .post('/billing_portal/sessions', async (c) => {
      const form = await readForm(c)
      return c.json(store.createPortalSession({ customer: required(form, 'customer'), returnUrl: required(form, 'return_url'), flow: field(form, 'flow_data', 'type') }))
    })
    .get('/subscriptions', async (c) => {
      const form = await readForm(c)
      return c.json(list('/v1/subscriptions', store.listSubscriptions({ customer: field(form, 'customer'), status: field(form, 'status') }), limitOf(form)))
    })
    .get('/subscriptions/:id', (c) => c.json(store.getSubscription(c.req.param('id'))))
    .post('/subscriptions/:id', async (c) => {
      const form = await readForm(c)
      const cancel = field(form, 'cancel_at_period_end')
      return c.json(
        store.updateSubscription(c.req.param('id'), {
          cancelAtPeriodEnd: cancel === undefined ? undefined : cancel === 'true',
          price: field(form, 'items', 0, 'price'),
        }),
      )
    })
    .delete('/subscriptions/:id', (c) => c.json(store.cancelSubscription(c.req.param('id'))))
    .get('/invoices', async (c) => {
      const form = await readForm(c)
      return c.json(list('/v1/invoices', store.listInvoices({ customer: field(form, 'customer'), subscription: field(form, 'subscription') }), limitOf(form)))
    })
    .get('/invoices/:id', (c) => c.json(store.getInvoice(c.req.param('id'))))
    .get('/events', async (c) => c.json(list('/v1/events', [...store.listEvents()].reverse(), limitOf(await readForm(c)))))
    .get('/events/:id', (c) => {
      const event = store.findEvent(c.req.param('id'))
      if (!event) throw new StripeApiError(404, { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such event: '${c.req.param('id')}'` })
      return c.json({ object: 'event', livemode: false, ...event })
    })
}
