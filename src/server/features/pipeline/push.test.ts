import { serve, type ServerType } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWorker, type Worker } from '@worker/worker'
import { pipelineDepsOf } from '../../bootstrap'
import { createLogger } from '../../lib/logger'
import { deliverOrders, eventually, sheetRows, userWithOrderParser } from '../../testing/pipeline-fixtures'
import { createTestApp, type TestApp } from '../../testing/test-app'
import { startTestEmulator, type TestEmulator } from '../../testing/test-emulator'
import { pushToken } from './push.service'

let google: TestEmulator
let t: TestApp
let server: ServerType
let worker: Worker
let pushUrl: string

beforeAll(async () => {
  google = await startTestEmulator()
  t = await createTestApp({ emulatorUrl: google.url, env: { GMAIL_PUSH_TOPIC: 'projects/mailrow-test/topics/gmail' } })
  // Polling effectively off: only a push can make the worker look at the mailbox.
  worker = await startWorker({ database: t.deps.database, logger: createLogger('silent'), pipeline: pipelineDepsOf(t.deps), pollIntervalSeconds: 3600 })
  t.deps.requestSync = worker.requestSync
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port))
  })
  pushUrl = `http://127.0.0.1:${port}/api/gmail/push?token=${pushToken(t.deps.appSecret)}`
  await google.control('/push', { body: { url: pushUrl } })
})
afterAll(async () => {
  await worker.stop()
  server.close()
  await t.close()
  await google.close()
})

describe('Gmail push', () => {
  it('a push notification from Gmail turns new mail into a row without waiting for a poll', async () => {
    const { spreadsheetId } = await userWithOrderParser(t, google, { email: 'push@example.com' })
    const [id] = await deliverOrders(google, 1, 1)
    const rows = await eventually(() => sheetRows(google, spreadsheetId), (r) => r.some((row) => row[6] === id), 20_000)
    expect(rows.filter((row) => row[6] === id)).toHaveLength(1)
    const deliveries = (await google.control('/push')).json.deliveries as unknown[]
    expect(deliveries.length).toBeGreaterThan(0)
  })

  it('refuses a push without the token, and accepts one about an unknown mailbox', async () => {
    const forged = await fetch(pushUrl.replace(/token=[^&]+/, 'token=forged'), { method: 'POST', body: '{}' })
    expect(forged.status).toBe(401)
    const data = Buffer.from(JSON.stringify({ emailAddress: 'stranger@elsewhere.test', historyId: 1 })).toString('base64')
    const unknown = await fetch(pushUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: { data } }) })
    expect(unknown.status).toBe(204)
    const garbage = await fetch(pushUrl, { method: 'POST', body: 'not json' })
    expect(garbage.status).toBe(204)
  })
})
