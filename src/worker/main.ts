import { openDatabase } from '../server/db/client'
import { EnvError, parseEnv } from '../server/env'
import { loadDotEnv } from '../server/load-dotenv'
import { pipelineDepsOf } from '../server/bootstrap'
import { aiConfigFromEnv } from '../server/features/extraction/extraction.service'
import { resolveGoogleConfig } from '../server/features/google/google-config'
import { webhookDepsOf } from '../server/features/webhooks/webhooks.service'
import { createSecretBox } from '../server/lib/crypto'
import { createLogger } from '../server/lib/logger'
import { resolveAppSecret } from '../server/secret'
import { startWorker } from './worker'

/** `npm run worker`: job processing on its own, for scaling out next to the web servers. */
async function main() {
  loadDotEnv()
  const env = parseEnv(process.env)
  if (!env.DATABASE_URL) {
    console.error(
      'npm run worker needs DATABASE_URL: embedded PGlite belongs to one process, so `npm start` runs the worker itself.',
    )
    process.exit(1)
  }
  const logger = createLogger(env.LOG_LEVEL)
  const database = await openDatabase({ url: env.DATABASE_URL })
  await database.migrate()
  const hasGoogle = Boolean(env.GOOGLE_EMULATOR_URL || (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET))
  const box = createSecretBox(resolveAppSecret(env.APP_SECRET, env.DATA_DIR))
  const pipeline = pipelineDepsOf({
    env,
    google: hasGoogle ? resolveGoogleConfig(env, env.GOOGLE_EMULATOR_URL) : undefined,
    box,
    ai: aiConfigFromEnv(env),
  })
  const worker = await startWorker({
    database,
    logger,
    pipeline,
    pollIntervalSeconds: env.POLL_INTERVAL_SECONDS,
    concurrency: env.WORKER_CONCURRENCY,
    webhooks: webhookDepsOf({ box, env }),
  })
  const stop = async () => {
    await worker.stop()
    await database.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop())
  process.on('SIGTERM', () => void stop())
}

main().catch((error) => {
  console.error(error instanceof EnvError ? error.message : `Worker failed to start: ${String(error)}`)
  process.exit(1)
})
