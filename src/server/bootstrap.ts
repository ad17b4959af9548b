import { fileURLToPath } from 'node:url'
import { createAuth, sessionCookieName, type AuthRateLimits } from './auth/auth'
import { SessionCache } from './auth/session-cache'
import { openDatabase, type Database } from './db/client'
import type { Env } from './env'
import { billingConfigFor } from './features/billing/billing.client'
import { aiConfigFromEnv } from './features/extraction/extraction.service'
import { resolveGoogleConfig, type GoogleConfig } from './features/google/google-config'
import { createOutboxMailer, createSmtpMailer, createUndeliverableMailer, type Mailer } from './features/mail/mailer'
import { createSecretBox } from './lib/crypto'
import { createApp } from './app'
import type { AppDeps } from './context'
import { createLogger, type Logger } from './lib/logger'
import { resolveAppSecret } from './secret'

export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../dist/web', import.meta.url))

/** Opens the database, applies migrations and wires the app's dependencies. */
export async function buildDeps(
  env: Env,
  options: {
    logger?: Logger
    database?: Database
    mailer?: Mailer
    rateLimits?: AuthRateLimits
    webRoot?: string
    /** A running Google emulator to use (demo mode and tests); overrides GOOGLE_EMULATOR_URL. */
    emulatorUrl?: string
    /** A running Stripe emulator to use (demo mode); overrides STRIPE_API_URL. */
    stripeEmulatorUrl?: string
  } = {},
): Promise<AppDeps> {
  const logger = options.logger ?? createLogger(env.LOG_LEVEL)
  const database = options.database ?? (await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR, initInChildProcess: true }))
  await database.migrate()
  const secret = resolveAppSecret(env.APP_SECRET, env.DATA_DIR)
  const mailer = options.mailer ?? createMailer(env, database, logger)
  if (env.MAIL_DELIVERY === 'none') {
    logger.warn(
      { appUrl: env.APP_URL },
      'SMTP_URL is not set: Mailrow cannot send mail (password resets, address confirmations). Set SMTP_URL and MAIL_FROM.',
    )
  }
  const google = googleConfigFor(env, options.emulatorUrl ?? env.GOOGLE_EMULATOR_URL)
  const sessionCache = new SessionCache(sessionCookieName(env.APP_URL), env.SESSION_CACHE_SECONDS * 1000)
  const auth = createAuth({ db: database.db, env, google, secret, mailer, logger, rateLimits: options.rateLimits, sessionCache })
  // The cache keys on Better Auth's session cookie: a name that drifted would silently miss every time.
  const cookieName = (await auth.$context).authCookies.sessionToken.name
  if (cookieName !== sessionCache.cookieName) throw new Error(`session cookie is ${cookieName}, the session cache expects ${sessionCache.cookieName}`)
  return { database, auth, sessionCache, env, mailer, logger, google, ai: aiConfigFromEnv(env), billing: billingConfigFor(env, options.stripeEmulatorUrl), appSecret: secret, box: createSecretBox(secret), webRoot: options.webRoot }
}

function createMailer(env: Env, database: Database, logger: Logger): Mailer {
  if (env.MAIL_DELIVERY === 'smtp' && env.SMTP_URL) return createSmtpMailer(env.SMTP_URL, env.MAIL_FROM)
  if (env.MAIL_DELIVERY === 'outbox') return createOutboxMailer(database.db, logger)
  return createUndeliverableMailer(logger)
}

function googleConfigFor(env: Env, emulatorUrl: string | undefined): GoogleConfig | undefined {
  if (!emulatorUrl && !(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET)) return undefined
  return resolveGoogleConfig(env, emulatorUrl)
}

export { createApp }

/** What the worker needs to run the pipeline for these deps; undefined without Google. */
export function pipelineDepsOf(deps: Pick<AppDeps, 'google' | 'box' | 'env' | 'googleRetry' | 'ai'>) {
  if (!deps.google) return undefined
  return {
    access: { google: deps.google, box: deps.box, appUrl: deps.env.APP_URL, retry: deps.googleRetry, pushTopic: deps.env.GMAIL_PUSH_TOPIC },
    ai: deps.ai,
    leaseMs: deps.env.WORKER_LEASE_SECONDS * 1000,
    write: { ambiguousDeadlineMs: deps.env.SHEETS_WRITE_DEADLINE_SECONDS * 1000 },
  }
}
