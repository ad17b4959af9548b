import type { Clock } from './clock'
import type { DemoFeed } from './demo/demo-feed'
import type { MailStore } from './gmail/mail-store'
import type { PushDispatcher } from './gmail/push'
import type { FaultStore } from './http/faults'
import type { QuotaSettings, QuotaStore } from './http/quotas'
import type { RequestLog } from './http/request-log'
import type { OAuthClient, OAuthStore } from './oauth/oauth-store'
import type { SpreadsheetStore } from './sheets/spreadsheet-store'

/** Options after defaults: what the running emulator was configured with. */
export type EmulatorConfig = {
  accounts: { email: string; name?: string }[]
  clients: OAuthClient[]
  tokenLifetimeSeconds: number
  refreshTokenLifetimeSeconds: number | null
  pushUrl: string | undefined
  pushSubscription: string | undefined
  demo: boolean
  demoIntervalMs: number
  demoSeed: number
  demoInitialCount: number
  issuer: string
  publicUrl: string | undefined
  historyRetention: number
  quotas: Partial<QuotaSettings>
}

/** Everything the emulator knows, shared by its routes. In memory only. */
export type EmulatorState = {
  config: EmulatorConfig
  clock: Clock
  oauth: OAuthStore
  mail: MailStore
  sheets: SpreadsheetStore
  faults: FaultStore
  quotas: QuotaStore
  requests: RequestLog
  push: PushDispatcher
  demo: DemoFeed
}
