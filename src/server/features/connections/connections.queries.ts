import { and, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { connectedAccounts, verifications } from '../../db/schema'

type NewConnection = typeof connectedAccounts.$inferInsert

export async function findGmailConnectionByUser(db: Db, userId: string) {
  const [row] = await db
    .select()
    .from(connectedAccounts)
    .where(and(eq(connectedAccounts.userId, userId), eq(connectedAccounts.provider, 'gmail')))
    .limit(1)
  return row
}

/** One record per user and provider (spec §3): a reconnect updates it. */
export async function upsertGmailConnection(db: Db, values: NewConnection) {
  const [row] = await db
    .insert(connectedAccounts)
    .values(values)
    .onConflictDoUpdate({
      target: [connectedAccounts.userId, connectedAccounts.provider],
      set: {
        accessToken: values.accessToken,
        refreshToken: values.refreshToken,
        accessTokenExpiresAt: values.accessTokenExpiresAt,
        accountEmail: values.accountEmail,
        accountId: values.accountId,
        scopes: values.scopes,
        historyId: values.historyId ?? null,
        status: 'connected',
        statusReason: null,
        lastRefreshedAt: new Date(),
      },
    })
    .returning()
  return row!
}

export function updateGmailConnection(db: Db, userId: string, set: Partial<NewConnection>) {
  return db
    .update(connectedAccounts)
    .set(set)
    .where(and(eq(connectedAccounts.userId, userId), eq(connectedAccounts.provider, 'gmail')))
}

export function deleteGmailConnection(db: Db, userId: string) {
  return db.delete(connectedAccounts).where(and(eq(connectedAccounts.userId, userId), eq(connectedAccounts.provider, 'gmail')))
}

export async function insertVerification(db: Db, identifier: string, value: string, expiresAt: Date) {
  await db.insert(verifications).values({ id: crypto.randomUUID(), identifier, value, expiresAt })
}

export async function findVerification(db: Db, identifier: string) {
  const [row] = await db.select().from(verifications).where(eq(verifications.identifier, identifier)).limit(1)
  return row
}

/** Reads and deletes in one step, so an OAuth state can be used once. */
export async function takeVerification(db: Db, identifier: string) {
  const [row] = await db.delete(verifications).where(eq(verifications.identifier, identifier)).returning()
  return row
}
