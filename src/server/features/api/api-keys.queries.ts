import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { apiKeys, users } from '../../db/schema'

export type ApiKeyRow = typeof apiKeys.$inferSelect

export async function insertApiKey(db: Db, row: typeof apiKeys.$inferInsert) {
  const [created] = await db.insert(apiKeys).values(row).returning()
  return created!
}

/** A user's keys that still count: revoked ones are gone from the list. */
export function listApiKeysByUser(db: Db, userId: string) {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt))
}

export async function revokeApiKey(db: Db, userId: string, id: string, now: Date) {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id })
  return rows.length > 0
}

/**
 * One statement per API request: finds a live key by its hash, counts the request in the key's
 * fixed window (a new window when the last one is over) and marks the key used. Returns the key's
 * user, their plan and the window after this request; undefined for an unknown, revoked or
 * expired key.
 */
export async function useApiKey(db: Db, { keyHash, now, windowMs }: { keyHash: string; now: Date; windowMs: number }) {
  const windowOver = sql`${apiKeys.windowStartedAt} is null or ${apiKeys.windowStartedAt} <= ${new Date(now.getTime() - windowMs)}`
  const [row] = await db
    .update(apiKeys)
    .set({
      lastUsedAt: now,
      windowStartedAt: sql`case when ${windowOver} then ${now} else ${apiKeys.windowStartedAt} end`,
      windowCount: sql`case when ${windowOver} then 1 else ${apiKeys.windowCount} + 1 end`,
    })
    .from(users)
    .where(
      and(
        eq(apiKeys.keyHash, keyHash),
        isNull(apiKeys.revokedAt),
        sql`(${apiKeys.expiresAt} is null or ${apiKeys.expiresAt} > ${now})`,
        eq(users.id, apiKeys.userId),
      ),
    )
    .returning({ id: apiKeys.id, userId: apiKeys.userId, plan: users.plan, windowStartedAt: apiKeys.windowStartedAt, windowCount: apiKeys.windowCount })
  return row
}
