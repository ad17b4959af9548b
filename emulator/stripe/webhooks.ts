import { createHmac } from 'node:crypto'
import type { StripeEvent } from './stripe-store'

/** Where events are POSTed; `fetch` lets a test hand them to an in-process app. */
export type WebhookEndpoint = { url: string; secret: string; fetch?: (url: string, init: RequestInit) => Promise<Response> | Response }

export type Delivery = { eventId: string; type: string; url: string; status: number | null; error: string | null; attempt: number }

/** Stripe's scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.payload" with the endpoint secret>`. */
export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex')
  return `t=${timestamp},v1=${signature}`
}

const RETRY_DELAYS_MS = [200, 1000, 5000]

/**
 * Delivers events to the endpoints one at a time, in the order they happened (Stripe does not
 * promise order; tests that need another order resend events through the control API). A failed
 * delivery (network or non-2xx) is retried a few times, then given up and kept in the log.
 */
export function createWebhookDispatcher(options: { apiVersion: string; now: () => number }) {
  let endpoints: WebhookEndpoint[] = []
  const log: Delivery[] = []
  let chain: Promise<void> = Promise.resolve()
  let paused = false
  const held: StripeEvent[] = []
  const timers = new Set<ReturnType<typeof setTimeout>>()

  function body(event: StripeEvent) {
    return JSON.stringify({
      id: event.id,
      object: 'event',
      api_version: options.apiVersion,
      created: event.created,
      data: event.data,
      livemode: false,
      pending_webhooks: endpoints.length,
      request: { id: null, idempotency_key: null },
      type: event.type,
    })
  }

  async function post(endpoint: WebhookEndpoint, event: StripeEvent, attempt: number): Promise<void> {
    const payload = body(event)
    // Signed with real time, not the test clock: the receiver checks the timestamp against its own clock.
    const header = signatureHeader(payload, endpoint.secret, Math.floor(Date.now() / 1000))
    const entry: Delivery = { eventId: event.id, type: event.type, url: endpoint.url, status: null, error: null, attempt }
    log.push(entry)
    try {
      const send = endpoint.fetch ?? fetch
      const response = await send(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header, 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
        body: payload,
        signal: AbortSignal.timeout(10_000),
      })
      entry.status = response.status
      await response.body?.cancel().catch(() => {})
      if (response.ok) return
    } catch (error) {
      entry.error = error instanceof Error ? error.message : String(error)
    }
    const delay = RETRY_DELAYS_MS[attempt - 1]
    if (delay === undefined) return
    const timer = setTimeout(() => {
      timers.delete(timer)
      chain = chain.then(() => post(endpoint, event, attempt + 1))
    }, delay)
    timers.add(timer)
  }

  function deliver(event: StripeEvent) {
    if (paused) {
      held.push(event)
      return
    }
    for (const endpoint of endpoints) chain = chain.then(() => post(endpoint, event, 1))
  }

  return {
    deliver,
    /** Sends an event again (a replay, as the Dashboard's "Resend" does), newly signed. */
    resend: (event: StripeEvent) => {
      for (const endpoint of endpoints) chain = chain.then(() => post(endpoint, event, 1))
      return chain
    },
    setEndpoints: (next: WebhookEndpoint[]) => {
      endpoints = next
    },
    endpoints: () => endpoints,
    /** Holds events back (tests deliver them later, in any order). */
    pause: () => {
      paused = true
    },
    resume: () => {
      paused = false
      for (const event of held.splice(0)) deliver(event)
    },
    held: () => [...held],
    takeHeld: () => held.splice(0),
    log: () => log,
    /** Resolves once every queued delivery has been made. */
    flush: async () => {
      let current: Promise<void>
      do {
        current = chain
        await current
      } while (current !== chain)
    },
    stop: () => {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
    },
    clear: () => {
      log.length = 0
      held.length = 0
      paused = false
    },
  }
}

export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>
