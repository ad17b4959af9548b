import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { adminToken } from '../../src/server/features/admin/admin.service'
import { E2E_APP_SECRET } from './operator'

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  export interface ProvidedContext {
    baseUrl: string
    emulatorUrl: string
    stripeEmulatorUrl: string
    /** Bearer token for /api/admin/plan (what `npm run mailrow -- set-plan` sends). */
    adminToken: string
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Mailrow exited early:\n${output()}`)
    try {
      const response = await fetch(`${url}/api/health`)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`Mailrow did not become healthy:\n${output()}`)
}

/** Starts the built app as `npm start` would, on a free port with an empty data directory. */
export default async function setup(project: TestProject) {
  const port = await freePort()
  const emulatorPort = await freePort()
  const stripeEmulatorPort = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'mailrow-e2e-'))
  const baseUrl = `http://localhost:${port}`
  let log = ''
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      APP_URL: baseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // Known to the stories, so they can act as the operator (tests/e2e/operator.ts).
      APP_SECRET: E2E_APP_SECRET,
      DATABASE_URL: '',
      GOOGLE_CLIENT_ID: '',
      GOOGLE_CLIENT_SECRET: '',
      SMTP_URL: '',
      // Each story poses as its own client (X-Forwarded-For), so the real rate limits stay on.
      TRUST_PROXY: 'true',
      // Demo mode: the app starts the Google emulator itself, here on a free port.
      EMULATOR_PORT: String(emulatorPort),
      GOOGLE_EMULATOR_URL: '',
      // No Stripe key: demo mode bills through the local Stripe emulator, also on a free port.
      STRIPE_SECRET_KEY: '',
      STRIPE_API_URL: '',
      STRIPE_EMULATOR_PORT: String(stripeEmulatorPort),
      // Webhook stories send to a receiver on 127.0.0.1: the operator allows private targets.
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk) => (log += chunk))
  child.stderr?.on('data', (chunk) => (log += chunk))
  await waitForHealth(baseUrl, child, () => log)
  project.provide('baseUrl', baseUrl)
  project.provide('emulatorUrl', `http://127.0.0.1:${emulatorPort}`)
  project.provide('stripeEmulatorUrl', `http://127.0.0.1:${stripeEmulatorPort}`)
  project.provide('adminToken', adminToken(E2E_APP_SECRET))

  return async () => {
    child.kill('SIGTERM')
    await new Promise((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL')
        resolve(undefined)
      }, 10_000)
      child.once('exit', () => {
        clearTimeout(timer)
        resolve(undefined)
      })
    })
    rmSync(dataDir, { recursive: true, force: true })
  }
}
