import type { Clock } from '../clock'
import { errorInfo, GoogleApiError } from './google-error'

export type QuotaSettings = {
  enabled: boolean
  /** Sheets: "Write requests per minute per user" (60 by default at Google). */
  sheetsWritesPerMinute: number
  /** Sheets: "Read requests per minute per user" (60 by default at Google). */
  sheetsReadsPerMinute: number
  /** Gmail: quota units per user per second (250 at Google). */
  gmailUnitsPerSecond: number
}

export type QuotaCost = { kind: 'gmail'; units: number } | { kind: 'sheets'; type: 'read' | 'write' } | { kind: 'none' }

export const DEFAULT_QUOTAS: QuotaSettings = {
  enabled: false,
  sheetsWritesPerMinute: 60,
  sheetsReadsPerMinute: 60,
  gmailUnitsPerSecond: 250,
}

/** Gmail's documented per-method quota units. https://developers.google.com/workspace/gmail/api/reference/quota */
export const GMAIL_UNITS = {
  getProfile: 1,
  labelsList: 1,
  labelsGet: 1,
  messagesList: 5,
  messagesGet: 5,
  attachmentsGet: 5,
  historyList: 2,
  watch: 100,
  stop: 50,
} as const

export type QuotaStore = ReturnType<typeof createQuotaStore>

export function createQuotaStore(clock: Clock, initial: Partial<QuotaSettings>) {
  let settings: QuotaSettings = { ...DEFAULT_QUOTAS, ...initial }
  const counters = new Map<string, number>()

  function consume(key: string, amount: number, limit: number): boolean {
    const used = counters.get(key) ?? 0
    if (used + amount > limit) return false
    counters.set(key, used + amount)
    return true
  }

  function prune(prefix: string) {
    for (const key of counters.keys()) if (!key.endsWith(prefix)) counters.delete(key)
  }

  /** Throws Google's 429 when the user's window is spent; windows follow the emulator clock. */
  function check(email: string, cost: QuotaCost, rpc: string) {
    if (!settings.enabled || cost.kind === 'none') return
    const now = clock.now()
    if (cost.kind === 'gmail') {
      const second = Math.floor(now / 1000)
      if (counters.size > 10_000) prune(`:${second}`)
      if (consume(`gmail:${email}:${second}`, cost.units, settings.gmailUnitsPerSecond)) return
      const retryAt = new Date((second + 1) * 1000).toISOString()
      const message = `User-rate limit exceeded.  Retry after ${retryAt}`
      throw new GoogleApiError({
        code: 429,
        message,
        status: 'RESOURCE_EXHAUSTED',
        reason: 'rateLimitExceeded',
        domain: 'usageLimits',
        details: [
          errorInfo('RATE_LIMIT_EXCEEDED', 'gmail.googleapis.com', {
            quota_metric: 'gmail.googleapis.com/default',
            quota_limit: 'QueriesPerSecondPerUser',
            quota_limit_value: String(settings.gmailUnitsPerSecond),
            method: rpc,
          }),
        ],
      })
    }
    const minute = Math.floor(now / 60_000)
    if (counters.size > 10_000) prune(`:${minute}`)
    const limit = cost.type === 'write' ? settings.sheetsWritesPerMinute : settings.sheetsReadsPerMinute
    if (consume(`sheets-${cost.type}:${email}:${minute}`, 1, limit)) return
    const metric = cost.type === 'write' ? 'Write requests' : 'Read requests'
    const limitName = cost.type === 'write' ? 'WriteRequestsPerMinutePerUser' : 'ReadRequestsPerMinutePerUser'
    const message = `Quota exceeded for quota metric '${metric}' and limit '${metric} per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:000000000000'.`
    throw new GoogleApiError({
      code: 429,
      message,
      status: 'RESOURCE_EXHAUSTED',
      reason: 'rateLimitExceeded',
      details: [
        errorInfo('RATE_LIMIT_EXCEEDED', 'sheets.googleapis.com', {
          quota_metric: `sheets.googleapis.com/${cost.type}_requests`,
          quota_limit: limitName,
          quota_limit_value: String(limit),
          quota_location: 'global',
          consumer: 'projects/000000000000',
        }),
        {
          '@type': 'type.googleapis.com/google.rpc.Help',
          links: [{ description: 'Request a higher quota limit.', url: 'https://cloud.google.com/docs/quotas/help/request_increase' }],
        },
      ],
    })
  }

  return {
    check,
    get settings() {
      return settings
    },
    configure: (patch: Partial<QuotaSettings>) => {
      settings = { ...settings, ...patch }
      return settings
    },
    resetCounters: () => counters.clear(),
    reset: () => {
      settings = { ...DEFAULT_QUOTAS, ...initial }
      counters.clear()
    },
  }
}
