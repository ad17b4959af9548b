import { serve } from '@hono/node-server'
import { startWorker, type Worker } from '../worker/worker'
import { buildDeps, createApp, DEFAULT_WEB_ROOT } from './bootstrap'
import { EnvError, parseEnv, type Env } from './env'
import { loadDotEnv } from './load-dotenv'

async function main() {
  let env: Env
  try {
    loadDotEnv()
    env = parseEnv(process.env)
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }

  const deps = await buildDeps(env, { webRoot: DEFAULT_WEB_ROOT })
  const { logger, database } = deps
  const app = createApp(deps)

  // Demo mode (no Google credentials) is where the local Google emulator starts, once it exists.
  if (env.DEMO_MODE) logger.info('demo mode: no GOOGLE_CLIENT_ID set, Google sign-in is off')

  let worker: Worker | undefined
  if (env.RUN_WORKER) worker = await startWorker({ database, logger })

  const server = serve({ fetch: app.fetch, port: env.PORT }, (info) => {
    const url = env.APP_URL.includes(`:${info.port}`) ? env.APP_URL : `http://localhost:${info.port}`
    logger.info({ port: info.port, database: database.kind }, 'Mailrow is running')
    console.log(`\n  Mailrow is running at ${url}\n`)
  })

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down')
    server.close()
    await worker?.stop().catch((error) => logger.error({ err: error }, 'worker did not stop cleanly'))
    await database.close().catch(() => {})
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
  // One bad request or job must not take the process down: log it and keep serving.
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'))
}

main().catch((error) => {
  console.error('Mailrow failed to start:', error instanceof Error ? error.message : error)
  process.exit(1)
})
