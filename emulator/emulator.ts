import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { apiNameFor } from './api-names'
import { createClock } from './clock'
import { controlRoutes } from './control/control-routes'
import { createDemoFeed } from './demo/demo-feed'
import { gmailRoutes } from './gmail/gmail-routes'
import { createMailStore, type StoredMessage, type DeliverOptions } from './gmail/mail-store'
import { createPushDispatcher } from './gmail/push'
import type { EmulatorEnv } from './http/context'
import { createFaultStore, faultInjection } from './http/faults'
import { GoogleApiError } from './http/google-error'
import type { QuotaSettings } from './http/quotas'
import { createQuotaStore } from './http/quotas'
import { createRequestLog } from './http/request-log'
import { sendGoogleError } from './http/respond'
import { oauthRoutes } from './oauth/oauth-routes'
import { createOAuthStore, type OAuthClient } from './oauth/oauth-store'
import { sheetsRoutes } from './sheets/sheets-routes'
import { createSpreadsheetStore } from './sheets/spreadsheet-store'
import type { EmulatorConfig, EmulatorState } from './state'
import { viewerRoutes } from './viewer/viewer-routes'

/** Gmail accepts messages up to ~35 MB once encoded; anything larger is a mistake, not a test. */
const MAX_BODY_BYTES = 50 * 1024 * 1024

/** The OAuth client every emulator accepts unless told otherwise (demo mode uses it). */
export const DEFAULT_CLIENT: OAuthClient = {
  clientId: 'mailrow-emulator.apps.googleusercontent.com',
  clientSecret: 'mailrow-emulator-secret',
  redirectUris: ['http://localhost:*', 'http://127.0.0.1:*'],
  name: 'Mailrow (demo)',
}

export const DEFAULT_ACCOUNTS = [
  { email: 'demo@mailrow.test', name: 'Demo User' },
  { email: 'other@mailrow.test', name: 'Other User' },
]

export type EmulatorOptions = {
  /** Mailbox accounts offered on the consent page. The first is the demo account. */
  accounts?: (string | { email: string; name?: string })[]
  /** Registered OAuth clients; defaults to DEFAULT_CLIENT. */
  clients?: OAuthClient[]
  /** Access-token lifetime (Google: 3600). */
  tokenLifetimeSeconds?: number
  /** Refresh-token lifetime; null (default) never expires. 604800 mimics an app in "Testing" status. */
  refreshTokenLifetimeSeconds?: number | null
  /** Where users.watch notifications are POSTed (a Pub/Sub push endpoint). */
  pushUrl?: string
  pushSubscription?: string
  /** Load the demo mailbox (45 notifications) and deliver a new one every demoIntervalMs. */
  demo?: boolean
  demoIntervalMs?: number
  demoSeed?: number
  demoInitialCount?: number
  /** `iss` of id_tokens. Google's value by default, so verifyIdToken works unchanged. */
  issuer?: string
  /** Origin used in links (spreadsheetUrl, discovery) instead of the request's own. */
  publicUrl?: string
  /** History records kept per mailbox; older startHistoryIds get 404. */
  historyRetention?: number
  quotas?: Partial<QuotaSettings>
}

export type RunningEmulator = { url: string; port: number; close: () => Promise<void> }

export type Emulator = {
  app: Hono<EmulatorEnv>
  state: EmulatorState
  /** Resolves when the demo mailbox has been loaded. */
  ready: Promise<void>
  start: (port?: number, hostname?: string) => Promise<RunningEmulator>
  /** Delivers raw RFC 822 bytes to a mailbox, as POST /_control/mailboxes/{email}/messages does. */
  deliver: (email: string, raw: Buffer | string, options?: DeliverOptions) => Promise<StoredMessage>
  reset: () => Promise<void>
  /** Stops timers (demo feed, push retries). start()'s close() does this too. */
  stop: () => void
}

function resolveConfig(options: EmulatorOptions): EmulatorConfig {
  const accounts = (options.accounts ?? DEFAULT_ACCOUNTS).map((account) =>
    typeof account === 'string' ? { email: account.toLowerCase() } : { ...account, email: account.email.toLowerCase() },
  )
  return {
    accounts,
    clients: options.clients ?? [DEFAULT_CLIENT],
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
    refreshTokenLifetimeSeconds: options.refreshTokenLifetimeSeconds ?? null,
    pushUrl: options.pushUrl,
    pushSubscription: options.pushSubscription,
    demo: options.demo ?? false,
    demoIntervalMs: options.demoIntervalMs ?? 30_000,
    demoSeed: options.demoSeed ?? 42,
    demoInitialCount: options.demoInitialCount ?? 45,
    issuer: options.issuer ?? 'https://accounts.google.com',
    publicUrl: options.publicUrl,
    historyRetention: options.historyRetention ?? 5000,
    quotas: options.quotas ?? {},
  }
}

export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const config = resolveConfig(options)
  const clock = createClock()
  const push = createPushDispatcher({ clock, url: config.pushUrl, subscription: config.pushSubscription })
  const mail = createMailStore({ clock, historyRetention: config.historyRetention, onHistory: push.onHistory })
  const oauth = createOAuthStore({
    clock,
    issuer: config.issuer,
    tokenLifetimeSeconds: config.tokenLifetimeSeconds,
    refreshTokenLifetimeSeconds: config.refreshTokenLifetimeSeconds,
    findAccount: (email) => mail.find(email)?.account,
  })
  for (const client of config.clients) oauth.registerClient(client)
  const state: EmulatorState = {
    config,
    clock,
    oauth,
    mail,
    sheets: createSpreadsheetStore({ now: clock.now }),
    faults: createFaultStore(),
    quotas: createQuotaStore(clock, config.quotas),
    requests: createRequestLog(clock, apiNameFor),
    push,
    demo: createDemoFeed({
      mail,
      clock,
      seed: config.demoSeed,
      initialCount: config.demoInitialCount,
      intervalMs: config.demoIntervalMs,
    }),
  }

  async function load() {
    for (const account of config.accounts) mail.addAccount(account)
    if (config.demo) {
      await state.demo.seed(config.accounts.map((account) => account.email))
      state.demo.start()
    }
  }

  async function reset() {
    state.demo.reset()
    push.clear()
    push.setUrl(config.pushUrl)
    mail.clear()
    state.sheets.clear()
    oauth.reset()
    oauth.setTokenLifetimeSeconds(config.tokenLifetimeSeconds)
    state.faults.clear()
    state.quotas.reset()
    state.requests.clear()
    clock.reset()
    await load()
  }

  const app = new Hono<EmulatorEnv>()
  app.use(state.requests.middleware)
  app.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => sendGoogleError(c, { code: 413, message: 'Request payload size exceeds the limit: 52428800 bytes.', reason: 'badRequest', status: 'INVALID_ARGUMENT' }),
    }),
  )
  app.use(faultInjection(state.faults, (c, fault, dropped) => state.requests.noteFault(c.req.raw, fault.id, dropped)))
  app.route('/', oauthRoutes(state))
  app.route('/', gmailRoutes(state))
  app.route('/', sheetsRoutes(state))
  app.route('/_control', controlRoutes(state, { reset }))
  app.route('/', viewerRoutes(state))
  app.onError((error, c) => {
    if (error instanceof GoogleApiError) return sendGoogleError(c, error.init)
    console.error('[google-emulator]', error)
    return sendGoogleError(c, { code: 500, message: 'Internal error encountered.' })
  })
  app.notFound((c) =>
    sendGoogleError(c, {
      code: 404,
      message: `The Mailrow Google emulator has no route for ${c.req.method} ${new URL(c.req.url).pathname}.`,
      reason: 'notFound',
    }),
  )

  const ready = load()
  const servers = new Set<RunningEmulator>()

  function stop() {
    state.demo.stop()
    push.stop()
  }

  return {
    app,
    state,
    ready,
    deliver: (email, raw, deliverOptions) => mail.deliver(email, typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw, deliverOptions),
    reset,
    stop,
    start: async (port = 4010, hostname = '127.0.0.1') => {
      await ready
      const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
        const instance = serve({ fetch: app.fetch, port, hostname }, () => resolve(instance))
        instance.once('error', reject)
      })
      const address = server.address() as AddressInfo
      const host = hostname === '0.0.0.0' || hostname === '::' ? 'localhost' : hostname.includes(':') ? `[${hostname}]` : hostname
      const running: RunningEmulator = {
        url: `http://${host}:${address.port}`,
        port: address.port,
        close: () =>
          new Promise<void>((resolve) => {
            servers.delete(running)
            if (!servers.size) stop()
            server.close(() => resolve())
            if ('closeAllConnections' in server) server.closeAllConnections()
          }),
      }
      servers.add(running)
      return running
    },
  }
}
