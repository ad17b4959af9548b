import { spawn, type ChildProcess } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import { readFileSync } from 'node:fs'
import { Agent, get as httpGet } from 'node:http'
import { createServer } from 'node:net'
import { parsedEmails, parsers, users } from '../src/server/db/schema'
import { createTestApp, signUpAndIn, TEST_APP_SECRET, TEST_APP_URL } from '../src/server/testing/test-app'
import { openPostgresTestDatabase } from '../src/server/testing/test-database'
import { eq } from 'drizzle-orm'
import { percentile } from './figures'

/** What a signed-in browser reads: the dashboard, the parser list, and its session (on every page and focus). */
const ENDPOINTS = ['/api/dashboard', '/api/parsers', '/api/auth/get-session'] as const

/** Keep-alive connections the load generator holds open to the server. */
const CONNECTIONS = 32

type Sample = { endpoint: string; ms: number; ok: boolean }

/**
 * Signed-in reads at a fixed rate against the real server (`src/server/main.ts` in its own process,
 * worker off) on PostgreSQL: `users` accounts, each with 3 parsers and `rowsPerUser` ledger rows,
 * read in turn (dashboard, parser list, session) at `rps` requests per second for `seconds`.
 * Open loop: requests leave on schedule whether or not earlier ones have answered, and latency is
 * counted from the scheduled time, so a slow server cannot hide its queue.
 */
export async function runReadsBench({ rps = 200, seconds = 60, users: userCount = 50, rowsPerUser = 2000 }: { rps?: number; seconds?: number; users?: number; rowsPerUser?: number } = {}) {
  const { database, url } = await openPostgresTestDatabase()
  let server: ChildProcess | undefined
  try {
    const seeded = await seed(database, userCount, rowsPerUser)
    const port = await freePort()
    server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: url,
        PORT: String(port),
        APP_URL: TEST_APP_URL,
        APP_SECRET: TEST_APP_SECRET,
        RUN_WORKER: 'false',
        // Each simulated user comes from an address of its own, as behind a load balancer.
        TRUST_PROXY: '1',
        GOOGLE_CLIENT_ID: 'bench',
        GOOGLE_CLIENT_SECRET: 'bench',
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    })
    const base = `http://127.0.0.1:${port}`
    await waitFor(`${base}/api/health`)
    // Like a load balancer in front of the app: a bounded pool of keep-alive connections (a request
    // waiting for one counts in its latency).
    const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })
    const request = (endpoint: string, user: (typeof seeded)[number]) =>
      new Promise<boolean>((resolve) => {
        const req = httpGet(`${base}${endpoint}`, { agent, headers: { cookie: user.cookie, 'x-forwarded-for': user.ip, origin: TEST_APP_URL } }, (response) => {
          const chunks: Buffer[] = []
          response.on('data', (chunk: Buffer) => chunks.push(chunk))
          response.on('end', () => {
            const body = Buffer.concat(chunks).toString()
            const ok = response.statusCode === 200 && (endpoint !== '/api/auth/get-session' || body.includes('"session"'))
            if (!ok && process.env.BENCH_DEBUG) console.error(endpoint, response.statusCode, body.slice(0, 200))
            resolve(ok)
          })
          response.on('error', () => resolve(false))
        })
        req.on('error', (error) => {
          if (process.env.BENCH_DEBUG) console.error(endpoint, error.message)
          resolve(false)
        })
      })
    // Warm-up: every user once on every endpoint (connections opened, sessions cached).
    for (const user of seeded) for (const endpoint of ENDPOINTS) await request(endpoint, user)

    const loadBefore = loadavg()
    const cpuBefore = processCpuMs(server.pid!)
    const samples: Sample[] = []
    const inFlight = new Set<Promise<void>>()
    const started = performance.now()
    let sent = 0
    await new Promise<void>((resolve) => {
      const tick = () => {
        const elapsed = performance.now() - started
        const due = Math.min(Math.floor((elapsed / 1000) * rps), rps * seconds)
        for (; sent < due; sent++) {
          const scheduledAt = started + (sent / rps) * 1000
          const endpoint = ENDPOINTS[sent % ENDPOINTS.length]!
          const user = seeded[Math.floor(sent / ENDPOINTS.length) % seeded.length]!
          const done: Promise<void> = request(endpoint, user).then((ok) => {
              samples.push({ endpoint, ms: performance.now() - scheduledAt, ok })
              inFlight.delete(done)
            })
          inFlight.add(done)
        }
        if (sent >= rps * seconds) return resolve()
        setTimeout(tick, 2)
      }
      tick()
    })
    await Promise.all(inFlight)
    agent.destroy()
    const wall = (performance.now() - started) / 1000
    const cpuSeconds = (processCpuMs(server.pid!) - cpuBefore) / 1000
    const rss = readRssMb(server.pid!)

    const line = (label: string, list: Sample[]) => {
      const ms = list.map((s) => s.ms)
      const errors = list.filter((s) => !s.ok).length
      return `  ${label.padEnd(24)} n=${String(list.length).padStart(6)}  p50 ${percentile(ms, 0.5).toFixed(1).padStart(7)} ms  p95 ${percentile(ms, 0.95).toFixed(1).padStart(7)} ms  p99 ${percentile(ms, 0.99).toFixed(1).padStart(7)} ms  max ${Math.max(...ms).toFixed(0).padStart(6)} ms  errors ${errors}`
    }
    console.log(
      `reads: ${userCount} signed-in users (3 parsers, ${rowsPerUser.toLocaleString('en-US')} ledger rows each), target ${rps} rps for ${seconds} s, open loop; server = src/server/main.ts (NODE_ENV=production, worker off, session cache ${process.env.SESSION_CACHE_SECONDS ?? '10'} s) on PostgreSQL at 127.0.0.1:5432; load generator in this process over ${CONNECTIONS} keep-alive connections; ${cpus().length} cores, load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before`,
    )
    console.log(`  achieved ${(samples.length / wall).toFixed(1)} rps over ${wall.toFixed(1)} s; server CPU ${((cpuSeconds / wall) * 100).toFixed(0)}% of a core; server RSS ${rss} MB after the run`)
    console.log(line('all', samples))
    for (const endpoint of ENDPOINTS) console.log(line(endpoint, samples.filter((s) => s.endpoint === endpoint)))
  } finally {
    server?.kill('SIGTERM')
    await new Promise((resolve) => (server && server.exitCode === null ? server.once('exit', resolve) : resolve(null)))
    await database.close()
  }
}

/** Accounts signed in through the real auth flow, each with parsers and a ledger of past emails. */
async function seed(database: Awaited<ReturnType<typeof openPostgresTestDatabase>>['database'], userCount: number, rowsPerUser: number) {
  const t = await createTestApp({ database: { ...database, close: async () => {} }, rateLimits: { signIn: { window: 60, max: 100_000 }, signUp: { window: 60, max: 100_000 } } })
  const seeded: Array<{ cookie: string; ip: string }> = []
  for (let i = 0; i < userCount; i++) {
    const email = `reader${i}@bench.example.com`
    const client = await signUpAndIn(t, email)
    const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email))
    const made = await t.db
      .insert(parsers)
      .values(['Orders', 'Invoices', 'Shipping'].map((name) => ({ userId: user!.id, name })))
      .returning({ id: parsers.id })
    const now = Date.now()
    for (let start = 0; start < rowsPerUser; start += 1000) {
      await t.db.insert(parsedEmails).values(
        Array.from({ length: Math.min(1000, rowsPerUser - start) }, (_, k) => {
          const n = start + k
          return {
            userId: user!.id,
            parserId: made[n % made.length]!.id,
            gmailMessageId: (n + 1).toString(16).padStart(16, '0'),
            emailSubject: `Order #${n}`,
            status: (n % 10 === 0 ? 'failed' : n % 7 === 0 ? 'partial' : 'success') as 'failed' | 'partial' | 'success',
            processedAt: new Date(now - (rowsPerUser - n) * 60_000),
          }
        }),
      )
    }
    seeded.push({ cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), ip: `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}` })
  }
  await database.sql.executeSql('analyze')
  return seeded
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

async function waitFor(url: string) {
  for (let i = 0; i < 600; i++) {
    if (await fetch(url).then((r) => r.ok, () => false)) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`server did not start: ${url}`)
}

/** CPU time (user + system) a process has used, from /proc (Linux). */
function processCpuMs(pid: number) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}

function readRssMb(pid: number) {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
  return Math.round(kb / 1024)
}
