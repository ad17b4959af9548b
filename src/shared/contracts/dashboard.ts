import type { ParserView } from './parsers'

/** Recent parsed emails on the dashboard (spec §9). */
export const RECENT_EMAILS_LIMIT = 10

export type DashboardStats = {
  emailsParsed: number
  activeParsers: number
  /** Rounded percent of successes; 0 when nothing was parsed (spec §9). */
  successRate: number
  /** Emails held back by the monthly allowance: not parsed, not failed (counted in neither). */
  waitingForAllowance: number
}

export type RecentParsedEmail = {
  id: string
  processedAt: string
  parserName: string | null
  emailSubject: string | null
  status: string
}

export type DashboardView = {
  stats: DashboardStats
  parsers: ParserView[]
  recentEmails: RecentParsedEmail[]
}

/** Spec §9: rounded percent of successes, zero when there are no emails. */
export function successRate(successes: number, total: number): number {
  return total === 0 ? 0 : Math.round((successes / total) * 100)
}
