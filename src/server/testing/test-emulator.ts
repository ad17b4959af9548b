import { afterAll, beforeAll, beforeEach } from 'vitest'
import { createEmulator, type EmulatorOptions } from '@emulator/emulator'
import { DEMO_OAUTH_CLIENT } from '../features/google/google-config'
import { createTestApp, TEST_APP_URL, type HttpClient, type TestApp } from './test-app'

/** The Google emulator on a free port, as the tests' Google. */
export async function startTestEmulator(options: EmulatorOptions = {}) {
  const emulator = createEmulator({
    clients: [{ ...DEMO_OAUTH_CLIENT, name: 'Mailrow (test)', redirectUris: [`${TEST_APP_URL}/*`] }],
    ...options,
  })
  const running = await emulator.start(0)
  const control = async (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const isRaw = typeof init.body === 'string' || Buffer.isBuffer(init.body)
    const response = await fetch(`${running.url}/_control${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { ...(init.body === undefined || isRaw ? {} : { 'content-type': 'application/json' }), ...init.headers },
      body: init.body === undefined ? undefined : isRaw ? (init.body as string) : JSON.stringify(init.body),
    })
    const text = await response.text()
    return { status: response.status, json: text ? JSON.parse(text) : undefined }
  }
  return { emulator, url: running.url, control, close: running.close }
}
export type TestEmulator = Awaited<ReturnType<typeof startTestEmulator>>

/** Delivers an RFC 822 message to a mailbox; returns its Gmail id. */
export async function deliverMail(
  google: TestEmulator,
  to: string,
  message: { from: string; subject: string; text?: string; html?: string; date?: Date; labels?: string[] },
) {
  const boundary = `b${Math.random().toString(36).slice(2)}`
  const date = (message.date ?? new Date()).toUTCString()
  const parts = [
    message.text !== undefined ? `--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${message.text}\r\n` : '',
    message.html !== undefined ? `--${boundary}\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${message.html}\r\n` : '',
  ].join('')
  const raw = [
    `From: ${message.from}`,
    `To: ${to}`,
    `Subject: ${message.subject}`,
    `Date: ${date}`,
    `Message-ID: <${boundary}@mail.test>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `${parts}--${boundary}--`,
    '',
  ].join('\r\n')
  const labels = message.labels?.length ? `?labels=${encodeURIComponent(message.labels.join(','))}` : ''
  const result = await google.control(`/mailboxes/${encodeURIComponent(to)}/messages${labels}`, {
    body: raw,
    headers: { 'content-type': 'message/rfc822' },
  })
  if (result.status !== 201) throw new Error(`delivery failed: ${JSON.stringify(result.json)}`)
  return result.json.id as string
}

/**
 * The wizard's Gmail connection as a user clicks through it: start, the consent page's answer
 * (through the emulator's control API), and Google's redirect back to the app's callback.
 * Returns where the app sent the browser afterwards.
 */
export async function connectGmail(
  google: TestEmulator,
  client: HttpClient,
  answer: { account?: string; scopes?: string[]; action?: 'allow' | 'deny'; returnTo?: string } = {},
) {
  const { returnTo, ...consent } = answer
  const start = await client.post(`/api/connections/gmail/start${returnTo ? `?returnTo=${returnTo}` : ''}`)
  if (start.status !== 200) throw new Error(`start failed: ${start.status} ${start.text}`)
  const authUrl: string = start.json.authorizationUrl
  const decision = await google.control('/oauth/consent', { body: { authUrl, account: consent.account ?? 'demo@mailrow.test', ...consent } })
  if (decision.status !== 200) throw new Error(`consent failed: ${JSON.stringify(decision.json)}`)
  const redirect = new URL(decision.json.redirectUrl ?? decision.json.location ?? decision.json.url)
  const back = await client.get(redirect.pathname + redirect.search)
  return { authUrl, redirect, location: new URL(back.headers.get('location') ?? '/', TEST_APP_URL), status: back.status }
}

/**
 * For a test file whose Google is the emulator: one emulator and one app for the file, and the
 * emulator reset before each test. Read `.google` and `.t` inside tests and hooks.
 */
export function useGoogleTestApp(options: Parameters<typeof startTestEmulator>[0] = {}) {
  const context = {} as { google: TestEmulator; t: TestApp }
  beforeAll(async () => {
    context.google = await startTestEmulator(options)
    context.t = await createTestApp({ emulatorUrl: context.google.url })
  })
  afterAll(async () => {
    await context.t?.close()
    await context.google?.close()
  })
  beforeEach(async () => {
    await context.google.control('/reset', { body: {} })
  })
  return context
}
