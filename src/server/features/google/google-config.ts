import type { Env } from '../../env'

/** Where Mailrow reaches Google: the real endpoints, or the local emulator's. */
export type GoogleEndpoints = {
  authUrl: string
  tokenUrl: string
  revokeUrl: string
  userInfoUrl: string
  /** rootUrl for the googleapis clients (Gmail and Sheets paths hang off it). */
  apiRootUrl: string
}

export type GoogleConfig = {
  clientId: string
  clientSecret: string
  endpoints: GoogleEndpoints
  isEmulator: boolean
  /** Longest a Google call may take; after that it counts as failed (GOOGLE_TIMEOUT_SECONDS). */
  timeoutMs?: number
}

export const GOOGLE_ENDPOINTS: GoogleEndpoints = {
  authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  revokeUrl: 'https://oauth2.googleapis.com/revoke',
  userInfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
  apiRootUrl: 'https://www.googleapis.com/',
}

/**
 * The OAuth client registered with the emulator in demo mode. Not a secret: nothing real is
 * behind it. (The same pair is the emulator's own default client, so `npm run emulator` works too.)
 */
export const DEMO_OAUTH_CLIENT = { clientId: 'mailrow-emulator.apps.googleusercontent.com', clientSecret: 'mailrow-emulator-secret' }

export function emulatorEndpoints(baseUrl: string): GoogleEndpoints {
  const base = baseUrl.replace(/\/+$/, '')
  return {
    authUrl: `${base}/o/oauth2/v2/auth`,
    tokenUrl: `${base}/token`,
    revokeUrl: `${base}/revoke`,
    userInfoUrl: `${base}/oauth2/v3/userinfo`,
    apiRootUrl: `${base}/`,
  }
}

/** Real Google with credentials; otherwise the emulator at `emulatorUrl` (demo mode). */
export function resolveGoogleConfig(env: Pick<Env, 'GOOGLE_CLIENT_ID' | 'GOOGLE_CLIENT_SECRET'> & Partial<Pick<Env, 'GOOGLE_TIMEOUT_SECONDS'>>, emulatorUrl?: string): GoogleConfig {
  const timeoutMs = env.GOOGLE_TIMEOUT_SECONDS === undefined ? undefined : Math.round(env.GOOGLE_TIMEOUT_SECONDS * 1000)
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET && !emulatorUrl) {
    return { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET, endpoints: GOOGLE_ENDPOINTS, isEmulator: false, timeoutMs }
  }
  if (!emulatorUrl) throw new Error('Google is not configured: set GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET or run the emulator')
  return {
    clientId: env.GOOGLE_CLIENT_ID ?? DEMO_OAUTH_CLIENT.clientId,
    clientSecret: env.GOOGLE_CLIENT_SECRET ?? DEMO_OAUTH_CLIENT.clientSecret,
    endpoints: emulatorEndpoints(emulatorUrl),
    isEmulator: true,
    timeoutMs,
  }
}

/** Scopes the Gmail connection asks for (spec §7). */
export const GMAIL_CONNECTION_SCOPES = [
  'https://www.googleapis.com/auth/gmail.readonly',
  'https://www.googleapis.com/auth/spreadsheets',
  'https://www.googleapis.com/auth/userinfo.email',
] as const
