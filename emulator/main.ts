import { parseArgs } from 'node:util'
import { createEmulator, DEFAULT_CLIENT, type EmulatorOptions } from './emulator'
import type { OAuthClient } from './oauth/oauth-store'

/** `npm run emulator`: the Google emulator as its own process, demo mailbox on by default. */

const { values: flags } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'no-demo': { type: 'boolean' },
    help: { type: 'boolean' },
  },
})

if (flags.help) {
  console.log(`Usage: npm run emulator -- [--port 4010] [--host 127.0.0.1] [--no-demo]

Environment (all optional):
  EMULATOR_PORT / PORT                      port (default 4010)
  EMULATOR_HOST                             interface to bind (default 127.0.0.1)
  EMULATOR_DEMO                             "false" to start with empty mailboxes (default true)
  EMULATOR_DEMO_INTERVAL_SECONDS            seconds between new demo emails, 0 = none (default 30)
  EMULATOR_ACCOUNTS                         comma-separated mailbox addresses (default demo@mailrow.test,other@mailrow.test)
  EMULATOR_TOKEN_LIFETIME_SECONDS           access-token lifetime (default 3600)
  EMULATOR_REFRESH_TOKEN_LIFETIME_SECONDS   refresh-token lifetime (default: never expires)
  EMULATOR_PUSH_URL                         where users.watch notifications are POSTed
  EMULATOR_CLIENT_ID, EMULATOR_CLIENT_SECRET, EMULATOR_REDIRECT_URIS
                                            register another OAuth client (redirect URIs comma-separated)
  EMULATOR_PUBLIC_URL                       origin to use in links it hands out`)
  process.exit(0)
}

const env = process.env
const problems: string[] = []

function integer(name: string, value: string | undefined, fallback: number | undefined, min = 0): number | undefined {
  if (value === undefined || value === '') return fallback
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < min) {
    problems.push(`${name} must be a whole number ≥ ${min} (got "${value}")`)
    return fallback
  }
  return parsed
}

const port = integer('port', flags.port ?? env.EMULATOR_PORT ?? env.PORT, 4010)!
const demoIntervalSeconds = integer('EMULATOR_DEMO_INTERVAL_SECONDS', env.EMULATOR_DEMO_INTERVAL_SECONDS, 30)!
const tokenLifetimeSeconds = integer('EMULATOR_TOKEN_LIFETIME_SECONDS', env.EMULATOR_TOKEN_LIFETIME_SECONDS, 3600, 1)
const refreshTokenLifetimeSeconds = integer('EMULATOR_REFRESH_TOKEN_LIFETIME_SECONDS', env.EMULATOR_REFRESH_TOKEN_LIFETIME_SECONDS, undefined, 1)

const clients: OAuthClient[] = [DEFAULT_CLIENT]
if (env.EMULATOR_CLIENT_ID || env.EMULATOR_CLIENT_SECRET) {
  if (!env.EMULATOR_CLIENT_ID || !env.EMULATOR_CLIENT_SECRET || !env.EMULATOR_REDIRECT_URIS) {
    problems.push('EMULATOR_CLIENT_ID, EMULATOR_CLIENT_SECRET and EMULATOR_REDIRECT_URIS go together')
  } else {
    clients.push({
      clientId: env.EMULATOR_CLIENT_ID,
      clientSecret: env.EMULATOR_CLIENT_SECRET,
      redirectUris: env.EMULATOR_REDIRECT_URIS.split(',').map((uri) => uri.trim()).filter(Boolean),
    })
  }
}

const accounts = env.EMULATOR_ACCOUNTS?.split(',').map((email) => email.trim()).filter(Boolean)
if (accounts?.some((email) => !/^[^@\s]+@[^@\s]+$/.test(email))) problems.push('EMULATOR_ACCOUNTS must be comma-separated email addresses')

if (problems.length) {
  console.error(`Google emulator: bad configuration\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
  process.exit(1)
}

const options: EmulatorOptions = {
  accounts,
  clients,
  demo: !flags['no-demo'] && !['false', '0', 'no'].includes((env.EMULATOR_DEMO ?? '').toLowerCase()),
  demoIntervalMs: demoIntervalSeconds * 1000,
  tokenLifetimeSeconds,
  refreshTokenLifetimeSeconds: refreshTokenLifetimeSeconds ?? null,
  pushUrl: env.EMULATOR_PUSH_URL || undefined,
  publicUrl: env.EMULATOR_PUBLIC_URL || undefined,
}

const host = flags.host ?? env.EMULATOR_HOST ?? '127.0.0.1'
const emulator = createEmulator(options)
const running = await emulator.start(port, host).catch((error: unknown) => {
  console.error(`Google emulator could not listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
const url = host === '127.0.0.1' ? `http://localhost:${running.port}` : running.url

console.log(`
  Google emulator running at ${url}
  Mailboxes:     ${emulator.state.mail.list().map((mailbox) => `${mailbox.account.email} (${mailbox.messages.size})`).join(', ')}
  OAuth client:  ${DEFAULT_CLIENT.clientId} / ${DEFAULT_CLIENT.clientSecret}
  Demo feed:     ${options.demo && demoIntervalSeconds > 0 ? `a new email every ${demoIntervalSeconds} s` : 'off'}
  Viewer:        ${url}/   Control API: ${url}/_control/health
`)

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  await running.close()
  process.exit(0)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())
