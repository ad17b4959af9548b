import pg from 'pg'
import { openDatabase } from '../src/server/db/client'
import { parseEnv } from '../src/server/env'
import { pipelineDepsOf } from '../src/server/bootstrap'
import { resolveGoogleConfig } from '../src/server/features/google/google-config'
import { createSecretBox } from '../src/server/lib/crypto'
import { createLogger } from '../src/server/lib/logger'
import { startWorker } from '../src/worker/worker'

/**
 * `npm run worker` for the scale benchmark: the same worker, plus a count of every SQL statement
 * the process sends (the app's and pg-boss's) and its CPU time, reported to the parent on request.
 */
let statements = 0
const query = pg.Client.prototype.query
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements++
  return (query as (...a: unknown[]) => unknown).apply(this, args)
} as typeof query

const env = parseEnv(process.env)
const database = await openDatabase({ url: env.DATABASE_URL })
const pipeline = pipelineDepsOf({
  env,
  google: resolveGoogleConfig(env, env.GOOGLE_EMULATOR_URL),
  box: createSecretBox(env.APP_SECRET!),
  ai: null,
})
await startWorker({ database, logger: createLogger(env.LOG_LEVEL), pipeline, pollIntervalSeconds: env.POLL_INTERVAL_SECONDS, concurrency: env.WORKER_CONCURRENCY })
process.on('message', () => {
  const cpu = process.cpuUsage()
  process.send?.({ statements, cpuMs: (cpu.user + cpu.system) / 1000 })
})
process.send?.({ ready: true })
