import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { accounts, users } from '../../db/schema'

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

/** Everything of the user goes with it (foreign keys cascade). */
export function deleteUserById(db: Db, userId: string) {
  return db.delete(users).where(eq(users.id, userId))
}
