import { and, desc, eq, gt } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { securityEvents } from '../../db/schema'

export type NewSecurityEvent = typeof securityEvents.$inferInsert

export async function insertSecurityEvent(db: Db, event: NewSecurityEvent) {
  await db.insert(securityEvents).values(event)
}

export function listSecurityEventsByUser(db: Db, userId: string, since: Date, limit: number) {
  return db
    .select()
    .from(securityEvents)
    .where(and(eq(securityEvents.userId, userId), gt(securityEvents.createdAt, since)))
    .orderBy(desc(securityEvents.createdAt))
    .limit(limit)
}

/** The user agents of this user's recent sign-ins. */
export async function listSignInUserAgents(db: Db, userId: string) {
  const earlier = await db
    .select({ userAgent: securityEvents.userAgent })
    .from(securityEvents)
    .where(and(eq(securityEvents.userId, userId), eq(securityEvents.type, 'sign_in')))
    .orderBy(desc(securityEvents.createdAt))
    .limit(500)
  return earlier.map((e) => e.userAgent)
}
