import { lt } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { authThrottles, devOutbox, parsedEmails, rateLimits, securityEvents, sessions, verifications } from '../../db/schema'
import { SECURITY_LOG_RETENTION_DAYS } from '../security-log/security-log.service'

/** Parsed email data is kept 90 days (privacy policy, spec §9). */
export const PARSED_EMAIL_RETENTION_DAYS = 90
const OUTBOX_RETENTION_DAYS = 7
const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60 * 1000
const DAY_MS = 24 * 60 * 60 * 1000

export type PurgeResult = {
  parsedEmails: number
  sessions: number
  verifications: number
  rateLimits: number
  outbox: number
  securityEvents: number
}

/** Deletes what the privacy policy promises not to keep, and auth rows that have expired. */
export async function purgeExpiredData(db: Db, now = new Date()): Promise<PurgeResult> {
  const count = (rows: unknown[]) => rows.length
  // Throttle counters start over after a day without failures anyway (auth/throttle.ts).
  await db.delete(authThrottles).where(lt(authThrottles.lastFailureAt, new Date(now.getTime() - DAY_MS)))
  return {
    parsedEmails: count(
      await db
        .delete(parsedEmails)
        .where(lt(parsedEmails.processedAt, new Date(now.getTime() - PARSED_EMAIL_RETENTION_DAYS * DAY_MS)))
        .returning({ id: parsedEmails.id }),
    ),
    sessions: count(await db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id })),
    verifications: count(
      await db.delete(verifications).where(lt(verifications.expiresAt, now)).returning({ id: verifications.id }),
    ),
    rateLimits: count(
      await db
        .delete(rateLimits)
        .where(lt(rateLimits.lastRequest, now.getTime() - RATE_LIMIT_RETENTION_MS))
        .returning({ id: rateLimits.id }),
    ),
    outbox: count(
      await db
        .delete(devOutbox)
        .where(lt(devOutbox.createdAt, new Date(now.getTime() - OUTBOX_RETENTION_DAYS * DAY_MS)))
        .returning({ id: devOutbox.id }),
    ),
    securityEvents: count(
      await db
        .delete(securityEvents)
        .where(lt(securityEvents.createdAt, new Date(now.getTime() - SECURITY_LOG_RETENTION_DAYS * DAY_MS)))
        .returning({ id: securityEvents.id }),
    ),
  }
}
