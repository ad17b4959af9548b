import { and, eq, notExists } from 'drizzle-orm'
import type { Db } from '../db/client'
import { accounts, users } from '../db/schema'

/**
 * Removes the never-confirmed password account on this address (everything of it cascades), so
 * its owner's verified Google sign-in creates their own. An account that ever signed in with
 * Google, or confirmed its address, is left alone.
 */
export function deleteUnconfirmedAccount(db: Db, email: string) {
  return db
    .delete(users)
    .where(
      and(
        eq(users.email, email),
        eq(users.emailVerified, false),
        notExists(db.select().from(accounts).where(and(eq(accounts.userId, users.id), eq(accounts.providerId, 'google')))),
      ),
    )
}
