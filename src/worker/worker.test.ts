import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { Database } from '../server/db/client'
import { createLogger } from '../server/lib/logger'
import { openTestDatabase } from '../server/testing/test-database'
import { defineJob } from './job'
import { startWorker, type Worker } from './worker'

let database: Database
let worker: Worker
const seen: string[] = []
let resolveSeen: () => void
const done = new Promise<void>((resolve) => {
  resolveSeen = resolve
})

const echoJob = defineJob({
  name: 'test.echo',
  schema: z.object({ word: z.string() }),
  async handler(_context, payload) {
    seen.push(payload.word)
    if (seen.length === 2) resolveSeen()
  },
})

beforeAll(async () => {
  database = await openTestDatabase()
  worker = await startWorker({ database, logger: createLogger('silent'), jobs: [echoJob] })
})
afterAll(async () => {
  await worker.stop()
  await database.close()
})

describe('worker', () => {
  it('runs queued jobs through pg-boss on the app database, skipping malformed payloads', async () => {
    await worker.boss.send('test.echo', { word: 'hello' })
    await worker.boss.send('test.echo', { nope: true })
    await worker.boss.send('test.echo', { word: 'world' })
    await done
    expect(seen.sort()).toEqual(['hello', 'world'])
  })
})
