import { and, count, eq, gte, inArray, lt } from 'drizzle-orm'
import type { UsageView } from '@shared/contracts/account'
import { PLAN_INFO, toPlan } from '@shared/plans'
import type { Db } from '../../db/client'
import { parsedEmails, users } from '../../db/schema'

/** Ledger statuses that used up an email of the month's allowance. */
export const COUNTED_STATUSES = ['success', 'partial', 'failed'] as const

/** The calendar month (UTC) that contains `now`. */
export function monthOf(now: Date) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
  return { start, end, label: start.toISOString().slice(0, 7) }
}

/** Emails processed this calendar month against the plan's allowance (spec §9). */
export async function getMonthlyUsage(db: Db, { userId, now = new Date() }: { userId: string; now?: Date }): Promise<UsageView> {
  const month = monthOf(now)
  const [[user], [row]] = await Promise.all([
    db.select({ plan: users.plan }).from(users).where(eq(users.id, userId)).limit(1),
    db
      .select({ used: count() })
      .from(parsedEmails)
      .where(
        and(
          eq(parsedEmails.userId, userId),
          gte(parsedEmails.processedAt, month.start),
          lt(parsedEmails.processedAt, month.end),
          inArray(parsedEmails.status, [...COUNTED_STATUSES]),
        ),
      ),
  ])
  const plan = toPlan(user?.plan)
  return { month: month.label, used: row?.used ?? 0, limit: PLAN_INFO[plan].emailsPerMonth }
}
