import { describeDevice, type SessionView } from '@shared/contracts/sessions'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/errors'
import { deleteAllSessionsOfUser, deleteSessionOfUser, deleteSessionsOfUserExcept, listActiveSessionsByUser } from './sessions.queries'

export async function listSessions(db: Db, { userId, currentSessionId }: { userId: string; currentSessionId: string }): Promise<SessionView[]> {
  const rows = await listActiveSessionsByUser(db, userId)
  return rows.map((row) => ({
    id: row.id,
    device: describeDevice(row.userAgent),
    ipAddress: row.ipAddress,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.updatedAt.toISOString(),
    isCurrent: row.id === currentSessionId,
  }))
}

/** Signs one of the user's sessions out; another user's session id is simply not found. */
export async function revokeSession(db: Db, { userId, sessionId }: { userId: string; sessionId: string }) {
  const deleted = await deleteSessionOfUser(db, userId, sessionId)
  if (deleted.length === 0) throw new AppError('NOT_FOUND', 'Session not found')
}

export async function revokeOtherSessions(db: Db, { userId, currentSessionId }: { userId: string; currentSessionId: string }) {
  await deleteSessionsOfUserExcept(db, userId, currentSessionId)
}

/** Every session, this one included: the browser is signed out too. */
export async function revokeAllSessions(db: Db, { userId }: { userId: string }) {
  await deleteAllSessionsOfUser(db, userId)
}
