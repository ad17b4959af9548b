import { randomBytes } from 'node:crypto'
import type { OAuth2Client } from 'google-auth-library'
import type { GmailConnectionStatus } from '@shared/contracts/gmail'
import type { Db } from '../../db/client'
import { emitWebhookEvent } from '../webhooks/webhooks.service'
import { AppError } from '../../lib/errors'
import type { SecretBox } from '../../lib/crypto'
import { GMAIL_CONNECTION_SCOPES, type GoogleConfig } from '../google/google-config'
import { createOAuthClient, gmailApi, isInvalidGrant, toAppError, withGoogleRetry, type RetryOptions } from '../google/google.client'
import {
  deleteGmailConnection,
  findGmailConnectionByUser,
  insertVerification,
  findVerification,
  takeVerification,
  updateGmailConnection,
  upsertGmailConnection,
} from './connections.queries'

/** What a service needs to reach Google for a user. */
export type GoogleAccess = {
  google: GoogleConfig
  box: SecretBox
  appUrl: string
  retry?: RetryOptions
  /** Pub/Sub topic for Gmail push, when configured. */
  pushTopic?: string
}

const STATE_TTL_MS = 10 * 60 * 1000
const stateKey = (state: string) => `gmail-connect:${state}`

/** Where Google's consent returns the user: the wizard (by default), Settings, or the dashboard. */
export const GMAIL_RETURN_TO = ['wizard', 'settings', 'dashboard'] as const
export type GmailReturnTo = (typeof GMAIL_RETURN_TO)[number]

/** The page a connection started from, read from the state before it is used up (the wizard when unknown). */
export async function gmailConnectionReturnTo(db: Db, state: string | undefined): Promise<GmailReturnTo> {
  const found = state ? await findVerification(db, stateKey(state)) : undefined
  const returnTo = found ? (JSON.parse(found.value) as { returnTo?: string }).returnTo : undefined
  return GMAIL_RETURN_TO.find((page) => page === returnTo) ?? 'wizard'
}

export function gmailCallbackUrl(appUrl: string) {
  return `${appUrl}/api/connections/gmail/callback`
}

/**
 * Step 1 of the wizard (or Reconnect elsewhere): the Google consent URL, with state and PKCE kept
 * server-side, and where the user goes back to afterwards (one of a fixed few pages: no open redirect).
 */
export async function startGmailConnection(db: Db, { userId, access, returnTo = 'wizard' }: { userId: string; access: GoogleAccess; returnTo?: GmailReturnTo }) {
  const client = createOAuthClient(access.google, gmailCallbackUrl(access.appUrl))
  const state = randomBytes(24).toString('base64url')
  const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync()
  await insertVerification(db, stateKey(state), JSON.stringify({ userId, codeVerifier, returnTo }), new Date(Date.now() + STATE_TTL_MS))
  const authorizationUrl = client.generateAuthUrl({
    access_type: 'offline',
    prompt: 'consent',
    scope: [...GMAIL_CONNECTION_SCOPES],
    include_granted_scopes: true,
    state,
    code_challenge: codeChallenge,
    code_challenge_method: 'S256' as never,
  })
  return { authorizationUrl }
}

/** The return from Google: exchange the code, then save or update the one connection record. */
export async function completeGmailConnection(
  db: Db,
  { userId, code, state, error, access }: { userId: string; code?: string; state?: string; error?: string; access: GoogleAccess },
) {
  const expired = new AppError('VALIDATION', 'The Gmail connection request has expired. Please try connecting again.')
  // The owner is checked before the state is used up: someone else's callback must not burn it.
  const found = state ? await findVerification(db, stateKey(state)) : undefined
  if (!found || found.expiresAt.getTime() < Date.now()) throw expired
  if ((JSON.parse(found.value) as { userId: string }).userId !== userId) {
    throw new AppError('FORBIDDEN', 'This Gmail connection was started by another account.')
  }
  const stored = await takeVerification(db, found.identifier)
  if (!stored) throw expired
  const pending = JSON.parse(stored.value) as { userId: string; codeVerifier: string }
  if (error) {
    throw new AppError('VALIDATION', error === 'access_denied' ? 'Gmail access was not granted.' : `Google answered: ${error}`)
  }
  if (!code) throw new AppError('VALIDATION', 'Google did not return an authorization code.')

  const client = createOAuthClient(access.google, gmailCallbackUrl(access.appUrl))
  try {
    const { tokens } = await withGoogleRetry(() => client.getToken({ code, codeVerifier: pending.codeVerifier }), access.retry)
    if (!tokens.access_token) throw new AppError('UNAVAILABLE', 'Google did not return an access token.')
    client.setCredentials(tokens)
    const { data: profile } = await withGoogleRetry(
      () => client.request<{ email?: string; sub?: string }>({ url: access.google.endpoints.userInfoUrl }),
      access.retry,
    )
    if (!profile.email) throw new AppError('UNAVAILABLE', 'Google did not share the account email.')
    const granted = (tokens.scope ?? '').split(/\s+/).filter(Boolean)
    // The mailbox's position now: sync starts from here, so only mail that arrives later is parsed.
    const historyId = granted.includes(GMAIL_CONNECTION_SCOPES[0])
      ? ((await withGoogleRetry(() => gmailApi(access.google, client).users.getProfile({ userId: 'me' }), access.retry)).data.historyId ?? null)
      : null
    const previous = await findGmailConnectionByUser(db, userId)
    // Google sends a refresh token only with prompt=consent; keep the old one if none came back.
    const refreshToken = tokens.refresh_token ? access.box.encrypt(tokens.refresh_token) : (previous?.refreshToken ?? '')
    const connection = await upsertGmailConnection(db, {
      userId,
      provider: 'gmail',
      accessToken: access.box.encrypt(tokens.access_token),
      refreshToken,
      accessTokenExpiresAt: tokens.expiry_date ? new Date(tokens.expiry_date) : null,
      accountEmail: profile.email,
      accountId: profile.sub ?? profile.email,
      scopes: granted.join(' '),
      historyId,
    })
    if (access.pushTopic && historyId) {
      // Best effort: without a watch the mailbox is still polled, and the daily renewal retries.
      await withGoogleRetry(
        () => gmailApi(access.google, client).users.watch({ userId: 'me', requestBody: { topicName: access.pushTopic } }),
        access.retry,
      ).catch(() => {})
    }
    return { accountEmail: connection.accountEmail, missingScopes: missingScopes(granted) }
  } catch (e) {
    throw toAppError(e, 'Connecting Gmail')
  }
}

function missingScopes(granted: string[]) {
  return GMAIL_CONNECTION_SCOPES.filter((scope) => !granted.includes(scope))
}

export async function getGmailConnectionStatus(db: Db, { userId }: { userId: string }): Promise<GmailConnectionStatus> {
  const connection = await findGmailConnectionByUser(db, userId)
  if (!connection) {
    return { connected: false, accountEmail: null, needsReconnect: false, reason: null, missingScopes: [], lastRefreshedAt: null }
  }
  const needsReconnect = connection.status === 'needs_reconnect'
  return {
    connected: !needsReconnect,
    accountEmail: connection.accountEmail,
    needsReconnect,
    reason: connection.statusReason,
    missingScopes: missingScopes(connection.scopes.split(/\s+/)),
    lastRefreshedAt: connection.lastRefreshedAt.toISOString(),
  }
}

/** Revokes Mailrow's grant at Google (best effort), then forgets the tokens. */
export async function disconnectGmail(db: Db, { userId, access }: { userId: string; access: GoogleAccess }) {
  const connection = await findGmailConnectionByUser(db, userId)
  if (!connection) return
  const token = connection.refreshToken || connection.accessToken
  try {
    await createOAuthClient(access.google).revokeToken(access.box.decrypt(token))
  } catch {
    // Already revoked or unreachable: the local record goes either way.
  }
  await deleteGmailConnection(db, userId)
}

/** Marks the connection as needing the user, so its parsers pause with a visible reason. */
export async function markNeedsReconnect(db: Db, { userId, reason }: { userId: string; reason: string }) {
  const wasConnected = (await findGmailConnectionByUser(db, userId))?.status === 'connected'
  await updateGmailConnection(db, userId, { status: 'needs_reconnect', statusReason: reason })
  // Every parser of the mailbox stops until the user reconnects: webhook receivers hear it once.
  if (wasConnected) {
    await emitWebhookEvent(db, { userId, event: { type: 'parser.needs_attention', data: { parserId: null, reason: 'connection_lost', message: reason } } })
  }
}

type Connection = NonNullable<Awaited<ReturnType<typeof findGmailConnectionByUser>>>

/**
 * OAuth clients kept per user, so a pass in steady state builds no client, decrypts nothing and
 * refreshes a token only when Google's hour is up. An entry is used only while the stored
 * ciphertext is the one it was made from (a reconnect or another worker's refresh replaces it).
 */
const clients = new Map<string, { client: OAuth2Client; accessToken: string; refreshToken: string }>()
const MAX_CLIENTS = 20_000

/** An OAuth client holding the user's tokens; refreshed tokens are saved encrypted. */
export async function getAuthorizedClient(
  db: Db,
  { userId, access, connection: known }: { userId: string; access: GoogleAccess; connection?: Connection },
): Promise<OAuth2Client> {
  const connection = known ?? (await findGmailConnectionByUser(db, userId))
  if (!connection) throw new AppError('VALIDATION', 'Gmail is not connected. Connect your Gmail account first.')
  if (connection.status === 'needs_reconnect') {
    throw new AppError('GOOGLE_REAUTH_REQUIRED', connection.statusReason ?? 'Please reconnect your Gmail account.')
  }
  const cacheKey = `${access.google.clientId}|${access.google.endpoints.tokenUrl}|${userId}`
  const cached = clients.get(cacheKey)
  if (cached && cached.accessToken === connection.accessToken && cached.refreshToken === connection.refreshToken) return cached.client

  const client = createOAuthClient(access.google)
  let credentials
  try {
    credentials = {
      access_token: access.box.decrypt(connection.accessToken),
      refresh_token: access.box.decrypt(connection.refreshToken) || undefined,
      expiry_date: connection.accessTokenExpiresAt?.getTime(),
    }
  } catch {
    // APP_SECRET changed: the stored tokens can't be read any more.
    await markNeedsReconnect(db, { userId, reason: 'Stored Google tokens could not be read. Please reconnect your Gmail account.' })
    throw new AppError('GOOGLE_REAUTH_REQUIRED', 'Please reconnect your Gmail account.')
  }
  client.setCredentials(credentials)
  const entry = { client, accessToken: connection.accessToken, refreshToken: connection.refreshToken }
  client.on('tokens', (tokens) => {
    if (!tokens.access_token) return
    const accessToken = access.box.encrypt(tokens.access_token)
    const refreshToken = tokens.refresh_token ? access.box.encrypt(tokens.refresh_token) : entry.refreshToken
    // What the database will hold: the next pass keeps using this client.
    Object.assign(entry, { accessToken, refreshToken })
    void updateGmailConnection(db, userId, {
      accessToken,
      refreshToken,
      accessTokenExpiresAt: tokens.expiry_date ? new Date(tokens.expiry_date) : null,
      lastRefreshedAt: new Date(),
    }).catch(() => {})
  })
  clients.delete(cacheKey)
  if (clients.size >= MAX_CLIENTS) clients.delete(clients.keys().next().value!)
  clients.set(cacheKey, entry)
  return client
}

/**
 * Runs Google calls for a user. `call` retries one request when it fails transiently; a dead
 * grant marks the connection as needing reconnect before the error reaches the caller as
 * GOOGLE_REAUTH_REQUIRED.
 */
export async function withUserGoogle<T>(
  db: Db,
  { userId, access, action, connection }: { userId: string; access: GoogleAccess; action: string; connection?: Connection },
  run: (client: OAuth2Client, call: <R>(request: () => Promise<R>) => Promise<R>) => Promise<T>,
): Promise<T> {
  const client = await getAuthorizedClient(db, { userId, access, connection })
  try {
    return await run(client, (request) => withGoogleRetry(request, access.retry))
  } catch (error) {
    if (isInvalidGrant(error)) {
      await markNeedsReconnect(db, {
        userId,
        reason: 'Google access was revoked or has expired. Reconnect your Gmail account to resume parsing.',
      })
    }
    throw toAppError(error, action)
  }
}
