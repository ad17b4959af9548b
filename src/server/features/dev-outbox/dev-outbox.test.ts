import { Writable } from 'node:stream'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { buildDeps } from '../../bootstrap'
import { devOutbox } from '../../db/schema'
import { parseEnv } from '../../env'
import { createTestApp, requestFromSocket, type TestApp } from '../../testing/test-app'
import { openTestDatabase } from '../../testing/test-database'

const RESET_LINK = 'http://localhost:3000/api/auth/reset-password/victim-token'
let t: TestApp | undefined

async function appWithOutbox(env: Record<string, string> = {}) {
  t = await createTestApp({ env, realClientIp: true })
  await t.db.insert(devOutbox).values({ to: 'victim@example.com', subject: 'Reset your Mailrow password', text: RESET_LINK })
  return t
}

function readOutbox(app: TestApp, socketIp: string, headers: Record<string, string> = {}) {
  return requestFromSocket(app.app, socketIp, '/api/dev/outbox', { headers })
}

afterEach(async () => {
  await t?.close()
  t = undefined
})

describe('development outbox', () => {
  it('shows kept mail to a caller on this machine in a development install', async () => {
    const app = await appWithOutbox()
    const response = await readOutbox(app, '127.0.0.1')
    expect(response.status).toBe(200)
    expect(JSON.stringify(await response.json())).toContain(RESET_LINK)
  })

  it('refuses a remote client that writes 127.0.0.1 first in X-Forwarded-For behind a trusted proxy', async () => {
    const app = await appWithOutbox({ TRUST_PROXY: 'true' })
    const response = await readOutbox(app, '127.0.0.1', { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' })
    expect(response.status).toBe(404)
    expect(await response.text()).not.toContain('victim-token')
  })

  it('refuses callers behind a same-host proxy that TRUST_PROXY does not mention', async () => {
    const app = await appWithOutbox()
    const response = await readOutbox(app, '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })
    expect(response.status).toBe(404)
  })

  it('answers a local caller who comes through the trusted proxy', async () => {
    const app = await appWithOutbox({ TRUST_PROXY: '1' })
    expect((await readOutbox(app, '127.0.0.1', { 'x-forwarded-for': '203.0.113.9, 127.0.0.1' })).status).toBe(200)
  })

  it.each([
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
    ['an https APP_URL', { APP_URL: 'https://mail.example.com' }],
  ])('does not exist with %s, even for a loopback caller', async (_label, env) => {
    const app = await appWithOutbox(env)
    expect((await readOutbox(app, '127.0.0.1')).status).toBe(404)
    const config = await app.app.request('/api/config')
    expect(await config.json()).toMatchObject({ config: { devOutbox: false, canSendMail: false } })
  })
})

describe('mail delivery', () => {
  it('warns at start-up that mail cannot be sent with an https APP_URL and no SMTP', async () => {
    const lines: string[] = []
    const logger = pino({ level: 'warn' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }))
    const database = await openTestDatabase()
    try {
      const env = parseEnv({ APP_URL: 'https://mail.example.com', APP_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp', LOG_LEVEL: 'silent' })
      const deps = await buildDeps(env, { database, logger })
      expect(deps.mailer.kind).toBe('none')
      expect(lines.join('\n')).toMatch(/SMTP_URL is not set: Mailrow cannot send mail/)
      await deps.mailer.send({ to: 'a@example.com', subject: 'Reset', text: 'secret link' })
      expect(lines.join('\n')).not.toContain('secret link')
    } finally {
      await database.close()
    }
  })
})
