import { serve } from '@hono/node-server'
import { createEmulator, type RunningEmulator } from '../../emulator/emulator'
import { createStripeEmulator, type RunningStripeEmulator } from '../../emulator/stripe/stripe-emulator'
import { startJobSender, startWorker, type Worker } from '../worker/worker'
import { buildDeps, createApp, DEFAULT_WEB_ROOT, pipelineDepsOf } from './bootstrap'
import { EnvError, parseEnv, type Env } from './env'
import { DEMO_STRIPE } from './features/billing/billing.client'
import { BILLING_WEBHOOK_PATH } from './features/billing/billing.routes'
import { gmailCallbackUrl } from './features/connections/connections.service'
import { webhookDepsOf } from './features/webhooks/webhooks.service'
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

  // Demo mode without a Stripe key: billing runs against the local Stripe emulator.
  let stripeEmulator: RunningStripeEmulator | undefined
  if (env.DEMO_MODE && !env.STRIPE_SECRET_KEY && !env.STRIPE_API_URL) stripeEmulator = await startDemoStripeEmulator(env)

  const deps = await buildDeps(env, { webRoot: DEFAULT_WEB_ROOT, emulatorUrl: emulator?.url, stripeEmulatorUrl: stripeEmulator?.url })
  const { logger, database } = deps
  const app = createApp(deps)
  if (emulator) logger.info({ url: emulator.url }, 'demo mode: using the local Google emulator')
  if (stripeEmulator) logger.info({ url: stripeEmulator.url }, 'demo mode: billing uses the local Stripe emulator (test card 4242 4242 4242 4242)')
  else if (!deps.billing) logger.info('billing is off (no STRIPE_SECRET_KEY): plans are set with `npm run mailrow -- set-plan EMAIL PLAN`')

  let worker: Worker | undefined
  if (env.RUN_WORKER) {
    worker = await startWorker({
      database,
      logger,
      pipeline: pipelineDepsOf(deps),
      webhooks: webhookDepsOf(deps),
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
    await stripeEmulator?.close().catch(() => {})
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

async function startDemoStripeEmulator(env: Env): Promise<RunningStripeEmulator> {
  const emulator = createStripeEmulator({
    secretKeys: [DEMO_STRIPE.secretKey],
    prices: [
      { id: DEMO_STRIPE.prices.starter, unitAmount: 2900, nickname: 'Starter' },
      { id: DEMO_STRIPE.prices.pro, unitAmount: 7900, nickname: 'Pro' },
    ],
    // Delivered to this process directly, whatever public address APP_URL names.
    webhooks: [{ url: `http://127.0.0.1:${env.PORT}${BILLING_WEBHOOK_PATH}`, secret: DEMO_STRIPE.webhookSecret }],
  })
  try {
    return await emulator.start(env.STRIPE_EMULATOR_PORT, '127.0.0.1')
  } catch (error) {
    emulator.stop()
    throw new Error(
      `could not start the Stripe emulator on port ${env.STRIPE_EMULATOR_PORT} (${error instanceof Error ? error.message : error}). Set STRIPE_EMULATOR_PORT to a free port.`,
      { cause: error },
    )
  }
}

main().catch((error) => {
  console.error('Mailrow failed to start:', error instanceof Error ? error.message : error)
  process.exit(1)
})
