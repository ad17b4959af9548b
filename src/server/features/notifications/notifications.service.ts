import { and, desc, eq, gte, notInArray, sql } from 'drizzle-orm'
import type { NotificationItem } from '@shared/contracts/notifications'
import type { Db } from '../../db/client'
import { parsedEmails, parsers, users } from '../../db/schema'
import { getGmailConnectionStatus } from '../connections/connections.service'
import { listAutoDisabledEndpoints } from '../webhooks/webhooks.queries'

const WINDOW_DAYS = 7
const LIMIT = 10

/**
 * The bell in the top bar: connection problems and webhooks turned off first, then the week's
 * failed emails, each marked unread or not from the user's own seen-up-to time, so every browser
 * shows the same.
 */
export async function listNotifications(db: Db, { userId, now = new Date() }: { userId: string; now?: Date }): Promise<NotificationItem[]> {
  const [connection, disabledWebhooks, failures, [seen]] = await Promise.all([
    getGmailConnectionStatus(db, { userId }),
    listAutoDisabledEndpoints(db, userId),
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
    db.select({ at: users.notificationsSeenAt }).from(users).where(eq(users.id, userId)),
  ])
  const seenAt = seen?.at?.getTime() ?? 0
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
      // Stays unread until the connection is fixed.
      unread: true,
    })
  }
  for (const webhook of disabledWebhooks) {
    items.push({
      id: `webhook-${webhook.id}`,
      kind: 'webhook',
      title: 'Webhook turned off',
      message: `${webhook.url}: ${webhook.reason}`,
      at: (webhook.at ?? now).toISOString(),
      parserId: null,
      parsedEmailId: null,
      // Stays unread until the endpoint is turned back on.
      unread: true,
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
      unread: f.at.getTime() > seenAt,
    })
  }
  return items
}

/**
 * The user opened the list and saw it up to `through`. Only ever moves forward (a second browser
 * with an older list can't bring items back), and never past now (a wrong clock can't hide what
 * fails next).
 */
export async function markNotificationsSeen(db: Db, { userId, through, now = new Date() }: { userId: string; through: Date; now?: Date }) {
  const at = new Date(Math.min(through.getTime(), now.getTime()))
  await db
    .update(users)
    .set({ notificationsSeenAt: sql`greatest(coalesce(${users.notificationsSeenAt}, ${at.toISOString()}::timestamptz), ${at.toISOString()}::timestamptz)` })
    .where(eq(users.id, userId))
}
