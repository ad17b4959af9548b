import { CodeChallengeMethod } from 'google-auth-library'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { REDIRECT_URI, startTestEmulator, type TestEmulator } from '../testing/harness'
import { SCOPES } from './scopes'

const MAILROW_SCOPES = [SCOPES.gmailReadonly, SCOPES.spreadsheets, SCOPES.email, SCOPES.openid]

let t: TestEmulator

beforeAll(async () => {
  t = await startTestEmulator()
})
afterAll(() => t.close())
beforeEach(() => t.control('POST', '/reset'))

async function authorize(options: { scopes?: string[]; grant?: string[]; accessType?: 'online' | 'offline'; prompt?: string } = {}) {
  const client = t.oauthClient()
  const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync()
  const authUrl = client.generateAuthUrl({
    access_type: options.accessType ?? 'offline',
    prompt: options.prompt ?? 'consent',
    scope: options.scopes ?? MAILROW_SCOPES,
    state: 'state-123',
    code_challenge: codeChallenge,
    code_challenge_method: CodeChallengeMethod.S256,
  })
  const consent = await t.consent(authUrl, { account: 'demo@mailrow.test', scopes: options.grant })
  const location = new URL(consent.location!)
  return { client, codeVerifier, location, consent }
}

describe('authorization endpoint', () => {
  it('shows a consent page with the accounts and each requested scope', async () => {
    const client = t.oauthClient()
    const url = client.generateAuthUrl({ scope: MAILROW_SCOPES, state: '<x>', login_hint: 'other@mailrow.test' })
    const response = await fetch(url)
    const html = await response.text()
    expect(response.status).toBe(200)
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(html).toContain('value="demo@mailrow.test"')
    expect(html).toMatch(/value="other@mailrow.test" checked/)
    expect(html).toContain('View your email messages and settings')
    expect(html).toContain(`name="scope" value="${SCOPES.spreadsheets}"`)
    expect(html).toContain('See your primary Google Account email address')
  })

  it('allows and redirects with the code, the granted scopes and the state echoed', async () => {
    const { location } = await authorize()
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI)
    expect(location.searchParams.get('state')).toBe('state-123')
    expect(location.searchParams.get('code')).toMatch(/^4\/0A/)
    expect(location.searchParams.get('scope')!.split(' ').sort()).toEqual([...MAILROW_SCOPES].sort())
  })

  it('redirects a denial with error=access_denied and the state', async () => {
    const client = t.oauthClient()
    const url = client.generateAuthUrl({ scope: MAILROW_SCOPES, state: 's-9' })
    const { location } = await t.consent(url, { account: 'demo@mailrow.test', action: 'deny' })
    const redirect = new URL(location!)
    expect(redirect.searchParams.get('error')).toBe('access_denied')
    expect(redirect.searchParams.get('state')).toBe('s-9')
    expect(redirect.searchParams.get('code')).toBeNull()
  })

  it('keeps an existing query string on the redirect URI', async () => {
    const redirectUri = 'http://localhost:3000/create-parser?step=gmail-callback'
    const client = t.oauthClient({ redirectUri })
    const { location } = await t.consent(client.generateAuthUrl({ scope: MAILROW_SCOPES, state: 'abc' }), { account: 'demo@mailrow.test' })
    const redirect = new URL(location!)
    expect(redirect.pathname).toBe('/create-parser')
    expect(redirect.searchParams.get('step')).toBe('gmail-callback')
    expect(redirect.searchParams.get('state')).toBe('abc')
  })

  it('refuses unknown clients and unregistered redirect URIs without redirecting', async () => {
    const unknown = await fetch(t.oauthClient({ clientId: 'nobody' }).generateAuthUrl({ scope: MAILROW_SCOPES }), { redirect: 'manual' })
    expect(unknown.status).toBe(401)
    expect(await unknown.text()).toContain('invalid_client')
    const mismatch = await fetch(t.oauthClient({ redirectUri: 'https://evil.test/cb' }).generateAuthUrl({ scope: MAILROW_SCOPES }), { redirect: 'manual' })
    expect(mismatch.status).toBe(400)
    expect(await mismatch.text()).toContain('redirect_uri_mismatch')
  })

  it('rejects unknown scopes', async () => {
    const response = await fetch(t.oauthClient().generateAuthUrl({ scope: ['https://www.googleapis.com/auth/nope'] }))
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('invalid_scope')
  })
})

describe('token endpoint', () => {
  it('exchanges a code with its PKCE verifier for tokens and a verifiable id_token', async () => {
    const { client, codeVerifier, location } = await authorize()
    const { tokens } = await client.getToken({ code: location.searchParams.get('code')!, codeVerifier })
    expect(tokens.access_token).toMatch(/^ya29\./)
    expect(tokens.refresh_token).toMatch(/^1\/\/0/)
    expect(tokens.token_type).toBe('Bearer')
    expect(tokens.expiry_date).toBeGreaterThan(Date.now())
    expect(tokens.scope!.split(' ').sort()).toEqual([...MAILROW_SCOPES].sort())

    const ticket = await client.verifyIdToken({ idToken: tokens.id_token!, audience: client._clientId! })
    const payload = ticket.getPayload()!
    expect(payload.email).toBe('demo@mailrow.test')
    expect(payload.email_verified).toBe(true)
    expect(payload.sub).toMatch(/^\d{21}$/)
    expect(payload.iss).toBe('https://accounts.google.com')

    client.setCredentials(tokens)
    const userinfo = await client.request<{ email: string; sub: string }>({ url: `${t.url}/oauth2/v3/userinfo` })
    expect(userinfo.data).toMatchObject({ email: 'demo@mailrow.test', sub: payload.sub, email_verified: true })
    const info = await client.getTokenInfo(tokens.access_token!)
    expect(info.email).toBe('demo@mailrow.test')
    expect(info.scopes).toContain(SCOPES.gmailReadonly)
  })

  it('rejects a wrong or missing PKCE verifier with invalid_grant', async () => {
    const { client, location } = await authorize()
    const code = location.searchParams.get('code')!
    await expect(client.getToken({ code, codeVerifier: 'x'.repeat(43) })).rejects.toMatchObject({
      status: 400,
      response: { data: { error: 'invalid_grant', error_description: 'Invalid code verifier.' } },
    })
    const second = await authorize()
    await expect(second.client.getToken({ code: second.location.searchParams.get('code')! })).rejects.toMatchObject({
      response: { data: { error: 'invalid_grant', error_description: 'Missing code verifier.' } },
    })
  })

  it('accepts the plain PKCE method', async () => {
    const client = t.oauthClient()
    const verifier = 'plain-verifier-'.padEnd(50, 'p')
    const url = client.generateAuthUrl({ scope: MAILROW_SCOPES, code_challenge: verifier, code_challenge_method: CodeChallengeMethod.Plain })
    const { location } = await t.consent(url, { account: 'demo@mailrow.test' })
    const { tokens } = await client.getToken({ code: new URL(location!).searchParams.get('code')!, codeVerifier: verifier })
    expect(tokens.access_token).toBeTruthy()
  })

  it('refuses a used code, an unknown code and a wrong client secret', async () => {
    const { client, codeVerifier, location } = await authorize()
    const code = location.searchParams.get('code')!
    await client.getToken({ code, codeVerifier })
    await expect(client.getToken({ code, codeVerifier })).rejects.toMatchObject({ response: { data: { error: 'invalid_grant' } } })
    await expect(client.getToken({ code: '4/0Aunknown', codeVerifier })).rejects.toMatchObject({ response: { data: { error: 'invalid_grant' } } })
    const other = await authorize()
    const wrongSecret = t.oauthClient({ clientSecret: 'wrong' })
    await expect(
      wrongSecret.getToken({ code: other.location.searchParams.get('code')!, codeVerifier: other.codeVerifier }),
    ).rejects.toMatchObject({ status: 401, response: { data: { error: 'invalid_client' } } })
  })

  it('sends a refresh token only for offline access, and again only with prompt=consent', async () => {
    const online = await authorize({ accessType: 'online' })
    const onlineTokens = await online.client.getToken({ code: online.location.searchParams.get('code')!, codeVerifier: online.codeVerifier })
    expect(onlineTokens.tokens.refresh_token).toBeUndefined()

    const first = await authorize({ prompt: 'select_account' })
    expect((await first.client.getToken({ code: first.location.searchParams.get('code')!, codeVerifier: first.codeVerifier })).tokens.refresh_token).toBeTruthy()
    const again = await authorize({ prompt: 'select_account' })
    expect((await again.client.getToken({ code: again.location.searchParams.get('code')!, codeVerifier: again.codeVerifier })).tokens.refresh_token).toBeUndefined()
    const forced = await authorize({ prompt: 'consent' })
    expect((await forced.client.getToken({ code: forced.location.searchParams.get('code')!, codeVerifier: forced.codeVerifier })).tokens.refresh_token).toBeTruthy()
  })
})

describe('partial grants', () => {
  it('grants only the ticked scopes, and Sheets then answers 403 insufficientPermissions', async () => {
    const { client, codeVerifier, location } = await authorize({ grant: [SCOPES.gmailReadonly] })
    expect(location.searchParams.get('scope')!.split(' ')).not.toContain(SCOPES.spreadsheets)
    const { tokens } = await client.getToken({ code: location.searchParams.get('code')!, codeVerifier })
    expect(tokens.scope!.split(' ').sort()).toEqual([SCOPES.openid, SCOPES.email, SCOPES.gmailReadonly].sort())
    client.setCredentials(tokens)

    const profile = await t.gmailFor(client).users.getProfile({ userId: 'me' })
    expect(profile.data.emailAddress).toBe('demo@mailrow.test')
    const error = await t.sheetsFor(client).spreadsheets.create({ requestBody: {} }).catch((caught) => caught)
    expect(error.status).toBe(403)
    expect(error.response.data.error).toMatchObject({
      code: 403,
      status: 'PERMISSION_DENIED',
      message: 'Request had insufficient authentication scopes.',
      errors: [{ reason: 'insufficientPermissions', domain: 'global', message: 'Insufficient Permission' }],
    })
    expect(error.response.data.error.details[0].reason).toBe('ACCESS_TOKEN_SCOPE_INSUFFICIENT')
  })
})

describe('expiry, refresh and revocation', () => {
  it('answers an expired token with 401 and refreshes it through the refresh_token grant', async () => {
    const client = await t.authorizedClient('demo@mailrow.test')
    const gmail = t.gmailFor(client)
    await gmail.users.getProfile({ userId: 'me' })
    const oldToken = client.credentials.access_token!
    await t.control('POST', '/tokens/expire', { email: 'demo@mailrow.test' })

    const error = await gmail.users.getProfile({ userId: 'me' }).catch((caught) => caught)
    expect(error.status).toBe(401)
    expect(error.response.data.error).toMatchObject({ status: 'UNAUTHENTICATED', errors: [{ reason: 'authError', message: 'Invalid Credentials' }] })
    expect(error.response.headers.get('www-authenticate')).toContain('invalid_token')

    // A client that knows its token expired refreshes before the call.
    client.setCredentials({ ...client.credentials, expiry_date: Date.now() - 1000 })
    const profile = await gmail.users.getProfile({ userId: 'me' })
    expect(profile.data.emailAddress).toBe('demo@mailrow.test')
    expect(client.credentials.access_token).not.toBe(oldToken)
    const { body } = await t.control('GET', '/requests?pathPrefix=/token')
    expect(body.counts['POST /token']).toBe(1)
  })

  it('expires access tokens after the configured lifetime (emulator clock)', async () => {
    // Longer than the client's 5-minute eager-refresh window, so it sends the token it has.
    await t.control('POST', '/settings', { tokenLifetimeSeconds: 900 })
    const client = await t.authorizedClient('demo@mailrow.test')
    await t.gmailFor(client).users.getProfile({ userId: 'me' })
    await t.control('POST', '/clock', { advanceSeconds: 901 })
    const error = await t.gmailFor(client).users.getProfile({ userId: 'me' }).catch((caught) => caught)
    expect(error.status).toBe(401)
  })

  it('revoking a token ends the grant: refresh gives invalid_grant and calls give 401', async () => {
    const client = await t.authorizedClient('demo@mailrow.test')
    const refreshToken = client.credentials.refresh_token!
    await client.revokeToken(client.credentials.access_token!)
    const error = await t.gmailFor(client).users.getProfile({ userId: 'me' }).catch((caught) => caught)
    expect(error.status).toBe(401)
    const fresh = t.oauthClient()
    fresh.setCredentials({ refresh_token: refreshToken })
    await expect(fresh.refreshAccessToken()).rejects.toMatchObject({
      response: { data: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' } },
    })
  })

  it('POST /_control/users/{email}/revoke revokes every grant of that user only', async () => {
    const demo = await t.authorizedClient('demo@mailrow.test')
    const other = await t.authorizedClient('other@mailrow.test')
    const { body } = await t.control('POST', '/users/demo@mailrow.test/revoke')
    expect(body.revoked).toBe(1)
    await expect(demo.refreshAccessToken()).rejects.toMatchObject({ response: { data: { error: 'invalid_grant' } } })
    expect((await other.refreshAccessToken()).credentials.access_token).toBeTruthy()
  })

  it('answers unknown tokens at /revoke with invalid_token', async () => {
    const response = await fetch(`${t.url}/revoke?token=nope`, { method: 'POST' })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: 'invalid_token', error_description: 'Token expired or revoked' })
  })

  it('reports a missing Authorization header as Login Required', async () => {
    const response = await fetch(`${t.url}/gmail/v1/users/me/profile`)
    const body = await response.json()
    expect(response.status).toBe(401)
    expect(body.error.errors[0]).toMatchObject({ reason: 'required', message: 'Login Required.', location: 'Authorization' })
    expect(body.error.details[0].reason).toBe('CREDENTIALS_MISSING')
  })
})

describe('discovery', () => {
  it('publishes the OpenID configuration and signing keys', async () => {
    const config = await (await fetch(`${t.url}/.well-known/openid-configuration`)).json()
    expect(config).toMatchObject({
      issuer: 'https://accounts.google.com',
      authorization_endpoint: `${t.url}/o/oauth2/v2/auth`,
      token_endpoint: `${t.url}/token`,
      jwks_uri: `${t.url}/oauth2/v3/certs`,
      code_challenge_methods_supported: ['plain', 'S256'],
    })
    const jwks = await (await fetch(config.jwks_uri)).json()
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' })
  })
})
