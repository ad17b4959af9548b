import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import {
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_TEST_EVENT,
  WEBHOOKS_PLAN_MESSAGE,
  type CreateWebhookInput,
  type UpdateWebhookInput,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookEventType,
  createWebhookInputSchema,
  updateWebhookInputSchema,
} from '@shared/contracts/webhooks'
import { PLAN_INFO, PLANS, toPlan, type Plan } from '@shared/plans'
import type { Db } from '../../db/client'
import type { WebhookAttempt } from '../../db/schema'
import type { Env } from '../../env'
import type { SecretBox } from '../../lib/crypto'
import { AppError } from '../../lib/errors'
import {
  claimDueDeliveries,
  countEndpointsByUser,
  deleteEndpoint,
  disableFailingEndpoint,
  findDeliveryForUser,
  findEndpointForUser,
  findEndpointWithPlan,
  findUserPlan,
  insertDeliveries,
  insertEndpoint,
  listDeliveriesByEndpoint,
  listEndpointsByUser,
  listLiveEndpoints,
  lockDeliveryForResend,
  markEndpointSucceeded,
  recordAttempt,
  updateEndpoint,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from './webhooks.queries'
import { checkTarget, postWebhook, TargetRefusedError, type PostResult } from './webhook-target'

/**
 * Delays before each retry after a failed attempt (the Standard Webhooks / Svix schedule): eight
 * attempts over about 27 hours, then the message has failed (docs/decisions/020).
 */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000]
/** A worker's claim on a delivery outlives the longest request by far; a crashed worker's runs out. */
const LOCK_MS = 2 * 60_000
/** Attempts kept in a delivery's log (latest first). */
const KEEP_ATTEMPTS = 20
/** Characters of a receiver's answer kept in the log. */
export const RESPONSE_EXCERPT_CHARS = 1000
const DELIVERIES_PAGE = 25

/** Plans that include webhooks. */
export const WEBHOOK_PLANS: Plan[] = PLANS.filter((plan) => PLAN_INFO[plan].webhooks)

/** What sending needs: the secret box, the operator's address policy, the timeout and a clock. */
export type WebhookDeps = {
  box: SecretBox
  allowPrivate: boolean
  timeoutMs: number
  /** The clock that schedules retries (tests move it on instead of waiting). */
  now?: () => Date
  /** The HTTP exchange (tests may wrap it); by default `postWebhook`. */
  post?: typeof postWebhook
}

export function webhookDepsOf(deps: { box: SecretBox; env: Pick<Env, 'WEBHOOKS_ALLOW_PRIVATE' | 'WEBHOOK_TIMEOUT_SECONDS'> }): WebhookDeps {
  return { box: deps.box, allowPrivate: deps.env.WEBHOOKS_ALLOW_PRIVATE, timeoutMs: deps.env.WEBHOOK_TIMEOUT_SECONDS * 1000 }
}

const clock = (deps: WebhookDeps) => (deps.now ?? (() => new Date()))()

/** Webhooks are Pro (spec §9); the server answers 403 with the spec's upgrade wording. */
export async function assertWebhooksAllowed(db: Db, userId: string) {
  const plan = toPlan(await findUserPlan(db, userId))
  if (!PLAN_INFO[plan].webhooks) throw new AppError('FORBIDDEN', WEBHOOKS_PLAN_MESSAGE)
}

/** A new signing secret: `whsec_` and 24 random bytes in base64, as Standard Webhooks suggests. */
function newSecret() {
  return `whsec_${randomBytes(24).toString('base64')}`
}

function toEndpointView(row: WebhookEndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    parserIds: row.parserIds,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }
}

function toDeliveryView(row: WebhookDeliveryRow): WebhookDeliveryView {
  return {
    id: row.id,
    messageId: row.messageId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    payload: row.payload,
  }
}

async function checkUrl(url: string, deps: WebhookDeps) {
  try {
    await checkTarget(url, { allowPrivate: deps.allowPrivate })
  } catch (error) {
    if (error instanceof TargetRefusedError) throw new AppError('VALIDATION', error.message)
    throw error
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

async function requireEndpoint(db: Db, userId: string, id: string) {
  const endpoint = UUID.test(id) ? await findEndpointForUser(db, { userId, id }) : undefined
  if (!endpoint) throw new AppError('NOT_FOUND', 'Webhook not found')
  return endpoint
}

export async function listWebhooks(db: Db, { userId }: { userId: string }) {
  await assertWebhooksAllowed(db, userId)
  return (await listEndpointsByUser(db, userId)).map(toEndpointView)
}

/** Adds an endpoint; its signing secret is returned with it (and can be revealed later). */
export async function createWebhook(db: Db, deps: WebhookDeps, { userId, input }: { userId: string; input: CreateWebhookInput }) {
  await assertWebhooksAllowed(db, userId)
  const values = createWebhookInputSchema.parse(input)
  if ((await countEndpointsByUser(db, userId)) >= MAX_WEBHOOK_ENDPOINTS) {
    throw new AppError('VALIDATION', `You can add up to ${MAX_WEBHOOK_ENDPOINTS} webhooks.`)
  }
  await checkUrl(values.url, deps)
  const secret = newSecret()
  const row = await insertEndpoint(db, { ...values, userId, secret: deps.box.encrypt(secret) })
  return { endpoint: toEndpointView(row), secret }
}

export async function updateWebhook(db: Db, deps: WebhookDeps, { userId, id, input }: { userId: string; id: string; input: UpdateWebhookInput }) {
  await assertWebhooksAllowed(db, userId)
  await requireEndpoint(db, userId, id)
  const values = updateWebhookInputSchema.parse(input)
  if (values.url !== undefined) await checkUrl(values.url, deps)
  // Turned on again by the user: the automatic disabling (and its notification) is over.
  const reset = values.enabled === true ? { disabledReason: null, disabledAt: null } : {}
  const row = await updateEndpoint(db, { userId, id }, { ...values, ...reset })
  if (!row) throw new AppError('NOT_FOUND', 'Webhook not found')
  return toEndpointView(row)
}

export async function deleteWebhook(db: Db, { userId, id }: { userId: string; id: string }) {
  await assertWebhooksAllowed(db, userId)
  if (!UUID.test(id) || !(await deleteEndpoint(db, { userId, id }))) throw new AppError('NOT_FOUND', 'Webhook not found')
}

export async function revealWebhookSecret(db: Db, deps: WebhookDeps, { userId, id }: { userId: string; id: string }) {
  await assertWebhooksAllowed(db, userId)
  const endpoint = await requireEndpoint(db, userId, id)
  return deps.box.decrypt(endpoint.secret)
}

/** An endpoint's delivery log, newest first. */
export async function listWebhookDeliveries(db: Db, { userId, endpointId, before }: { userId: string; endpointId: string; before?: Date }) {
  await assertWebhooksAllowed(db, userId)
  await requireEndpoint(db, userId, endpointId)
  const rows = await listDeliveriesByEndpoint(db, { userId, endpointId, limit: DELIVERIES_PAGE + 1, before })
  const page = rows.slice(0, DELIVERIES_PAGE)
  return {
    deliveries: page.map(toDeliveryView),
    nextBefore: rows.length > DELIVERIES_PAGE ? page.at(-1)!.createdAt.toISOString() : null,
  }
}

function newMessageId() {
  return `msg_${randomBytes(16).toString('hex')}`
}

/** 'Send test event': a `webhook.test` message, sent now (the answer is in the returned log). */
export async function sendTestEvent(db: Db, deps: WebhookDeps, { userId, endpointId }: { userId: string; endpointId: string }) {
  await assertWebhooksAllowed(db, userId)
  const endpoint = await requireEndpoint(db, userId, endpointId)
  const now = clock(deps)
  const [delivery] = await insertDeliveries(db, [
    {
      userId,
      endpointId: endpoint.id,
      messageId: newMessageId(),
      eventType: WEBHOOK_TEST_EVENT,
      payload: { type: WEBHOOK_TEST_EVENT, timestamp: now.toISOString(), data: { message: 'This is a test event from Mailrow.', webhookId: endpoint.id } },
      nextAttemptAt: now,
      // Ours to send right away; no worker picks it up meanwhile.
      lockedUntil: new Date(now.getTime() + LOCK_MS),
    },
  ])
  return toDeliveryView(await attemptDelivery(db, deps, delivery!))
}

/** Sends a delivery again now, with the same `webhook-id`; a failure is retried on the usual schedule. */
export async function redeliverWebhook(db: Db, deps: WebhookDeps, { userId, endpointId, deliveryId }: { userId: string; endpointId: string; deliveryId: string }) {
  await assertWebhooksAllowed(db, userId)
  const found = UUID.test(deliveryId) ? await findDeliveryForUser(db, { userId, id: deliveryId }) : undefined
  if (!found || found.endpointId !== endpointId) throw new AppError('NOT_FOUND', 'Delivery not found')
  const locked = await lockDeliveryForResend(db, { userId, id: deliveryId, lockMs: LOCK_MS, now: clock(deps) })
  if (!locked) throw new AppError('CONFLICT', 'This delivery is being sent right now.')
  return toDeliveryView(await attemptDelivery(db, deps, locked))
}

// ── Events ──

/** An event for the user's endpoints; `parserId` lets an endpoint limited to some parsers skip it. */
export type WebhookEvent = {
  type: WebhookEventType
  data: Record<string, unknown>
  parserId?: string | null
  /** Announce once per endpoint (a parser's layout change, the month's limit). */
  dedupeKey?: string
}

function wants(endpoint: WebhookEndpointRow, event: WebhookEvent) {
  if (!endpoint.events.includes(event.type)) return false
  return !event.parserId || endpoint.parserIds.length === 0 || endpoint.parserIds.includes(event.parserId)
}

/**
 * Queues an event for each of the user's endpoints that wants it. Nothing is sent here: the
 * delivery loop does it, so the pipeline never waits on a receiver.
 */
export async function emitWebhookEvent(
  db: Db,
  { userId, event, endpoints, now = new Date() }: { userId: string; event: WebhookEvent; endpoints?: WebhookEndpointRow[]; now?: Date },
) {
  const targets = (endpoints ?? (await listLiveEndpoints(db, { userId, plans: WEBHOOK_PLANS }))).filter((e) => wants(e, event))
  if (targets.length === 0) return 0
  const messageId = newMessageId()
  const payload = { type: event.type, timestamp: now.toISOString(), data: event.data }
  const inserted = await insertDeliveries(
    db,
    targets.map((endpoint) => ({ userId, endpointId: endpoint.id, messageId, eventType: event.type, payload, dedupeKey: event.dedupeKey, nextAttemptAt: now })),
  )
  return inserted.length
}

/**
 * For a pipeline pass: the user's live endpoints are looked up once, on the first event, so a
 * user without webhooks costs one query per pass that produced events and none otherwise.
 */
export function createWebhookEmitter(db: Db, userId: string) {
  let endpoints: Promise<WebhookEndpointRow[]> | undefined
  const load = () => (endpoints ??= listLiveEndpoints(db, { userId, plans: WEBHOOK_PLANS }))
  return {
    async hasEndpoints() {
      return (await load()).length > 0
    },
    async emit(event: WebhookEvent, now = new Date()) {
      const list = await load()
      if (list.length === 0) return 0
      return emitWebhookEvent(db, { userId, event, endpoints: list, now })
    },
  }
}
export type WebhookEmitter = ReturnType<typeof createWebhookEmitter>

// ── Delivery ──

/** Claims the deliveries that are due and sends them (at most `limit` at once); returns how many. */
export async function deliverDueWebhooks(db: Db, deps: WebhookDeps, { limit }: { limit: number }) {
  const claimed = await claimDueDeliveries(db, { limit, lockMs: LOCK_MS, now: clock(deps) })
  await Promise.all(claimed.map((delivery) => attemptDelivery(db, deps, delivery)))
  return claimed.length
}

function excerpt(result: PostResult) {
  return result.body.length > RESPONSE_EXCERPT_CHARS ? `${result.body.slice(0, RESPONSE_EXCERPT_CHARS)}…` : result.body
}

/** The Standard Webhooks headers for one attempt: the id stays, the timestamp is the attempt's. */
export function signedHeaders(secret: string, { messageId, at, body }: { messageId: string; at: Date; body: string }) {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, body),
  }
}

/** One attempt of a claimed delivery; the delivery's next state is recorded and returned. */
export async function attemptDelivery(db: Db, deps: WebhookDeps, delivery: WebhookDeliveryRow): Promise<WebhookDeliveryRow> {
  const found = await findEndpointWithPlan(db, delivery.endpointId)
  const at = clock(deps)
  const refuse = async (error: string) => {
    const attempts = [{ at: at.toISOString(), statusCode: null, durationMs: 0, error, responseExcerpt: '' }, ...delivery.attempts].slice(0, KEEP_ATTEMPTS)
    const next = { attempts, status: 'failed' as const, nextAttemptAt: at, attemptCount: delivery.attemptCount }
    await recordAttempt(db, delivery.id, next)
    return { ...delivery, ...next, lockedUntil: null }
  }
  if (!found) return refuse('The webhook was deleted.')
  if (!PLAN_INFO[toPlan(found.plan)].webhooks) return refuse(WEBHOOKS_PLAN_MESSAGE)
  const { endpoint } = found
  // A test event or a redelivery goes to an endpoint that is switched off too: that is how it is checked.
  if (!endpoint.enabled && !delivery.attempts.length && delivery.eventType !== WEBHOOK_TEST_EVENT) return refuse('The webhook is turned off.')

  const body = JSON.stringify(delivery.payload)
  const post = deps.post ?? postWebhook
  const result = await post(endpoint.url, {
    headers: signedHeaders(deps.box.decrypt(endpoint.secret), { messageId: delivery.messageId, at, body }),
    body,
    timeoutMs: deps.timeoutMs,
    allowPrivate: deps.allowPrivate,
  })
  const ok = result.error === null && result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300
  const attempt: WebhookAttempt = {
    at: at.toISOString(),
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    error: ok ? null : (result.error ?? `The receiver answered HTTP ${result.statusCode}.`),
    responseExcerpt: excerpt(result),
  }
  const attempts = [attempt, ...delivery.attempts].slice(0, KEEP_ATTEMPTS)
  const attemptCount = delivery.attemptCount + 1
  const finished = clock(deps)
  if (ok) {
    const next = { attempts, status: 'succeeded' as const, nextAttemptAt: finished, attemptCount }
    await recordAttempt(db, delivery.id, next)
    await markEndpointSucceeded(db, endpoint.id, finished)
    return { ...delivery, ...next, lockedUntil: null }
  }
  const delay = RETRY_DELAYS_MS[attemptCount - 1]
  const next =
    delay === undefined
      ? { attempts, status: 'failed' as const, nextAttemptAt: finished, attemptCount }
      : { attempts, status: 'pending' as const, nextAttemptAt: new Date(finished.getTime() + delay), attemptCount }
  await recordAttempt(db, delivery.id, next)
  // Every attempt over about a day failed and nothing reached the endpoint since: it keeps failing.
  if (next.status === 'failed' && endpoint.enabled && (!endpoint.lastSuccessAt || endpoint.lastSuccessAt < delivery.createdAt)) {
    await disableFailingEndpoint(db, {
      id: endpoint.id,
      at: finished,
      reason: `Turned off after its deliveries failed for over a day (last: ${attempt.error}). Fix the receiver, then turn the webhook back on.`,
    })
  }
  return { ...delivery, ...next, lockedUntil: null }
}
