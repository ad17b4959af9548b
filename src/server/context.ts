import type { AiProviderConfig } from '../engine/ai'
import type { Auth, AuthSession } from './auth/auth'
import type { SessionCache } from './auth/session-cache'
import type { Database } from './db/client'
import type { Db } from './db/client'
import type { Env } from './env'
import type { BillingConfig } from './features/billing/billing.client'
import type { GoogleConfig } from './features/google/google-config'
import type { RetryOptions } from './features/google/google.client'
import type { Mailer } from './features/mail/mailer'
import type { SecretBox } from './lib/crypto'
import type { Logger } from './lib/logger'

/** Everything the HTTP app needs, built once by main.ts (or by a test). */
export type AppDeps = {
  database: Database
  auth: Auth
  /** Sessions validated a moment ago (docs/decisions/018). */
  sessionCache: SessionCache
  env: Env
  mailer: Mailer
  logger: Logger
  /** APP_SECRET (or the generated one): signs operator tokens. */
  appSecret: string
  /** Encrypts Google tokens at rest. */
  box: SecretBox
  /** Google (real or the emulator); absent when neither is configured. */
  google?: GoogleConfig
  /** The AI provider for smart_ai / full_ai parsers; null when not configured. */
  ai: AiProviderConfig | null
  /** Stripe billing; null when plans are set by the operator (no Stripe configured). */
  billing: BillingConfig | null
  /** Queues a mailbox sync now (Gmail push); absent when no job queue is reachable. */
  requestSync?: (userId: string) => Promise<void>
  /** Backoff for Google calls (tests shorten it). */
  googleRetry?: RetryOptions
  /** The caller's IP; by default the socket, or the rightmost X-Forwarded-For entry not added by a TRUST_PROXY proxy. */
  getClientIp?: (request: Request, connectionIp: string | undefined) => string | undefined
  /** Folder of the built SPA; absent in API-only tests. */
  webRoot?: string
}

export type AppEnv = {
  Variables: {
    deps: AppDeps
    db: Db
    logger: Logger
    user: AuthSession['user']
    session: AuthSession['session']
  }
}
