import { Writable } from 'node:stream'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, signUpAndIn, TEST_APP_URL, type HttpClient, type TestApp } from '../testing/test-app'

let t: TestApp
let user: HttpClient
beforeAll(async () => {
  t = await createTestApp()
  user = await signUpAndIn(t, 'guards@example.com')
})
afterAll(async () => {
  await t.close()
})

describe('bad input answers 4xx', () => {
  const deep = `${'['.repeat(50_000)}"x"${']'.repeat(50_000)}`
  it.each([
    ['null', '{"name":null}'],
    ['a NUL byte', '{"name":"Ann\\u0000"}'],
    ['a lone surrogate', '{"name":"\\ud800"}'],
    ['50,000 levels deep', `{"name":${deep}}`],
    ['300 kB long', JSON.stringify({ name: 'n'.repeat(300_000) })],
    ['101 characters', JSON.stringify({ name: 'n'.repeat(101) })],
  ])('update-user refuses a name that is %s', async (_label, body) => {
    const response = await user.send('POST', '/api/auth/update-user', body, { 'content-type': 'application/json' })
    expect(response.status).toBe(400)
    expect((await user.get('/api/account')).json.account.name).toBe('Test')
  })

  it('update-user accepts an ordinary name, and the session answer stays small', async () => {
    expect((await user.post('/api/auth/update-user', { name: 'Ann Example' })).status).toBe(200)
    const session = await user.get('/api/auth/get-session')
    expect(session.json.user.name).toBe('Ann Example')
    expect(session.text.length).toBeLessThan(4096)
  })

  it('refuses a lone surrogate as a Gmail message id before anything asks Google', async () => {
    const id = '00000000-0000-4000-8000-000000000000'
    const response = await user.send('POST', `/api/parsers/${id}/test`, '{"emailId":"\\udc00"}', { 'content-type': 'application/json' })
    expect(response.status).toBe(400)
  })
})

describe('cross-site requests', () => {
  it('refuses a cross-origin JSON POST that carries the session cookie', async () => {
    const response = await user.post('/api/spreadsheets', { name: 'x', columns: ['a'] }, { origin: 'https://evil.example' })
    expect(response.status).toBe(403)
    expect(response.json.error.message).toBe('Cross-site request refused')
  })

  it('refuses a cross-site form post', async () => {
    const response = await user.send('POST', '/api/connections/gmail/start', 'a=b', {
      origin: 'https://evil.example',
      'content-type': 'application/x-www-form-urlencoded',
    })
    expect(response.status).toBe(403)
  })

  it('refuses a request without Origin that the browser marks cross-site', async () => {
    const cookie = [...user.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const response = await t.app.request('/api/connections/gmail/start', { method: 'POST', headers: { cookie, 'sec-fetch-site': 'cross-site' } })
    expect(response.status).toBe(403)
  })

  it('lets the app itself through', async () => {
    expect((await user.post('/api/client-log/not-found', { path: '/nope' }, { origin: TEST_APP_URL })).status).toBe(204)
  })
})

describe('caching', () => {
  it('marks signed-in API answers no-store', async () => {
    expect((await user.get('/api/account')).headers.get('cache-control')).toBe('no-store')
    expect((await user.get('/api/auth/get-session')).headers.get('cache-control')).toMatch(/no-store/)
    expect((await t.client().get('/api/account')).headers.get('cache-control')).toBe('no-store')
  })
})

describe('reports and contacts', () => {
  it('logs Content-Security-Policy reports sent to the report-uri', async () => {
    const page = await t.app.request('/api/health')
    expect(page.headers.get('content-security-policy')).toContain('report-uri /api/csp-report')
    const lines: string[] = []
    const original = t.deps.logger
    t.deps.logger = pino({ level: 'warn' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }))
    try {
      const report = { 'csp-report': { 'document-uri': `${TEST_APP_URL}/dashboard`, 'violated-directive': 'script-src' } }
      const response = await t.app.request('/api/csp-report', {
        method: 'POST',
        headers: { 'content-type': 'application/csp-report' },
        body: JSON.stringify(report),
      })
      expect(response.status).toBe(204)
    } finally {
      t.deps.logger = original
    }
    expect(lines.join('')).toMatch(/content security policy violation.*|script-src/)
    expect(lines.join('')).toContain('script-src')
  })

  it('publishes /.well-known/security.txt', async () => {
    const response = await t.app.request('/.well-known/security.txt')
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).toMatch(/^Contact: mailto:security@localhost$/m)
    const expires = new Date(text.match(/^Expires: (.+)$/m)![1]!)
    expect(expires.getTime()).toBeGreaterThan(Date.now())
  })
})
