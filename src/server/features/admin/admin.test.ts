import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../db/client'
import { users } from '../../db/schema'
import { createTestApp, signUpAndIn, TEST_APP_SECRET, type TestApp } from '../../testing/test-app'
import { adminToken } from './admin.service'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

describe('POST /api/admin/plan', () => {
  it("sets a user's plan with the operator token, and refuses anyone else", async () => {
    const client = await signUpAndIn(t, 'upgrade@example.com')
    const body = { email: 'Upgrade@Example.com', plan: 'pro' }
    expect((await client.post('/api/admin/plan', body)).status).toBe(401)
    expect((await client.post('/api/admin/plan', body, { authorization: 'Bearer forged' })).status).toBe(401)
    const ok = await client.post('/api/admin/plan', body, { authorization: `Bearer ${adminToken(TEST_APP_SECRET)}` })
    expect(ok.status).toBe(200)
    expect(ok.json.user).toEqual({ email: 'upgrade@example.com', plan: 'pro' })
    expect((await client.get('/api/account')).json.account.plan).toBe('pro')
    const missing = await client.post('/api/admin/plan', { email: 'nobody@example.com', plan: 'pro' }, { authorization: `Bearer ${adminToken(TEST_APP_SECRET)}` })
    expect(missing.status).toBe(404)
  })
})

describe('npm run mailrow -- set-plan', () => {
  // Two cold CLI processes, each compiling the app with tsx and opening PGlite: on a loaded
  // machine that alone has taken over 30 s, so the test gets room (it asserts no time).
  it('updates the embedded database directly when no server is running', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mailrow-cli-'))
    const database = await openDatabase({ dataDir })
    await database.migrate()
    await database.db.insert(users).values({ id: 'u1', name: 'U', email: 'cli@example.com' })
    await database.close()

    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
        env: { ...process.env, DATA_DIR: dataDir, PORT: '1', APP_URL: 'http://127.0.0.1:1', DATABASE_URL: '' },
        encoding: 'utf8',
      })
    const result = run('set-plan', 'cli@example.com', 'starter')
    expect(result.stdout.trim()).toBe('cli@example.com is now on the starter plan')
    expect(result.status).toBe(0)
    expect(run('set-plan', 'cli@example.com', 'platinum').status).toBe(2)

    const reopened = await openDatabase({ dataDir })
    const [user] = await reopened.db.select().from(users).where(eq(users.email, 'cli@example.com'))
    await reopened.close()
    expect(user!.plan).toBe('starter')
  })
})
