import { RECENT_EMAILS_LIMIT, successRate, type DashboardView } from '@shared/contracts/dashboard'
import type { Db } from '../../db/client'
import { listParsersWithHealth } from '../parsers/parsers.service'

/** Everything the dashboard shows, read from the ledger for one user in two statements. */
export async function getDashboard(db: Db, { userId }: { userId: string }): Promise<DashboardView> {
  const { parsers, health } = await listParsersWithHealth(db, { userId, recentLimit: RECENT_EMAILS_LIMIT })
  const counts = health.stats ?? { total: 0, successes: 0, waiting: 0 }
  return {
    stats: {
      emailsParsed: Number(counts.total),
      activeParsers: parsers.filter((p) => p.active).length,
      successRate: successRate(Number(counts.successes), Number(counts.total)),
      waitingForAllowance: Number(counts.waiting),
    },
    parsers,
    recentEmails: (health.recent ?? []).map((e) => ({
      id: e.id,
      processedAt: new Date(e.processed_ms).toISOString(),
      parserName: e.parser_name,
      emailSubject: e.email_subject,
      status: e.status as DashboardView['recentEmails'][number]['status'],
    })),
  }
}
