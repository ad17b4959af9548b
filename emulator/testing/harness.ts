import { gmail, type gmail_v1 } from '@googleapis/gmail'
import { sheets, type sheets_v4 } from '@googleapis/sheets'
import { OAuth2Client } from 'google-auth-library'
import { createEmulator, DEFAULT_CLIENT, type Emulator, type EmulatorOptions } from '../emulator'
import { SCOPES } from '../oauth/scopes'

/** The google-auth-library endpoint options that point an OAuth2Client at an emulator. */
export function emulatorEndpoints(url: string) {
  return {
    oauth2AuthBaseUrl: `${url}/o/oauth2/v2/auth`,
    oauth2TokenUrl: `${url}/token`,
    oauth2RevokeUrl: `${url}/revoke`,
    tokenInfoUrl: `${url}/tokeninfo`,
    oauth2FederatedSignonPemCertsUrl: `${url}/oauth2/v1/certs`,
    oauth2FederatedSignonJwkCertsUrl: `${url}/oauth2/v3/certs`,
  }
}

export type TestEmulator = Awaited<ReturnType<typeof startTestEmulator>>

export const REDIRECT_URI = 'http://127.0.0.1:9/oauth/callback'

/** An emulator on a random port plus the official clients wired to it, for tests. */
export async function startTestEmulator(options: EmulatorOptions = {}) {
  const emulator: Emulator = createEmulator(options)
  const running = await emulator.start(0)
  const url = running.url

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read control answers loosely, as JSON
  async function control<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const response = await fetch(`${url}/_control${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as T }
  }

  function oauthClient(overrides: { clientId?: string; clientSecret?: string; redirectUri?: string } = {}) {
    return new OAuth2Client({
      clientId: overrides.clientId ?? DEFAULT_CLIENT.clientId,
      clientSecret: overrides.clientSecret ?? DEFAULT_CLIENT.clientSecret,
      redirectUri: overrides.redirectUri ?? REDIRECT_URI,
      endpoints: emulatorEndpoints(url),
    })
  }

  /** A client holding tokens for `email`, issued without the consent page. */
  async function authorizedClient(email: string, scopes: string[] = [SCOPES.openid, SCOPES.email, SCOPES.gmailReadonly, SCOPES.spreadsheets]) {
    const { status, body } = await control<{ access_token: string; refresh_token?: string; expires_in: number }>('POST', '/tokens', { email, scopes })
    if (status !== 201) throw new Error(`token request failed: ${JSON.stringify(body)}`)
    const client = oauthClient()
    client.setCredentials({ access_token: body.access_token, refresh_token: body.refresh_token, expiry_date: Date.now() + body.expires_in * 1000 })
    return client
  }

  const gmailFor = (auth: OAuth2Client): gmail_v1.Gmail => gmail({ version: 'v1', auth, rootUrl: `${url}/`, retry: false })
  const sheetsFor = (auth: OAuth2Client): sheets_v4.Sheets => sheets({ version: 'v4', auth, rootUrl: `${url}/`, retry: false })

  async function deliver(email: string, raw: string, labels?: string[]) {
    const query = labels ? `?labels=${encodeURIComponent(labels.join(','))}` : ''
    const response = await fetch(`${url}/_control/mailboxes/${encodeURIComponent(email)}/messages${query}`, {
      method: 'POST',
      headers: { 'Content-Type': 'message/rfc822' },
      body: raw,
    })
    if (response.status !== 201) throw new Error(`delivery failed: ${await response.text()}`)
    return (await response.json()) as { id: string; threadId: string; historyId: string; labelIds: string[] }
  }

  /** Drives the consent page like a user: load it, pick an account and scopes, press Allow or Deny. */
  async function consent(authUrl: string, choice: { account: string; scopes?: string[]; action?: 'allow' | 'deny' }) {
    const page = await fetch(authUrl)
    const html = await page.text()
    if (page.status !== 200) return { status: page.status, html, location: null as string | null }
    const requestId = /name="request" value="([^"]+)"/.exec(html)?.[1]
    if (!requestId) throw new Error('consent page has no request id')
    const offered = [...html.matchAll(/name="scope" value="([^"]+)"/g)].map((match) => match[1]!)
    const form = new URLSearchParams({ request: requestId, account: choice.account, action: choice.action ?? 'allow' })
    for (const scope of choice.scopes ?? offered) form.append('scope', scope)
    const response = await fetch(`${url}/o/oauth2/v2/auth/consent`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form,
      redirect: 'manual',
    })
    return { status: response.status, html, location: response.headers.get('location') }
  }

  return { emulator, url, close: running.close, control, oauthClient, authorizedClient, gmailFor, sheetsFor, deliver, consent }
}

/** A small RFC 822 message for tests. */
export function rawMessage(input: {
  from?: string
  to?: string
  subject?: string
  date?: string
  text?: string
  html?: string
  messageId?: string
  headers?: Record<string, string>
}): string {
  const headers = [
    `From: ${input.from ?? 'Shop <orders@shop.test>'}`,
    `To: ${input.to ?? 'demo@mailrow.test'}`,
    `Subject: ${input.subject ?? 'Hello'}`,
    `Date: ${input.date ?? 'Mon, 04 Nov 2024 10:00:00 +0000'}`,
    `Message-ID: <${input.messageId ?? `${Math.random().toString(36).slice(2)}@shop.test`}>`,
    ...Object.entries(input.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    'MIME-Version: 1.0',
  ]
  if (!input.html) return `${headers.join('\r\n')}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${input.text ?? 'Hello there'}\r\n`
  return `${headers.join('\r\n')}\r\nContent-Type: multipart/alternative; boundary="b1"\r\n\r\n--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${
    input.text ?? ''
  }\r\n--b1\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${input.html}\r\n--b1--\r\n`
}
