import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_AUTH_RATE_LIMITS, type AuthRateLimits } from '../auth/auth'
import { buildDeps, createApp } from '../bootstrap'
import { parseEnv } from '../env'
import type { MailMessage, Mailer } from '../features/mail/mailer'
import { createLogger } from '../lib/logger'
import type { Database } from '../db/client'
import { openTestDatabase } from './test-database'

export const TEST_APP_URL = 'http://localhost:3000'
/** Requests can pose as another caller (for rate-limit tests) with this header. */
export const TEST_IP_HEADER = 'x-test-client-ip'
/** The app secret of test apps (worker processes in tests need it to read the stored tokens). */
export const TEST_APP_SECRET = 'test-secret-that-is-long-enough-0123456789'

/** The whole app in-process on a fresh database, with mail captured instead of sent. */
export async function createTestApp(
  options: {
    rateLimits?: Partial<AuthRateLimits>
    env?: Record<string, string>
    emulatorUrl?: string
    database?: Database
    /** Resolve the caller's IP as production does (socket + TRUST_PROXY); see requestFromSocket. */
    realClientIp?: boolean
  } = {},
) {
  const database = options.database ?? (await openTestDatabase())
  const sent: MailMessage[] = []
  const mailer: Mailer = {
    kind: 'outbox',
    async send(message) {
      sent.push(message)
    },
  }
  const env = parseEnv({
    NODE_ENV: 'test',
    APP_URL: TEST_APP_URL,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'mailrow-test-')),
    APP_SECRET: TEST_APP_SECRET,
    LOG_LEVEL: 'silent',
    ...options.env,
  })
  const deps = await buildDeps(env, {
    database,
    mailer,
    logger: createLogger((process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent'),
    rateLimits: { ...DEFAULT_AUTH_RATE_LIMITS, ...options.rateLimits },
    emulatorUrl: options.emulatorUrl,
  })
  // Google retries back off for real in production; here they retry at once.
  deps.googleRetry = { sleep: async () => {} }
  if (!options.realClientIp) deps.getClientIp = (request) => request.headers.get(TEST_IP_HEADER) ?? '198.51.100.7'
  const app = createApp(deps)
  return {
    app,
    deps,
    db: database.db,
    sentMail: sent,
    /** A browser-like client: keeps cookies, sends the app's Origin, and has an IP of its own. */
    client: () => createHttpClient(app.request.bind(app), { [TEST_IP_HEADER]: randomTestIp() }),
    close: () => database.close(),
  }
}
export type TestApp = Awaited<ReturnType<typeof createTestApp>>

/** A request as it arrives over a socket from `remoteAddress` (for apps made with realClientIp). */
export function requestFromSocket(app: TestApp['app'], remoteAddress: string, path: string, init: RequestInit = {}) {
  const family = remoteAddress.includes(':') ? 'IPv6' : 'IPv4'
  return app.request(path, init, { incoming: { socket: { remoteAddress, remotePort: 50000, remoteFamily: family } } })
}

type Fetcher = (path: string, init?: RequestInit) => Response | Promise<Response>

/** An address in the benchmarking range 198.18.0.0/15, so rate limits don't join unrelated tests. */
function randomTestIp() {
  return `198.${18 + Math.floor(Math.random() * 2)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`
}

export function createHttpClient(fetcher: Fetcher, defaultHeaders: Record<string, string> = {}) {
  const cookies = new Map<string, string>()
  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const init: RequestInit = {
      method,
      headers: {
        origin: TEST_APP_URL,
        ...defaultHeaders,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(cookies.size ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    }
    const response = await fetcher(path, init)
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const index = pair!.indexOf('=')
      const name = pair!.slice(0, index).trim()
      const value = pair!.slice(index + 1)
      if (value === '' || /max-age=0/i.test(line)) cookies.delete(name)
      else cookies.set(name, value)
    }
    const text = await response.text()
    let json: any
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      json = undefined
    }
    return { status: response.status, headers: response.headers, json, text }
  }
  return {
    cookies,
    get: (path: string, headers?: Record<string, string>) => send('GET', path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => send('POST', path, body ?? {}, headers),
    put: (path: string, body?: unknown, headers?: Record<string, string>) => send('PUT', path, body ?? {}, headers),
    send,
  }
}
export type HttpClient = ReturnType<typeof createHttpClient>

export const VALID_PASSWORD = 'Correct-Horse7'

export const CONFIRM_SUBJECT = 'Confirm your Mailrow email address'

/** The latest confirmation link mailed to this address, as the user would find it. */
export function confirmationLink(testApp: TestApp, email: string): string {
  const mail = testApp.sentMail.findLast((m) => m.to === email.trim().toLowerCase() && m.subject === CONFIRM_SUBJECT)
  const link = mail?.text.match(/https?:\/\/\S+/)?.[0]
  if (!link) throw new Error(`no confirmation mail for ${email}`)
  return link
}

/** Opens the confirmation link in this client (which signs it in, as in a browser). */
export async function confirmEmail(testApp: TestApp, client: HttpClient, email: string) {
  const url = new URL(confirmationLink(testApp, email))
  const response = await client.get(url.pathname + url.search)
  if (response.status !== 302) throw new Error(`confirmation failed: ${response.status} ${response.text}`)
  return response
}

/** Signs a new user up, confirms the address from the mail, and signs in; returns their client. */
export async function signUpAndIn(testApp: TestApp, email: string, password = VALID_PASSWORD) {
  const client = testApp.client()
  const signUp = await client.post('/api/auth/sign-up/email', { email, password, name: 'Test' })
  if (signUp.status !== 200) throw new Error(`sign-up failed: ${signUp.status} ${signUp.text}`)
  await confirmEmail(testApp, client, email)
  const signIn = await client.post('/api/auth/sign-in/email', { email, password })
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${signIn.text}`)
  return client
}
