import { RECENT_EMAILS_LIMIT, successRate, type DashboardView } from '../../../shared/contracts/dashboard'
import type { Db } from '../../db/client'
import { listParsers } from '../parsers/parsers.service'
import { countParsedEmailsByUser, listRecentParsedEmailsByUser } from './dashboard.queries'

/** Everything the dashboard shows, read from the ledger for one user. */
export async function getDashboard(db: Db, { userId }: { userId: string }): Promise<DashboardView> {
  const [parsers, counts, recent] = await Promise.all([
    listParsers(db, { userId }),
    countParsedEmailsByUser(db, userId),
    listRecentParsedEmailsByUser(db, userId, RECENT_EMAILS_LIMIT),
  ])
  return {
    stats: {
      emailsParsed: counts.total,
      activeParsers: parsers.filter((p) => p.active).length,
      successRate: successRate(counts.successes, counts.total),
    },
    parsers,
    recentEmails: recent.map((e) => ({
      id: e.id,
      processedAt: e.processedAt.toISOString(),
      parserName: e.parserName,
      emailSubject: e.emailSubject,
      status: e.status,
    })),
  }
}
