import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './testing/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

describe('GET /api/health', () => {
  it('reports ok when the database answers', async () => {
    const response = await t.app.request('/api/health')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: 'ok', db: 'ok' })
  })

  it('answers 503 when the database does not', async () => {
    const broken = await createTestApp()
    await broken.close()
    const response = await broken.app.request('/api/health')
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ status: 'error' })
  })
})

describe('bad input gets a JSON error, never a stack trace', () => {
  it('malformed JSON → 400', async () => {
    const response = await t.client().post('/api/client-log/not-found', '{"path": ')
    expect(response.status).toBe(400)
    expect(response.json).toEqual({ error: { code: 'VALIDATION', message: 'Malformed JSON in request body' } })
  })

  it('a body that fails validation → 400 with the first message', async () => {
    const response = await t.client().post('/api/client-log/not-found', { path: 42 })
    expect(response.status).toBe(400)
    expect(response.json.error.code).toBe('VALIDATION')
    expect(response.json.error.message).toMatch(/^path: /)
  })

  it('a body over 1 MB → 413, on the API and on auth routes', async () => {
    const big = JSON.stringify({ path: 'x'.repeat(1024 * 1024 + 10) })
    for (const path of ['/api/client-log/not-found', '/api/auth/sign-in/email']) {
      const response = await t.client().post(path, big)
      expect(response.status).toBe(413)
      expect(response.json.error.code).toBe('PAYLOAD_TOO_LARGE')
    }
  })

  it('an unknown API route → 404', async () => {
    const response = await t.client().get('/api/no-such-thing')
    expect(response.status).toBe(404)
    expect(response.json).toEqual({ error: { code: 'NOT_FOUND', message: 'No API route GET /api/no-such-thing' } })
  })

  it('an unknown auth route → 404 in the same shape', async () => {
    const response = await t.client().get('/api/auth/no-such-endpoint')
    expect(response.status).toBe(404)
    expect(response.json.error.code).toBe('NOT_FOUND')
  })

  it('a wrong method → 405 with Allow', async () => {
    const response = await t.client().send('DELETE', '/api/health')
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET')
    expect(response.json.error.code).toBe('METHOD_NOT_ALLOWED')
  })

  it('a protected route without a session → 401', async () => {
    for (const path of ['/api/account', '/api/dashboard']) {
      const response = await t.client().get(path)
      expect(response.status).toBe(401)
      expect(response.json.error.code).toBe('UNAUTHORIZED')
    }
  })
})

describe('security headers', () => {
  it('sends a content security policy that forbids inline script', async () => {
    const response = await t.app.request('/api/health')
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })
})

describe('GET /api/config', () => {
  it('tells the front end what sign-in options exist', async () => {
    const response = await t.client().get('/api/config')
    expect(response.json.config).toEqual({ googleSignIn: false, demoMode: false, devOutbox: true, canSendMail: true })
  })
})

describe('development outbox', () => {
  it('answers only callers on this machine', async () => {
    const remote = await t.client().get('/api/dev/outbox')
    expect(remote.status).toBe(404)
    const local = await t.client().get('/api/dev/outbox', { 'x-test-client-ip': '127.0.0.1' })
    expect(local.status).toBe(200)
    expect(Array.isArray(local.json.messages)).toBe(true)
  })
})
