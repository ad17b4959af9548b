import { and, desc, eq, gte, notInArray } from 'drizzle-orm'
import type { NotificationItem } from '../../../shared/contracts/notifications'
import type { Db } from '../../db/client'
import { parsedEmails, parsers } from '../../db/schema'
import { getGmailConnectionStatus } from '../connections/connections.service'

const WINDOW_DAYS = 7
const LIMIT = 10

/** The bell in the top bar: connection problems first, then the week's failed emails. */
export async function listNotifications(db: Db, { userId, now = new Date() }: { userId: string; now?: Date }): Promise<NotificationItem[]> {
  const [connection, failures] = await Promise.all([
    getGmailConnectionStatus(db, { userId }),
    db
      .select({ id: parsedEmails.id, parserId: parsedEmails.parserId, subject: parsedEmails.emailSubject, error: parsedEmails.error, at: parsedEmails.processedAt, parserName: parsers.name, status: parsedEmails.status })
      .from(parsedEmails)
      .leftJoin(parsers, eq(parsers.id, parsedEmails.parserId))
      .where(
        and(
          eq(parsedEmails.userId, userId),
          notInArray(parsedEmails.status, ['success', 'skipped']),
          gte(parsedEmails.processedAt, new Date(now.getTime() - WINDOW_DAYS * 24 * 60 * 60 * 1000)),
        ),
      )
      .orderBy(desc(parsedEmails.processedAt))
      .limit(LIMIT),
  ])
  const items: NotificationItem[] = []
  if (connection.needsReconnect) {
    items.push({
      id: 'gmail-connection',
      kind: 'connection',
      title: 'Gmail needs reconnecting',
      message: connection.reason ?? 'Reconnect your Gmail account to resume parsing.',
      at: connection.lastRefreshedAt ?? now.toISOString(),
      parserId: null,
      parsedEmailId: null,
    })
  }
  for (const f of failures) {
    items.push({
      id: f.id,
      kind: 'failure',
      title: `${f.parserName ?? 'Unknown Parser'}: ${f.status === 'quota_exceeded' ? 'monthly limit reached' : f.status === 'partial' ? 'some fields missing' : 'failed'}`,
      message: `${f.subject || 'No subject'}${f.error ? ` — ${f.error}` : ''}`,
      at: f.at.toISOString(),
      parserId: f.parserId,
      parsedEmailId: f.id,
    })
  }
  return items
}
