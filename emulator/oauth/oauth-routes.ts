import { randomBytes, verify } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { baseUrl } from '../http/base-url'
import type { EmulatorEnv } from '../http/context'
import { pageSecurityHeaders } from '../http/html'
import type { EmulatorState } from '../state'
import { renderConsentPage, renderOAuthErrorPage } from './consent-page'
import type { OAuthErrorResponse, PendingAuthorization, TokenResponse } from './oauth-store'
import { isKnownScope, normalizeScopes, SCOPES } from './scopes'
import { getSigningKey } from './signing-key'

type AuthorizationRequestResult =
  | { ok: true; request: Omit<PendingAuthorization, 'id' | 'createdAt'> }
  | { ok: false; status: number; error: string; detail: string }

/** Validates /o/oauth2/v2/auth parameters the way Google does before it shows anything. */
export function validateAuthorizationRequest(state: EmulatorState, params: URLSearchParams): AuthorizationRequestResult {
  const fail = (status: number, error: string, detail: string) => ({ ok: false as const, status, error, detail })
  const clientId = params.get('client_id')
  if (!clientId) return fail(400, 'invalid_request', 'Missing required parameter: client_id')
  const client = state.oauth.findClient(clientId)
  if (!client) return fail(401, 'invalid_client', 'The OAuth client was not found.')
  const redirectUri = params.get('redirect_uri')
  if (!redirectUri) return fail(400, 'invalid_request', 'Missing required parameter: redirect_uri')
  if (!state.oauth.isRedirectUriAllowed(client, redirectUri)) {
    return fail(
      400,
      'redirect_uri_mismatch',
      `You can't sign in to this app because it doesn't comply with Google's OAuth 2.0 policy. If you're the app developer, register the redirect URI in the Google Cloud Console. Request details: redirect_uri=${redirectUri}`,
    )
  }
  const responseType = params.get('response_type')
  if (!responseType) return fail(400, 'invalid_request', 'Required parameter is missing: response_type')
  if (responseType !== 'code') return fail(400, 'unsupported_response_type', `Unsupported response type: ${responseType}`)
  const scopeText = params.get('scope')
  if (!scopeText) return fail(400, 'invalid_request', 'Missing required parameter: scope')
  const scopes = normalizeScopes(scopeText)
  const unknown = scopes.filter((scope) => !isKnownScope(scope))
  if (unknown.length) return fail(400, 'invalid_scope', `Some requested scopes were invalid. {invalid=[${unknown.join(', ')}]}`)
  const codeChallenge = params.get('code_challenge') ?? undefined
  const method = params.get('code_challenge_method') ?? undefined
  if (method !== undefined && codeChallenge === undefined) {
    return fail(400, 'invalid_request', 'Missing code_challenge parameter when code_challenge_method is specified.')
  }
  if (method !== undefined && method !== 'S256' && method !== 'plain') {
    return fail(400, 'invalid_request', `Invalid code_challenge_method: ${method}`)
  }
  if (codeChallenge !== undefined && !/^[A-Za-z0-9._~-]{43,128}$/.test(codeChallenge)) {
    return fail(400, 'invalid_request', 'Invalid code_challenge: it must be 43 to 128 characters of [A-Z] [a-z] [0-9] - . _ ~')
  }
  const accessType = params.get('access_type') ?? 'online'
  if (accessType !== 'online' && accessType !== 'offline') return fail(400, 'invalid_request', `Invalid access_type: ${accessType}`)
  return {
    ok: true,
    request: {
      clientId,
      redirectUri,
      scopes,
      state: params.get('state') ?? undefined,
      codeChallenge,
      codeChallengeMethod: codeChallenge === undefined ? undefined : ((method ?? 'plain') as 'S256' | 'plain'),
      nonce: params.get('nonce') ?? undefined,
      accessType,
      prompt: params.get('prompt') ?? undefined,
      loginHint: params.get('login_hint')?.toLowerCase() ?? undefined,
    },
  }
}

function accountsOf(state: EmulatorState) {
  return state.mail.list().map((mailbox) => mailbox.account)
}

function html(c: Context, body: string, status = 200, nonce?: string) {
  return c.html(body, status as 200, pageSecurityHeaders(nonce))
}

function tokenJson(c: Context, result: TokenResponse | OAuthErrorResponse) {
  const headers = { 'Cache-Control': 'no-cache, no-store, max-age=0, must-revalidate', Pragma: 'no-cache' }
  if ('status' in result) return c.json(result.body, result.status as 400, headers)
  return c.json(result, 200, headers)
}

async function readForm(c: Context): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? ''
  if (type.includes('application/json')) {
    const body = (await c.req.json().catch(() => ({}))) as Record<string, unknown>
    return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, String(value)]))
  }
  const text = await c.req.text()
  return Object.fromEntries(new URLSearchParams(text))
}

function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+(.+)$/i.exec(header ?? '')
  if (!match) return undefined
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon === -1) return undefined
  return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) }
}

/** Verifies one of our own id_tokens, for tokeninfo?id_token=. */
function decodeOwnIdToken(token: string): Record<string, unknown> | undefined {
  const [header, payload, signature] = token.split('.')
  if (!header || !payload || !signature) return undefined
  const key = getSigningKey()
  const valid = verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), key.publicKeyPem, Buffer.from(signature, 'base64url'))
  if (!valid) return undefined
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
  } catch {
    return undefined
  }
}

export function oauthRoutes(state: EmulatorState) {
  const app = new Hono<EmulatorEnv>()

  const showAuthorization = (c: Context<EmulatorEnv>) => {
    const params = new URL(c.req.url).searchParams
    const result = validateAuthorizationRequest(state, params)
    if (!result.ok) return html(c, renderOAuthErrorPage(result), result.status)
    const pending = state.oauth.addPending(result.request)
    const nonce = randomBytes(16).toString('base64')
    const client = state.oauth.findClient(pending.clientId)!
    return html(c, renderConsentPage({ pending, client, accounts: accountsOf(state), selectedEmail: undefined, nonce }), 200, nonce)
  }
  app.get('/o/oauth2/v2/auth', showAuthorization)
  app.get('/o/oauth2/auth', showAuthorization)

  app.post('/o/oauth2/v2/auth/consent', async (c) => {
    const form = new URLSearchParams(await c.req.text())
    const pendingId = form.get('request') ?? ''
    const action = form.get('action') === 'allow' ? 'allow' : 'deny'
    const email = form.get('account') ?? undefined
    const decision = state.oauth.decide(pendingId, { action, email, scopes: form.getAll('scope') })
    if ('location' in decision) return c.redirect(decision.location, 302)
    const pending = state.oauth.findPending(pendingId)
    if (!pending) return html(c, renderOAuthErrorPage({ status: 400, error: 'invalid_request', detail: decision.error }), 400)
    const nonce = randomBytes(16).toString('base64')
    const client = state.oauth.findClient(pending.clientId)!
    const page = renderConsentPage({ pending, client, accounts: accountsOf(state), selectedEmail: email, error: decision.error, nonce })
    return html(c, page, 400, nonce)
  })

  const token = async (c: Context<EmulatorEnv>) => {
    const form = await readForm(c)
    const basic = basicCredentials(c.req.header('authorization'))
    const clientId = basic?.id ?? form.client_id
    const clientSecret = basic?.secret ?? form.client_secret
    switch (form.grant_type) {
      case 'authorization_code':
        return tokenJson(
          c,
          state.oauth.exchangeCode({
            clientId,
            clientSecret,
            code: form.code,
            redirectUri: form.redirect_uri,
            codeVerifier: form.code_verifier,
          }),
        )
      case 'refresh_token':
        return tokenJson(c, state.oauth.refresh({ clientId, clientSecret, refreshToken: form.refresh_token }))
      case undefined:
      case '':
        return tokenJson(c, { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type: ' } })
      default:
        return tokenJson(c, { status: 400, body: { error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${form.grant_type}` } })
    }
  }
  app.post('/token', token)
  app.post('/o/oauth2/token', token)
  app.post('/oauth2/v4/token', token)

  const revoke = async (c: Context<EmulatorEnv>) => {
    const form = c.req.method === 'POST' ? await readForm(c) : {}
    const value = c.req.query('token') ?? form.token
    if (!value) return c.json({ error: 'invalid_request', error_description: 'Missing required parameter: token' }, 400)
    if (!state.oauth.revokeToken(value)) return c.json({ error: 'invalid_token', error_description: 'Token expired or revoked' }, 400)
    return c.json({}, 200)
  }
  app.post('/revoke', revoke)
  app.get('/revoke', revoke)
  app.post('/o/oauth2/revoke', revoke)
  app.get('/o/oauth2/revoke', revoke)

  const tokenInfo = async (c: Context<EmulatorEnv>) => {
    const form = c.req.method === 'POST' ? await readForm(c) : {}
    const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
    const idToken = c.req.query('id_token') ?? form.id_token
    if (idToken) {
      const claims = decodeOwnIdToken(idToken)
      if (!claims || Number(claims.exp) * 1000 <= state.clock.now()) return c.json({ error: 'invalid_token', error_description: 'Invalid Value' }, 400)
      return c.json(Object.fromEntries(Object.entries({ ...claims, alg: 'RS256', kid: getSigningKey().kid, typ: 'JWT' }).map(([key, value]) => [key, String(value)])))
    }
    const accessToken = c.req.query('access_token') ?? form.access_token ?? bearer
    const info = accessToken ? state.oauth.tokenInfo(accessToken) : undefined
    if (!info) return c.json({ error: 'invalid_token', error_description: 'Invalid Value' }, 400)
    const account = state.mail.find(info.email)?.account
    const body: Record<string, string> = {
      azp: info.clientId,
      aud: info.clientId,
      sub: account?.sub ?? '',
      scope: info.scopes.join(' '),
      exp: String(Math.floor(info.expiresAt / 1000)),
      expires_in: String(Math.max(0, Math.floor((info.expiresAt - state.clock.now()) / 1000))),
    }
    if (info.scopes.includes(SCOPES.email)) {
      body.email = info.email
      body.email_verified = 'true'
    }
    body.access_type = info.accessType
    return c.json(body)
  }
  app.get('/tokeninfo', tokenInfo)
  app.post('/tokeninfo', tokenInfo)
  app.get('/oauth2/v3/tokeninfo', tokenInfo)
  app.post('/oauth2/v3/tokeninfo', tokenInfo)

  const userInfo = (shape: 'v3' | 'v2') => (c: Context<EmulatorEnv>) => {
    const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? c.req.query('access_token')
    const challenge = { 'WWW-Authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' }
    if (!bearer) return c.json({ error: 'invalid_request', error_description: 'Invalid Credentials' }, 401, challenge)
    const resolved = state.oauth.resolveAccessToken(bearer)
    if (!resolved.ok) return c.json({ error: 'invalid_request', error_description: 'Invalid Credentials' }, 401, challenge)
    const { scopes, email } = resolved.token
    if (![SCOPES.openid, SCOPES.email, SCOPES.profile].some((scope) => scopes.includes(scope))) {
      return c.json({ error: 'insufficient_scope', error_description: 'Insufficient Permission' }, 403)
    }
    const account = state.mail.find(email)?.account
    const [given, ...rest] = (account?.name ?? '').split(' ')
    const withProfile = scopes.includes(SCOPES.profile)
    const withEmail = scopes.includes(SCOPES.email)
    if (shape === 'v3') {
      const body: Record<string, unknown> = { sub: account?.sub }
      if (withProfile) Object.assign(body, { name: account?.name, given_name: given, family_name: rest.join(' ') || undefined })
      if (withEmail) Object.assign(body, { email, email_verified: true })
      return c.json(body)
    }
    const body: Record<string, unknown> = { id: account?.sub }
    if (withEmail) Object.assign(body, { email, verified_email: true })
    if (withProfile) Object.assign(body, { name: account?.name, given_name: given, family_name: rest.join(' ') || undefined })
    return c.json(body)
  }
  app.get('/oauth2/v3/userinfo', userInfo('v3'))
  app.get('/v1/userinfo', userInfo('v3'))
  app.get('/openidconnect/v1/userinfo', userInfo('v3'))
  app.get('/oauth2/v2/userinfo', userInfo('v2'))
  app.get('/userinfo/v2/me', userInfo('v2'))

  app.get('/oauth2/v3/certs', (c) => c.json({ keys: [getSigningKey().jwk] }, 200, { 'Cache-Control': 'public, max-age=3600' }))
  app.get('/oauth2/v1/certs', (c) => {
    const key = getSigningKey()
    return c.json({ [key.kid]: key.publicKeyPem }, 200, { 'Cache-Control': 'public, max-age=3600' })
  })

  app.get('/.well-known/openid-configuration', (c) => {
    const base = baseUrl(c, state)
    return c.json({
      issuer: state.config.issuer,
      authorization_endpoint: `${base}/o/oauth2/v2/auth`,
      token_endpoint: `${base}/token`,
      userinfo_endpoint: `${base}/v1/userinfo`,
      revocation_endpoint: `${base}/revoke`,
      jwks_uri: `${base}/oauth2/v3/certs`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: ['openid', 'email', 'profile'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      claims_supported: ['aud', 'email', 'email_verified', 'exp', 'family_name', 'given_name', 'iat', 'iss', 'name', 'sub'],
      code_challenge_methods_supported: ['plain', 'S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    })
  })

  return app
}
