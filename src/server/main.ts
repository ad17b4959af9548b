import { serve } from '@hono/node-server'
import { createEmulator, type RunningEmulator } from '../../emulator/emulator'
import { startJobSender, startWorker, type Worker } from '../worker/worker'
import { buildDeps, createApp, DEFAULT_WEB_ROOT, pipelineDepsOf } from './bootstrap'
import { EnvError, parseEnv, type Env } from './env'
import { gmailCallbackUrl } from './features/connections/connections.service'
import { DEMO_OAUTH_CLIENT } from './features/google/google-config'
import { pushToken } from './features/pipeline/push.service'
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

  // Demo mode: no Google credentials, so Mailrow brings its own Google (the emulator, with a demo mailbox).
  let emulator: RunningEmulator | undefined
  if (env.DEMO_MODE && !env.GOOGLE_EMULATOR_URL) emulator = await startDemoEmulator(env)

  const deps = await buildDeps(env, { webRoot: DEFAULT_WEB_ROOT, emulatorUrl: emulator?.url })
  const { logger, database } = deps
  const app = createApp(deps)
  if (emulator) logger.info({ url: emulator.url }, 'demo mode: using the local Google emulator')

  let worker: Worker | undefined
  if (env.RUN_WORKER) {
    worker = await startWorker({
      database,
      logger,
      pipeline: pipelineDepsOf(deps),
      pollIntervalSeconds: env.POLL_INTERVAL_SECONDS,
      concurrency: env.WORKER_CONCURRENCY,
    })
  }
  deps.requestSync = worker?.requestSync ?? startJobSender(database).requestSync
  if (env.GMAIL_PUSH_TOPIC) {
    logger.info(`Gmail push: point the Pub/Sub push subscription at ${env.APP_URL}/api/gmail/push?token=${pushToken(deps.appSecret)}`)
  }

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
    await emulator?.close().catch(() => {})
    await worker?.stop().catch((error) => logger.error({ err: error }, 'worker did not stop cleanly'))
    await database.close().catch(() => {})
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
  // One bad request or job must not take the process down: log it and keep serving.
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'))
}

async function startDemoEmulator(env: Env): Promise<RunningEmulator> {
  const emulator = createEmulator({
    demo: true,
    clients: [
      {
        ...DEMO_OAUTH_CLIENT,
        name: 'Mailrow (demo)',
        redirectUris: [`${env.APP_URL}/api/auth/callback/google`, gmailCallbackUrl(env.APP_URL)],
      },
    ],
  })
  try {
    return await emulator.start(env.EMULATOR_PORT, '127.0.0.1')
  } catch (error) {
    emulator.stop()
    throw new Error(
      `could not start the Google emulator on port ${env.EMULATOR_PORT} (${error instanceof Error ? error.message : error}). Set EMULATOR_PORT to a free port.`,
      { cause: error },
    )
  }
}

main().catch((error) => {
  console.error('Mailrow failed to start:', error instanceof Error ? error.message : error)
  process.exit(1)
})
