import { eq } from 'drizzle-orm'
import type { Plan } from '@shared/plans'
import type { Db } from '../../db/client'
import { billingAccounts, stripeEvents, users } from '../../db/schema'

export type BillingAccountRow = typeof billingAccounts.$inferSelect

export async function findBillingAccountByUser(db: Db, userId: string) {
  const [row] = await db.select().from(billingAccounts).where(eq(billingAccounts.userId, userId)).limit(1)
  return row
}

/** The customer's row, locked until the transaction ends: one event of a customer is handled at a time. */
export async function lockBillingAccountByCustomer(db: Db, customerId: string) {
  const [row] = await db.select().from(billingAccounts).where(eq(billingAccounts.stripeCustomerId, customerId)).for('update').limit(1)
  return row
}

/** Links a user to their Stripe customer; the first link wins (two tabs opening Checkout at once). */
export async function insertBillingAccount(db: Db, { userId, customerId }: { userId: string; customerId: string }) {
  await db.insert(billingAccounts).values({ userId, stripeCustomerId: customerId }).onConflictDoNothing({ target: billingAccounts.userId })
  return findBillingAccountByUser(db, userId)
}

export function updateBillingAccount(db: Db, userId: string, set: Partial<Omit<BillingAccountRow, 'userId' | 'stripeCustomerId' | 'createdAt'>>) {
  return db.update(billingAccounts).set(set).where(eq(billingAccounts.userId, userId))
}

export async function setUserPlanById(db: Db, userId: string, plan: Plan) {
  const [before] = await db.select({ plan: users.plan, email: users.email }).from(users).where(eq(users.id, userId)).limit(1)
  if (before && before.plan !== plan) await db.update(users).set({ plan }).where(eq(users.id, userId))
  return before
}

/** Records an event as handled; false when it already was (a redelivery or a replay). */
export async function recordStripeEvent(db: Db, { id, type }: { id: string; type: string }): Promise<boolean> {
  const rows = await db.insert(stripeEvents).values({ id, type }).onConflictDoNothing().returning({ id: stripeEvents.id })
  return rows.length > 0
}

export async function isStripeEventRecorded(db: Db, id: string) {
  const [row] = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, id)).limit(1)
  return Boolean(row)
}
