import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, requestFromSocket, type TestApp } from '../testing/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: '1' }, realClientIp: true, rateLimits: { signIn: { window: 60, max: 4 } } })
})
afterAll(async () => {
  await t.close()
})

/** A wrong-password sign-in arriving through a proxy on this host that appended `client`. */
function signInThroughProxy(clientWrote: string, client: string) {
  return requestFromSocket(t.app, '127.0.0.1', '/api/auth/sign-in/email', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', 'x-forwarded-for': `${clientWrote}, ${client}` },
    body: JSON.stringify({ email: 'victim@example.com', password: 'Wrong-Pass1' }),
  })
}

describe('sign-in rate limit behind a trusted proxy', () => {
  it('counts per real client, whatever the client writes into X-Forwarded-For', async () => {
    const statuses: number[] = []
    for (let i = 1; i <= 8; i++) statuses.push((await signInThroughProxy(`198.51.100.${i}`, '203.0.113.9')).status)
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401])
    expect(statuses.slice(4)).toEqual([429, 429, 429, 429])
    // Another real client is not held up by the first one's attempts.
    expect((await signInThroughProxy('198.51.100.1', '203.0.113.10')).status).toBe(401)
  })
})
