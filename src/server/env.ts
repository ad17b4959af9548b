import { isIP } from 'node:net'
import { z } from 'zod'

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional()

const optionalUrl = (protocols: RegExp, hint: string) =>
  optionalString.refine((v) => v === undefined || (URL.canParse(v) && protocols.test(new URL(v).protocol)), {
    error: `must be a ${hint} URL`,
  })

/** Which proxies in front of Mailrow may add to X-Forwarded-For (see lib/client-ip.ts). */
export type TrustProxy = { hops: number; addresses: string[] }

const isIpOrCidr = (entry: string) => {
  const [address, prefix, extra] = entry.split('/')
  const version = isIP(address ?? '')
  if (!version || extra !== undefined) return false
  if (prefix === undefined) return true
  return /^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128)
}

/**
 * false (default): the socket's address is the client. true: one proxy (= 1). A number: that many
 * proxies in a row. A list of addresses or CIDRs: the proxies themselves.
 */
const trustProxy = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx): TrustProxy => {
    const v = (value ?? '').toLowerCase()
    if (['', 'false', 'no', '0'].includes(v)) return { hops: 0, addresses: [] }
    if (v === 'true' || v === 'yes') return { hops: 1, addresses: [] }
    if (/^\d+$/.test(v) && Number(v) <= 10) return { hops: Number(v), addresses: [] }
    const addresses = v.split(',').map((entry) => entry.trim()).filter(Boolean)
    if (addresses.length > 0 && addresses.every(isIpOrCidr)) return { hops: 0, addresses }
    ctx.addIssue({ code: 'custom', message: 'must be false, a number of proxies (1-10), or a comma-separated list of proxy addresses or CIDRs' })
    return z.NEVER
  })

/** The poll interval when Gmail push is on: every 12 minutes, in case a notification was lost. */
export const PUSH_SAFETY_NET_SECONDS = 720

/**
 * Every setting Mailrow reads, validated once at start-up. Nothing else reads process.env.
 * `.env.example` documents each key.
 */
const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    APP_URL: optionalUrl(/^https?:$/, 'http(s)'),
    DATABASE_URL: optionalUrl(/^postgres(ql)?:$/, 'postgres://'),
    DATA_DIR: z.string().trim().min(1).default('./data'),
    APP_SECRET: optionalString.refine((v) => v === undefined || v.length >= 32, {
      error: 'must be at least 32 characters',
    }),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: trustProxy,
    RUN_WORKER: z
      .enum(['true', 'false', ''])
      .optional()
      .transform((v) => v !== 'false'),
    GOOGLE_CLIENT_ID: optionalString,
    /** Talk to a running Google emulator instead of Google (tests, or an emulator you started yourself). */
    GOOGLE_EMULATOR_URL: optionalUrl(/^https?:$/, 'http(s)'),
    /** Port of the emulator `npm start` launches in demo mode. */
    EMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
    GOOGLE_CLIENT_SECRET: optionalString,
    SMTP_URL: optionalUrl(/^smtps?:$/, 'smtp:// or smtps://'),
    MAIL_FROM: z.string().trim().min(3).default('Mailrow <no-reply@mailrow.local>'),
    /**
     * How often each connected mailbox is checked for new mail (default 30; 3 in demo mode; 720,
     * the safety net, when Gmail push is on).
     */
    POLL_INTERVAL_SECONDS: z.coerce.number().min(0.5).max(3600).optional(),
    /** Pub/Sub topic for Gmail push (projects/P/topics/T); without it mailboxes are only polled. */
    GMAIL_PUSH_TOPIC: optionalString.refine((v) => v === undefined || /^projects\/[^/]+\/topics\/[^/]+$/.test(v), {
      error: 'must look like projects/PROJECT/topics/TOPIC',
    }),
    /** Mailbox passes one worker process runs at a time (most of a pass is waiting on Google). */
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(25),
    /**
     * How long this process may answer a signed-in request from a session it validated before
     * (0 turns the cache off). Revocations in this process take effect at once; one made by another
     * server process takes effect within this time (docs/decisions/018).
     */
    SESSION_CACHE_SECONDS: z.coerce.number().min(0).max(300).default(10),
    /** How long a worker's claim on an email or a spreadsheet outlives a crashed worker. */
    WORKER_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(60),
    /** Longest a Google call may take before it counts as failed (an append then as ambiguous). */
    GOOGLE_TIMEOUT_SECONDS: z.coerce.number().min(0.05).max(600).default(30),
    /**
     * How long Sheets may keep working on a request whose answer we never got (Google's own
     * deadline is 180 s): rows of such an append are not appended again before it has passed.
     */
    SHEETS_WRITE_DEADLINE_SECONDS: z.coerce.number().min(0).max(3600).default(180),
    /** Requests one API key may make per minute (REST API v1); more answer 429 with Retry-After. */
    API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
    /**
     * Let webhooks reach private, loopback and link-local addresses (tests, the demo, a receiver
     * on your own network). Off by default: a webhook URL must not become a way into the server's network.
     */
    WEBHOOKS_ALLOW_PRIVATE: z
      .enum(['true', 'false', ''])
      .optional()
      .transform((v) => v === 'true'),
    /** How long a webhook receiver may take to answer before the attempt counts as failed. */
    WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(60).default(10),
    AI_BASE_URL: optionalUrl(/^https?:$/, 'http(s)'),
    AI_API_KEY: optionalString,
    AI_MODEL_SMART: z.string().trim().min(1).default('gpt-4o-mini'),
    AI_MODEL_FULL: z.string().trim().min(1).default('gpt-4o'),
    /** Stripe billing: without a key, plans are set by the operator (or, in demo mode, by the local Stripe emulator). */
    STRIPE_SECRET_KEY: optionalString,
    /** The signing secret of the webhook endpoint ${APP_URL}/api/billing/webhook (whsec_...). */
    STRIPE_WEBHOOK_SECRET: optionalString,
    /** Price ids (price_...) of the monthly Starter and Pro plans. */
    STRIPE_PRICE_STARTER: optionalString,
    STRIPE_PRICE_PRO: optionalString,
    /** Talk to a Stripe emulator at this URL instead of api.stripe.com (tests, or one you started yourself). */
    STRIPE_API_URL: optionalUrl(/^https?:$/, 'http(s)'),
    /** Port of the Stripe emulator `npm start` launches in demo mode (0: any free port). */
    STRIPE_EMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(4011),
  })
  .transform((env) => {
    const appUrl = (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '')
    return {
      ...env,
      APP_URL: appUrl,
      /**
       * Where account mail goes. Without SMTP, a development or demo install on plain http keeps it
       * in the development outbox; a production or https install cannot send mail at all (start-up
       * warns, the forms say so) and never stores or serves it.
       */
      MAIL_DELIVERY: (env.SMTP_URL
        ? 'smtp'
        : env.NODE_ENV !== 'production' && appUrl.startsWith('http:')
          ? 'outbox'
          : 'none') as 'smtp' | 'outbox' | 'none',
      /** No Google credentials: the app runs against the local Google emulator (demo mode). */
      DEMO_MODE: !env.GOOGLE_CLIENT_ID,
      // With push, a notification makes a mailbox due at once; the poll is only the safety net for a lost one.
      POLL_INTERVAL_SECONDS: env.POLL_INTERVAL_SECONDS ?? (env.GMAIL_PUSH_TOPIC ? PUSH_SAFETY_NET_SECONDS : env.GOOGLE_CLIENT_ID ? 30 : 3),
    }
  })

export type Env = z.infer<typeof envSchema>

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'EnvError'
  }
}

/** Parses the environment; throws an EnvError that names every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source)
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`)
  // Checked apart from the schema so it is reported together with every other bad key.
  const hasId = Boolean(source.GOOGLE_CLIENT_ID?.trim())
  if (hasId !== Boolean(source.GOOGLE_CLIENT_SECRET?.trim())) {
    problems.push(
      `${hasId ? 'GOOGLE_CLIENT_SECRET' : 'GOOGLE_CLIENT_ID'}: GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together`,
    )
  }
  // With a Stripe key, everything billing needs must be there too.
  if (source.STRIPE_SECRET_KEY?.trim()) {
    for (const key of ['STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_STARTER', 'STRIPE_PRICE_PRO'] as const) {
      if (!source[key]?.trim()) problems.push(`${key}: required when STRIPE_SECRET_KEY is set`)
    }
  }
  if (!result.success || problems.length > 0) throw new EnvError(problems)
  return result.data
}
