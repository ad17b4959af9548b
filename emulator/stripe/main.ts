import { parseArgs } from 'node:util'
import { createStripeEmulator, DEFAULT_PRICES, DEFAULT_SECRET_KEY, DEFAULT_WEBHOOK_SECRET } from './stripe-emulator'

/** `npm run emulator:stripe`: the Stripe emulator as its own process. */

const { values: flags } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean' } } })

if (flags.help) {
  console.log(`Usage: npm run emulator:stripe -- [--port 4011] [--host 127.0.0.1]

Environment (all optional):
  STRIPE_EMULATOR_PORT             port (default 4011)
  STRIPE_EMULATOR_HOST             interface to bind (default 127.0.0.1)
  STRIPE_EMULATOR_WEBHOOK_URL      where events are POSTed (default http://127.0.0.1:3000/api/billing/webhook)
  STRIPE_EMULATOR_WEBHOOK_SECRET   the endpoint's signing secret (default ${DEFAULT_WEBHOOK_SECRET})
  STRIPE_EMULATOR_PUBLIC_URL       origin to use in the links it hands out

Point Mailrow at it with STRIPE_API_URL=http://127.0.0.1:4011 (and no STRIPE_SECRET_KEY, or any sk_test_ key
with STRIPE_WEBHOOK_SECRET=${DEFAULT_WEBHOOK_SECRET}, STRIPE_PRICE_STARTER=${DEFAULT_PRICES[0]!.id}, STRIPE_PRICE_PRO=${DEFAULT_PRICES[1]!.id}).`)
  process.exit(0)
}

const env = process.env
const port = Number(flags.port ?? env.STRIPE_EMULATOR_PORT ?? 4011)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`Stripe emulator: the port must be a whole number from 0 to 65535 (got "${flags.port ?? env.STRIPE_EMULATOR_PORT}")`)
  process.exit(1)
}
const host = flags.host ?? env.STRIPE_EMULATOR_HOST ?? '127.0.0.1'
const webhookUrl = env.STRIPE_EMULATOR_WEBHOOK_URL || 'http://127.0.0.1:3000/api/billing/webhook'
const webhookSecret = env.STRIPE_EMULATOR_WEBHOOK_SECRET || DEFAULT_WEBHOOK_SECRET

const emulator = createStripeEmulator({ webhooks: [{ url: webhookUrl, secret: webhookSecret }], publicUrl: env.STRIPE_EMULATOR_PUBLIC_URL || undefined })
const running = await emulator.start(port, host).catch((error: unknown) => {
  console.error(`Stripe emulator could not listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})

console.log(`
  Stripe emulator running at ${running.url}
  Secret key:    any sk_test_ key (e.g. ${DEFAULT_SECRET_KEY})
  Prices:        ${DEFAULT_PRICES.map((p) => `${p.id} ($${p.unitAmount / 100}/month)`).join(', ')}
  Webhooks:      ${webhookUrl} (secret ${webhookSecret})
  Test cards:    4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined, 4000 0000 0000 0341 fails on renewal
  Test clock:    POST ${running.url}/_control/clock/advance {"days": 31}
`)

const stop = async () => {
  await running.close()
  process.exit(0)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())
