import { createHash, timingSafeEqual } from 'node:crypto'
import type { Clock } from '../clock'
import { randomToken } from '../ids'
import { SCOPES } from './scopes'
import { accessTokenHash, signJwt } from './signing-key'

/** A registered OAuth client, as created in Google Cloud's "Credentials" page. */
export type OAuthClient = {
  clientId: string
  clientSecret: string
  /** Exact URIs; a trailing `*` matches any suffix (an emulator convenience for random test ports). */
  redirectUris: string[]
  name?: string
}

export type AccountInfo = { email: string; name: string; sub: string }

export type PendingAuthorization = {
  id: string
  clientId: string
  redirectUri: string
  scopes: string[]
  state: string | undefined
  codeChallenge: string | undefined
  codeChallengeMethod: 'S256' | 'plain' | undefined
  nonce: string | undefined
  accessType: 'online' | 'offline'
  prompt: string | undefined
  loginHint: string | undefined
  createdAt: number
}

type AuthorizationCode = {
  code: string
  clientId: string
  email: string
  scopes: string[]
  redirectUri: string
  codeChallenge: string | undefined
  codeChallengeMethod: 'S256' | 'plain' | undefined
  nonce: string | undefined
  accessType: 'online' | 'offline'
  forceConsent: boolean
  expiresAt: number
  used: boolean
}

export type Grant = {
  id: string
  clientId: string
  email: string
  scopes: string[]
  refreshToken: string | null
  refreshExpiresAt: number | null
  revoked: boolean
  createdAt: number
}

type AccessToken = {
  token: string
  grantId: string
  clientId: string
  email: string
  scopes: string[]
  accessType: 'online' | 'offline'
  expiresAt: number
}

/** The body of a successful /token answer, as Google sends it. */
export type TokenResponse = {
  access_token: string
  expires_in: number
  refresh_token?: string
  refresh_token_expires_in?: number
  scope: string
  token_type: 'Bearer'
  id_token?: string
}

/** The body of a failed /token answer: RFC 6749 §5.2, which Google follows. */
export type OAuthErrorResponse = { status: number; body: { error: string; error_description: string } }

export type ResolvedAccessToken =
  | { ok: true; token: AccessToken }
  | { ok: false; reason: 'expired' | 'unknown' | 'revoked' }

export type OAuthStoreOptions = {
  clock: Clock
  issuer: string
  tokenLifetimeSeconds: number
  refreshTokenLifetimeSeconds: number | null
  findAccount: (email: string) => AccountInfo | undefined
}

const CODE_LIFETIME_MS = 10 * 60 * 1000
const PENDING_LIFETIME_MS = 60 * 60 * 1000

export type OAuthStore = ReturnType<typeof createOAuthStore>

export function createOAuthStore(options: OAuthStoreOptions) {
  const { clock } = options
  const clients = new Map<string, OAuthClient>()
  const pending = new Map<string, PendingAuthorization>()
  const codes = new Map<string, AuthorizationCode>()
  const grants = new Map<string, Grant>()
  const accessTokens = new Map<string, AccessToken>()
  const refreshTokens = new Map<string, string>()
  let tokenLifetimeSeconds = options.tokenLifetimeSeconds

  const oauthError = (status: number, error: string, description: string): OAuthErrorResponse => ({
    status,
    body: { error, error_description: description },
  })

  function registerClient(client: OAuthClient) {
    clients.set(client.clientId, { ...client, redirectUris: [...client.redirectUris] })
  }

  function isRedirectUriAllowed(client: OAuthClient, uri: string): boolean {
    return client.redirectUris.some((allowed) =>
      allowed.endsWith('*') ? uri.startsWith(allowed.slice(0, -1)) : allowed === uri,
    )
  }

  function authenticateClient(clientId: string | undefined, clientSecret: string | undefined) {
    if (!clientId) return { error: oauthError(400, 'invalid_request', 'Could not determine client ID from request.') }
    const client = clients.get(clientId)
    if (!client) return { error: oauthError(401, 'invalid_client', 'The OAuth client was not found.') }
    if (clientSecret === undefined) return { error: oauthError(400, 'invalid_request', 'client_secret is missing.') }
    if (!safeEqual(client.clientSecret, clientSecret)) return { error: oauthError(401, 'invalid_client', 'Unauthorized') }
    return { client }
  }

  function addPending(request: Omit<PendingAuthorization, 'id' | 'createdAt'>): PendingAuthorization {
    for (const [id, entry] of pending) if (entry.createdAt + PENDING_LIFETIME_MS < clock.now()) pending.delete(id)
    const entry: PendingAuthorization = { ...request, id: randomToken(32), createdAt: clock.now() }
    pending.set(entry.id, entry)
    return entry
  }

  /** The user's answer on the consent page, turned into the redirect Google would send. */
  function decide(
    pendingId: string,
    decision: { action: 'allow' | 'deny'; email?: string; scopes?: string[] },
  ): { location: string } | { error: string } {
    const request = pending.get(pendingId)
    if (!request) return { error: 'This sign-in request has expired or was already answered. Start again from the app.' }
    const redirect = new URL(request.redirectUri)
    if (decision.action === 'deny') {
      pending.delete(pendingId)
      redirect.searchParams.set('error', 'access_denied')
      if (request.state !== undefined) redirect.searchParams.set('state', request.state)
      return { location: redirect.toString() }
    }
    const account = decision.email ? options.findAccount(decision.email) : undefined
    if (!account) return { error: 'Choose an account to continue.' }
    pending.delete(pendingId)
    const requestedOptional = request.scopes.filter((scope) => !isIdentityScope(scope))
    const chosen = new Set(decision.scopes ?? requestedOptional)
    const granted = request.scopes.filter((scope) => isIdentityScope(scope) || chosen.has(scope))
    const code: AuthorizationCode = {
      code: `4/0A${randomToken(70)}`,
      clientId: request.clientId,
      email: account.email,
      scopes: granted,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      codeChallengeMethod: request.codeChallengeMethod,
      nonce: request.nonce,
      accessType: request.accessType,
      forceConsent: (request.prompt ?? '').split(/\s+/).includes('consent'),
      expiresAt: clock.now() + CODE_LIFETIME_MS,
      used: false,
    }
    codes.set(code.code, code)
    if (request.state !== undefined) redirect.searchParams.set('state', request.state)
    redirect.searchParams.set('code', code.code)
    redirect.searchParams.set('scope', granted.join(' '))
    redirect.searchParams.set('authuser', '0')
    redirect.searchParams.set('prompt', 'consent')
    return { location: redirect.toString() }
  }

  function issueTokens(grant: Grant, accessType: 'online' | 'offline', nonce: string | undefined, includeRefresh: boolean): TokenResponse {
    const now = clock.now()
    const access: AccessToken = {
      token: `ya29.a0${randomToken(150)}`,
      grantId: grant.id,
      clientId: grant.clientId,
      email: grant.email,
      scopes: grant.scopes,
      accessType,
      expiresAt: now + tokenLifetimeSeconds * 1000,
    }
    accessTokens.set(access.token, access)
    const response: TokenResponse = {
      access_token: access.token,
      expires_in: tokenLifetimeSeconds,
      scope: grant.scopes.join(' '),
      token_type: 'Bearer',
    }
    if (includeRefresh && grant.refreshToken) {
      response.refresh_token = grant.refreshToken
      if (grant.refreshExpiresAt !== null) response.refresh_token_expires_in = Math.round((grant.refreshExpiresAt - now) / 1000)
    }
    if (grant.scopes.includes(SCOPES.openid)) response.id_token = idToken(grant, access.token, nonce)
    return response
  }

  function idToken(grant: Grant, accessToken: string, nonce: string | undefined): string {
    const account = options.findAccount(grant.email)
    const iat = Math.floor(clock.now() / 1000)
    const payload: Record<string, unknown> = {
      iss: options.issuer,
      azp: grant.clientId,
      aud: grant.clientId,
      sub: account?.sub ?? grant.email,
    }
    if (grant.scopes.includes(SCOPES.email)) {
      payload.email = grant.email
      payload.email_verified = true
    }
    payload.at_hash = accessTokenHash(accessToken)
    if (nonce !== undefined) payload.nonce = nonce
    if (grant.scopes.includes(SCOPES.profile) && account) {
      const [given, ...rest] = account.name.split(' ')
      payload.name = account.name
      payload.given_name = given
      if (rest.length) payload.family_name = rest.join(' ')
    }
    payload.iat = iat
    payload.exp = iat + 3600
    return signJwt(payload)
  }

  function createGrant(clientId: string, email: string, scopes: string[], withRefresh: boolean): Grant {
    const now = clock.now()
    const grant: Grant = {
      id: randomToken(16),
      clientId,
      email,
      scopes,
      refreshToken: withRefresh ? `1//0${randomToken(100)}` : null,
      refreshExpiresAt: withRefresh && options.refreshTokenLifetimeSeconds !== null ? now + options.refreshTokenLifetimeSeconds * 1000 : null,
      revoked: false,
      createdAt: now,
    }
    grants.set(grant.id, grant)
    if (grant.refreshToken) refreshTokens.set(grant.refreshToken, grant.id)
    return grant
  }

  function exchangeCode(params: {
    clientId: string | undefined
    clientSecret: string | undefined
    code: string | undefined
    redirectUri: string | undefined
    codeVerifier: string | undefined
  }): TokenResponse | OAuthErrorResponse {
    const auth = authenticateClient(params.clientId, params.clientSecret)
    if (auth.error) return auth.error
    if (!params.code) return oauthError(400, 'invalid_request', 'Missing required parameter: code')
    const code = codes.get(params.code)
    if (!code) return oauthError(400, 'invalid_grant', params.code.startsWith('4/') ? 'Bad Request' : 'Malformed auth code.')
    if (code.used || code.expiresAt < clock.now() || code.clientId !== auth.client.clientId) {
      code.used = true
      return oauthError(400, 'invalid_grant', 'Bad Request')
    }
    if (!params.redirectUri) return oauthError(400, 'invalid_request', 'Missing parameter: redirect_uri')
    if (params.redirectUri !== code.redirectUri) return oauthError(400, 'redirect_uri_mismatch', 'Bad Request')
    if (code.codeChallenge === undefined && params.codeVerifier !== undefined) {
      return oauthError(400, 'invalid_request', 'code_verifier or verifier is not needed.')
    }
    if (code.codeChallenge !== undefined) {
      if (params.codeVerifier === undefined) return oauthError(400, 'invalid_grant', 'Missing code verifier.')
      const derived =
        code.codeChallengeMethod === 'S256'
          ? createHash('sha256').update(params.codeVerifier).digest('base64url')
          : params.codeVerifier
      if (!safeEqual(derived, code.codeChallenge)) return oauthError(400, 'invalid_grant', 'Invalid code verifier.')
    }
    code.used = true
    // Google sends a refresh token on the first offline consent, or again only when prompt=consent forced the screen.
    const hadRefresh = [...grants.values()].some(
      (grant) => grant.clientId === code.clientId && grant.email === code.email && !grant.revoked && grant.refreshToken,
    )
    const withRefresh = code.accessType === 'offline' && (code.forceConsent || !hadRefresh)
    const grant = createGrant(code.clientId, code.email, code.scopes, withRefresh)
    return issueTokens(grant, code.accessType, code.nonce, true)
  }

  function refresh(params: {
    clientId: string | undefined
    clientSecret: string | undefined
    refreshToken: string | undefined
  }): TokenResponse | OAuthErrorResponse {
    const auth = authenticateClient(params.clientId, params.clientSecret)
    if (auth.error) return auth.error
    if (!params.refreshToken) return oauthError(400, 'invalid_request', 'Missing required parameter: refresh_token')
    const grantId = refreshTokens.get(params.refreshToken)
    const grant = grantId ? grants.get(grantId) : undefined
    if (!grant || grant.revoked) return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.')
    if (grant.refreshExpiresAt !== null && grant.refreshExpiresAt <= clock.now()) {
      return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.')
    }
    if (grant.clientId !== auth.client.clientId) return oauthError(401, 'unauthorized_client', 'Unauthorized')
    return issueTokens(grant, 'offline', undefined, false)
  }

  /** Revoking either token of a grant removes the app's access for that user, as at Google. */
  function revokeToken(token: string): boolean {
    const access = accessTokens.get(token)
    const grantId = access?.grantId ?? refreshTokens.get(token)
    const grant = grantId ? grants.get(grantId) : undefined
    if (!grant || grant.revoked) return false
    if (access && access.expiresAt <= clock.now()) return false
    for (const other of grants.values()) {
      if (other.clientId === grant.clientId && other.email === grant.email) other.revoked = true
    }
    return true
  }

  function revokeUser(email: string): number {
    let count = 0
    for (const grant of grants.values()) {
      if (grant.email === email && !grant.revoked) {
        grant.revoked = true
        count += 1
      }
    }
    return count
  }

  function resolveAccessToken(token: string): ResolvedAccessToken {
    const access = accessTokens.get(token)
    if (!access) return { ok: false, reason: 'unknown' }
    const grant = grants.get(access.grantId)
    if (!grant || grant.revoked) return { ok: false, reason: 'revoked' }
    if (access.expiresAt <= clock.now()) return { ok: false, reason: 'expired' }
    return { ok: true, token: access }
  }

  /** A grant without the consent page, for tests that only need a working token. */
  function issueDirect(input: { email: string; scopes: string[]; clientId?: string; offline?: boolean }): TokenResponse | OAuthErrorResponse {
    const clientId = input.clientId ?? clients.keys().next().value
    if (!clientId || !clients.has(clientId)) return oauthError(401, 'invalid_client', 'The OAuth client was not found.')
    if (!options.findAccount(input.email)) return oauthError(400, 'invalid_request', `Unknown account ${input.email}`)
    const grant = createGrant(clientId, input.email, input.scopes, input.offline ?? true)
    return issueTokens(grant, input.offline === false ? 'online' : 'offline', undefined, true)
  }

  function expireAccessTokens(email?: string): number {
    let count = 0
    const now = clock.now()
    for (const access of accessTokens.values()) {
      if ((email === undefined || access.email === email) && access.expiresAt > now) {
        access.expiresAt = now
        count += 1
      }
    }
    return count
  }

  function listGrants() {
    return [...grants.values()].map((grant) => ({
      id: grant.id,
      clientId: grant.clientId,
      email: grant.email,
      scopes: grant.scopes,
      hasRefreshToken: grant.refreshToken !== null,
      revoked: grant.revoked,
      createdAt: new Date(grant.createdAt).toISOString(),
    }))
  }

  function reset() {
    pending.clear()
    codes.clear()
    grants.clear()
    accessTokens.clear()
    refreshTokens.clear()
  }

  return {
    clients,
    registerClient,
    findClient: (clientId: string) => clients.get(clientId),
    isRedirectUriAllowed,
    addPending,
    findPending: (id: string) => pending.get(id),
    decide,
    exchangeCode,
    refresh,
    revokeToken,
    revokeUser,
    resolveAccessToken,
    issueDirect,
    expireAccessTokens,
    listGrants,
    reset,
    tokenInfo: (token: string) => {
      const resolved = resolveAccessToken(token)
      return resolved.ok ? resolved.token : undefined
    },
    get tokenLifetimeSeconds() {
      return tokenLifetimeSeconds
    },
    setTokenLifetimeSeconds: (seconds: number) => {
      tokenLifetimeSeconds = seconds
    },
  }
}

/** Sign-in scopes are granted with the account itself; Google's granular consent never unticks them. */
export function isIdentityScope(scope: string): boolean {
  return scope === SCOPES.openid || scope === SCOPES.email || scope === SCOPES.profile
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
