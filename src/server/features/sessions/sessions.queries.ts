import { and, desc, eq, gt, lt, ne } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { sessions } from '../../db/schema'

export function listActiveSessionsByUser(db: Db, userId: string) {
  return db
    .select({ id: sessions.id, ipAddress: sessions.ipAddress, userAgent: sessions.userAgent, createdAt: sessions.createdAt, updatedAt: sessions.updatedAt })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.updatedAt))
}

export function deleteSessionOfUser(db: Db, userId: string, sessionId: string) {
  return db.delete(sessions).where(and(eq(sessions.userId, userId), eq(sessions.id, sessionId))).returning({ id: sessions.id })
}

export function deleteSessionsOfUserExcept(db: Db, userId: string, keepSessionId: string) {
  return db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)))
}

export function deleteAllSessionsOfUser(db: Db, userId: string) {
  return db.delete(sessions).where(eq(sessions.userId, userId))
}

/** Moves a session's last use forward, at most once per interval (it is read on every request). */
export function touchSession(db: Db, sessionId: string, staleBefore: Date) {
  return db.update(sessions).set({ updatedAt: new Date() }).where(and(eq(sessions.id, sessionId), lt(sessions.updatedAt, staleBefore)))
}
