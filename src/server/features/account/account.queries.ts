import { eq, like, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { accounts, billingAccounts, devOutbox, users, verifications } from '../../db/schema'

export async function findUserById(db: Db, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1)
  return user
}

export function listSignInAccountsByUser(db: Db, userId: string) {
  return db
    .select({ providerId: accounts.providerId, passwordHash: accounts.password })
    .from(accounts)
    .where(eq(accounts.userId, userId))
}

/**
 * Everything of the user goes with it (foreign keys cascade). Inside a transaction, the billing
 * row is locked first: a Stripe event handled meanwhile (the cancellation this deletion just
 * caused) locks that row and then updates the user, so deleting the user first, which cascades
 * to the billing row, would take the two locks in the other order and deadlock.
 */
export async function deleteUserById(db: Db, userId: string) {
  await db.select({ userId: billingAccounts.userId }).from(billingAccounts).where(eq(billingAccounts.userId, userId)).for('update')
  await db.delete(users).where(eq(users.id, userId))
}

/**
 * What a user leaves outside their own rows: mail to their address in the development outbox,
 * pending reset tokens and OAuth states (Better Auth keeps the user id as the value; our Gmail
 * state keeps it inside JSON), and queued or finished jobs whose payload names them.
 */
export async function deleteUserTraces(db: Db, { userId, email }: { userId: string; email: string }) {
  await db.delete(devOutbox).where(eq(sql`lower(${devOutbox.to})`, email.toLowerCase()))
  await db.delete(verifications).where(or(eq(verifications.value, userId), like(verifications.value, `%"userId":"${userId.replace(/[\\%_]/g, '\\$&')}"%`)))
  for (const table of ['pgboss.job', 'pgboss.archive']) {
    const result = await db.execute(sql`select to_regclass(${table}) is not null as present`)
    const [row] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ present: boolean }>
    if (row?.present) await db.execute(sql`delete from ${sql.raw(table)} where data->>'userId' = ${userId}`)
  }
}
