import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { connectedAccounts, verifications } from '../../db/schema'
import { signUpAndIn } from '../../testing/test-app'
import { connectGmail, useGoogleTestApp } from '../../testing/test-emulator'
import { GMAIL_CONNECTION_SCOPES } from '../google/google-config'

const app = useGoogleTestApp()
let n = 0
const newUser = () => signUpAndIn(app.t, `conn${++n}@example.com`)

describe('Gmail connection', () => {
  it('round trip: consent, callback, encrypted tokens, status', async () => {
    const client = await newUser()
    expect((await client.get('/api/connections/gmail')).json.connection).toMatchObject({ connected: false })

    const { authUrl, location, status } = await connectGmail(app.google, client)
    const params = new URL(authUrl).searchParams
    expect(params.get('access_type')).toBe('offline')
    expect(params.get('prompt')).toBe('consent')
    expect(params.get('code_challenge_method')).toBe('S256')
    expect(params.get('state')).toBeTruthy()
    expect(params.get('redirect_uri')).toBe('http://localhost:3000/api/connections/gmail/callback')
    expect(params.get('scope')?.split(' ').sort()).toEqual([...GMAIL_CONNECTION_SCOPES].sort())

    expect(status).toBe(302)
    expect(location.pathname).toBe('/create-parser')
    expect(location.searchParams.get('step')).toBe('gmail-callback')
    expect(location.searchParams.get('error')).toBeNull()

    const connection = (await client.get('/api/connections/gmail')).json.connection
    expect(connection).toMatchObject({ connected: true, accountEmail: 'demo@mailrow.test', needsReconnect: false, missingScopes: [] })

    const [row] = await app.t.db.select().from(connectedAccounts).where(eq(connectedAccounts.accountEmail, 'demo@mailrow.test'))
    expect(row!.accessToken).toMatch(/^v1\./)
    expect(row!.refreshToken).toMatch(/^v1\./)
    expect(app.t.deps.box.decrypt(row!.accessToken)).toMatch(/^ya29\./)
  })

  it('Reconnect from Settings (or the dashboard) returns there; anything else is refused', async () => {
    const client = await newUser()
    const settings = await connectGmail(app.google, client, { returnTo: 'settings' })
    expect(settings.location.pathname).toBe('/settings')
    expect(settings.location.searchParams.get('step')).toBe('gmail-callback')
    expect((await connectGmail(app.google, client, { returnTo: 'dashboard' })).location.pathname).toBe('/dashboard')
    expect((await connectGmail(app.google, client, { returnTo: 'wizard' })).location.pathname).toBe('/create-parser')
    // No open redirect: only the named pages.
    expect((await client.post('/api/connections/gmail/start?returnTo=https://evil.test')).status).toBe(400)
    const denied = await connectGmail(app.google, client, { returnTo: 'settings', action: 'deny' })
    expect(denied.location.pathname).toBe('/settings')
    expect(denied.location.searchParams.get('error')).toBe('Gmail access was not granted.')
  })

  it('reconnecting updates the single record instead of adding one', async () => {
    const client = await newUser()
    await connectGmail(app.google, client)
    await connectGmail(app.google, client, { account: 'other@mailrow.test' })
    const status = (await client.get('/api/connections/gmail')).json.connection
    expect(status.accountEmail).toBe('other@mailrow.test')
    const rows = await app.t.db.select().from(connectedAccounts).where(eq(connectedAccounts.accountEmail, 'other@mailrow.test'))
    expect(rows).toHaveLength(1)
  })

  it('reports the scopes the user did not grant', async () => {
    const client = await newUser()
    const { location } = await connectGmail(app.google, client, {
      scopes: ['https://www.googleapis.com/auth/gmail.readonly', 'https://www.googleapis.com/auth/userinfo.email'],
    })
    expect(location.searchParams.get('missing')).toBe('https://www.googleapis.com/auth/spreadsheets')
    const status = (await client.get('/api/connections/gmail')).json.connection
    expect(status.missingScopes).toEqual(['https://www.googleapis.com/auth/spreadsheets'])
  })

  it('a denied consent comes back as an error and connects nothing', async () => {
    const client = await newUser()
    const { location } = await connectGmail(app.google, client, { action: 'deny' })
    expect(location.searchParams.get('error')).toBe('Gmail access was not granted.')
    expect((await client.get('/api/connections/gmail')).json.connection.connected).toBe(false)
  })

  it('rejects a callback whose state is unknown or belongs to another user', async () => {
    const alice = await newUser()
    const mallory = await newUser()
    const forged = await alice.get('/api/connections/gmail/callback?code=abc&state=not-a-real-state')
    expect(new URL(forged.headers.get('location')!, 'http://x').searchParams.get('error')).toMatch(/expired/)

    const start = await alice.post('/api/connections/gmail/start')
    const decision = await app.google.control('/oauth/consent', { body: { authUrl: start.json.authorizationUrl, account: 'demo@mailrow.test' } })
    const redirect = new URL(decision.json.location)
    const stolen = await mallory.get(redirect.pathname + redirect.search)
    expect(new URL(stolen.headers.get('location')!, 'http://x').searchParams.get('error')).toBe('This Gmail connection was started by another account.')
    expect((await mallory.get('/api/connections/gmail')).json.connection.connected).toBe(false)

    // Mallory's try did not use up Alice's state: her own return from Google still connects.
    const own = await alice.get(redirect.pathname + redirect.search)
    expect(new URL(own.headers.get('location')!, 'http://x').searchParams.get('error')).toBeNull()
    expect((await alice.get('/api/connections/gmail')).json.connection.connected).toBe(true)
  })

  it('answers state=%00 with 400, and undecodable bytes as an unknown state, never 500', async () => {
    const client = await newUser()
    expect((await client.get('/api/connections/gmail/callback?code=abc&state=%00')).status).toBe(400)
    const surrogate = await client.get('/api/connections/gmail/callback?code=abc&state=%ED%A0%80')
    expect(new URL(surrogate.headers.get('location')!, 'http://x').searchParams.get('error')).toMatch(/expired/)
  })

  it('fails the exchange when the PKCE verifier does not match the challenge', async () => {
    const client = await newUser()
    const start = await client.post('/api/connections/gmail/start')
    const state = new URL(start.json.authorizationUrl).searchParams.get('state')!
    const [pending] = await app.t.db.select().from(verifications).where(eq(verifications.identifier, `gmail-connect:${state}`))
    const value = JSON.parse(pending!.value)
    await app.t.db
      .update(verifications)
      .set({ value: JSON.stringify({ ...value, codeVerifier: 'x'.repeat(64) }) })
      .where(eq(verifications.id, pending!.id))
    const decision = await app.google.control('/oauth/consent', { body: { authUrl: start.json.authorizationUrl, account: 'demo@mailrow.test' } })
    const redirect = new URL(decision.json.location)
    const back = await client.get(redirect.pathname + redirect.search)
    expect(new URL(back.headers.get('location')!, 'http://x').searchParams.get('error')).toBeTruthy()
    expect((await client.get('/api/connections/gmail')).json.connection.connected).toBe(false)
  })

  it('a state can be used once', async () => {
    const client = await newUser()
    const { redirect } = await connectGmail(app.google, client)
    const replay = await client.get(redirect.pathname + redirect.search)
    expect(new URL(replay.headers.get('location')!, 'http://x').searchParams.get('error')).toMatch(/expired/)
  })

  it('disconnecting revokes the grant at Google and forgets the tokens', async () => {
    const client = await newUser()
    await connectGmail(app.google, client)
    expect((await client.send('DELETE', '/api/connections/gmail')).status).toBe(204)
    expect((await client.get('/api/connections/gmail')).json.connection.connected).toBe(false)
    const grants = (await app.google.control('/grants?email=demo@mailrow.test')).json.grants
    expect(grants.length).toBeGreaterThan(0)
    expect(grants.every((g: { revoked: boolean }) => g.revoked)).toBe(true)
  })

  it('the front end learns that Google sign-in goes through the emulator (demo mode)', async () => {
    expect((await app.t.client().get('/api/config')).json.config).toMatchObject({ googleSignIn: true, demoMode: true })
  })

  it('connecting and disconnecting Gmail appear in the security log', async () => {
    const client = await newUser()
    await connectGmail(app.google, client)
    expect((await client.send('DELETE', '/api/connections/gmail')).status).toBe(204)
    const types = (await client.get('/api/security-log')).json.events.map((e: { type: string }) => e.type)
    expect(types.slice(0, 2)).toEqual(['gmail_disconnected', 'gmail_connected'])
  })

  it('needs a session', async () => {
    expect((await app.t.client().post('/api/connections/gmail/start')).status).toBe(401)
  })
})
