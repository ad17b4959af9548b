import { and, asc, count, desc, eq, inArray, isNull, lt, lte, ne, or } from 'drizzle-orm'
import type { Plan } from '@shared/plans'
import type { Db } from '../../db/client'
import { users, webhookDeliveries, webhookEndpoints, type WebhookAttempt } from '../../db/schema'

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect
type NewDelivery = typeof webhookDeliveries.$inferInsert

export function listEndpointsByUser(db: Db, userId: string) {
  return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId)).orderBy(asc(webhookEndpoints.createdAt))
}

export async function countEndpointsByUser(db: Db, userId: string) {
  const [row] = await db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId))
  return row?.n ?? 0
}

export async function findEndpointForUser(db: Db, { userId, id }: { userId: string; id: string }) {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .limit(1)
  return row
}

export async function insertEndpoint(db: Db, values: typeof webhookEndpoints.$inferInsert) {
  const [row] = await db.insert(webhookEndpoints).values(values).returning()
  return row!
}

export async function updateEndpoint(db: Db, { userId, id }: { userId: string; id: string }, set: Partial<typeof webhookEndpoints.$inferInsert>) {
  const [row] = await db
    .update(webhookEndpoints)
    .set(set)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning()
  return row
}

export async function deleteEndpoint(db: Db, { userId, id }: { userId: string; id: string }) {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning({ id: webhookEndpoints.id })
  return rows.length > 0
}

/** The user's switched-on endpoints, while the user is on a plan with webhooks. */
export function listLiveEndpoints(db: Db, { userId, plans }: { userId: string; plans: Plan[] }) {
  return db
    .select({ endpoint: webhookEndpoints })
    .from(webhookEndpoints)
    .innerJoin(users, eq(users.id, webhookEndpoints.userId))
    .where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.enabled, true), inArray(users.plan, plans)))
    .then((rows) => rows.map((r) => r.endpoint))
}

/** New messages; one with a dedupe key already sent to that endpoint is left out. */
export async function insertDeliveries(db: Db, rows: NewDelivery[]) {
  if (rows.length === 0) return []
  return db.insert(webhookDeliveries).values(rows).onConflictDoNothing().returning()
}

/**
 * Claims up to `limit` due deliveries, oldest due first: FOR UPDATE SKIP LOCKED makes concurrent
 * workers take disjoint rows, and `locked_until` keeps a claimed one from being sent twice until
 * the worker has finished with it (or died: the lock runs out).
 */
export function claimDueDeliveries(db: Db, { limit, lockMs, now }: { limit: number; lockMs: number; now: Date }) {
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, now),
        or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, now)),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true })
  return db
    .update(webhookDeliveries)
    .set({ lockedUntil: new Date(now.getTime() + lockMs) })
    .where(inArray(webhookDeliveries.id, due))
    .returning()
}

/**
 * Takes one delivery to send now (test event, redeliver): queued again from the first attempt of
 * the schedule, unless a worker is sending it at this moment.
 */
export async function lockDeliveryForResend(db: Db, { userId, id, lockMs, now }: { userId: string; id: string; lockMs: number; now: Date }) {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', attemptCount: 0, nextAttemptAt: now, lockedUntil: new Date(now.getTime() + lockMs) })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        eq(webhookDeliveries.userId, userId),
        or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, now)),
      ),
    )
    .returning()
  return row
}

export async function findDeliveryForUser(db: Db, { userId, id }: { userId: string; id: string }) {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.userId, userId)))
    .limit(1)
  return row
}

/** An endpoint with its owner's plan, as a delivery needs it. */
export async function findEndpointWithPlan(db: Db, id: string) {
  const [row] = await db
    .select({ endpoint: webhookEndpoints, plan: users.plan })
    .from(webhookEndpoints)
    .innerJoin(users, eq(users.id, webhookEndpoints.userId))
    .where(eq(webhookEndpoints.id, id))
    .limit(1)
  return row
}

/** Records an attempt's outcome and the delivery's next state; the worker's lock is given back. */
export function recordAttempt(
  db: Db,
  id: string,
  set: { attempts: WebhookAttempt[]; status: 'pending' | 'succeeded' | 'failed'; nextAttemptAt: Date; attemptCount: number },
) {
  return db
    .update(webhookDeliveries)
    .set({ ...set, lockedUntil: null })
    .where(eq(webhookDeliveries.id, id))
}

export function markEndpointSucceeded(db: Db, id: string, at: Date) {
  return db.update(webhookEndpoints).set({ lastSuccessAt: at }).where(eq(webhookEndpoints.id, id))
}

/** Turns an endpoint off for failing; its queued messages fail with it (they can be redelivered). */
export async function disableFailingEndpoint(db: Db, { id, reason, at }: { id: string; reason: string; at: Date }) {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, disabledAt: at })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.enabled, true)))
    .returning({ id: webhookEndpoints.id })
  if (!row) return false
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed', lockedUntil: null })
    .where(and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.status, 'pending'), or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, at))))
  return true
}

/** An endpoint's deliveries, newest first, a page at a time (`before`: the last one shown's creation time). */
export function listDeliveriesByEndpoint(db: Db, { userId, endpointId, limit, before }: { userId: string; endpointId: string; limit: number; before?: Date }) {
  return db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.userId, userId),
        before ? lt(webhookDeliveries.createdAt, before) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit)
}

/** Endpoints Mailrow turned off for failing (the bell shows them until the user acts). */
export function listAutoDisabledEndpoints(db: Db, userId: string) {
  return db
    .select({ id: webhookEndpoints.id, url: webhookEndpoints.url, reason: webhookEndpoints.disabledReason, at: webhookEndpoints.disabledAt })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.enabled, false), ne(webhookEndpoints.disabledReason, '')))
}

export async function findUserPlan(db: Db, userId: string) {
  const [row] = await db.select({ plan: users.plan }).from(users).where(eq(users.id, userId)).limit(1)
  return row?.plan
}
