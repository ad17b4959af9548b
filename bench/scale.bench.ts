import { fork } from 'node:child_process'
import { createSecretBox } from '../src/server/lib/crypto'
import { seedConnectedMailboxes } from '../src/server/testing/mailbox-fixtures'
import { TEST_APP_SECRET } from '../src/server/testing/test-app'
import { openPostgresTestDatabase } from '../src/server/testing/test-database'
import { startTestEmulator } from '../src/server/testing/test-emulator'
import { percentile } from './figures'

type Report = { statements: number; cpuMs: number }

/**
 * N idle mailboxes (connected, one active parser, no mail) polled every `pollSeconds` by one
 * worker process on PostgreSQL. Passes are counted at the emulator (one Gmail history call each);
 * staleness is the gap between two polls of the same mailbox; CPU and SQL are the worker
 * process's own (the emulator and PostgreSQL run elsewhere and are not included).
 */
export async function runScaleBench({ mailboxes, pollSeconds = 30, measureSeconds = 60, concurrency = 25 }: { mailboxes: number; pollSeconds?: number; measureSeconds?: number; concurrency?: number }) {
  const google = await startTestEmulator({ accounts: [] })
  const { database, url } = await openPostgresTestDatabase()
  const box = createSecretBox(TEST_APP_SECRET)
  const seeded = await seedConnectedMailboxes(database.db, { count: mailboxes, prefix: 'idle', google, box })
  const worker = fork('bench/scale-worker.ts', {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      DATABASE_URL: url,
      APP_SECRET: TEST_APP_SECRET,
      APP_URL: 'http://localhost:3000',
      GOOGLE_EMULATOR_URL: google.url,
      POLL_INTERVAL_SECONDS: String(pollSeconds),
      WORKER_CONCURRENCY: String(concurrency),
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const next = () => new Promise<Report & { ready?: boolean }>((resolve) => worker.once('message', (m) => resolve(m as Report)))
  try {
    await next()
    // Polls seen at the emulator, read every 2 s (its log keeps the last 10,000 requests).
    const lastPoll = new Map<string, number>()
    const gaps: number[] = []
    let polls = 0
    let measuring = false
    let seq = 0
    const collect = async () => {
      const { requests } = (await google.control('/requests?api=gmail.users.history.list')).json as { requests: { seq: number; at: string; email?: string }[] }
      for (const r of requests) {
        if (r.seq <= seq || !r.email) continue
        seq = r.seq
        const at = Date.parse(r.at)
        const previous = lastPoll.get(r.email)
        if (measuring) {
          polls++
          if (previous !== undefined) gaps.push(at - previous)
        }
        lastPoll.set(r.email, at)
      }
    }
    const collector = setInterval(() => void collect(), 2000)
    // Warm-up: one interval and a bit, so every mailbox has been polled once.
    await new Promise((resolve) => setTimeout(resolve, (pollSeconds + 5) * 1000))
    await collect()
    measuring = true
    const started = Date.now()
    worker.send('report')
    const before = await next()
    await new Promise((resolve) => setTimeout(resolve, measureSeconds * 1000))
    worker.send('report')
    const after = await next()
    clearInterval(collector)
    await collect()
    const seconds = (Date.now() - started) / 1000
    const missed = seeded.filter((s) => (lastPoll.get(s.email) ?? 0) < started).length
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`
    const cpu = ((after.cpuMs - before.cpuMs) / 1000 / seconds) * 100
    console.log(
      `scale: ${mailboxes.toLocaleString('en-US')} idle mailboxes, poll every ${pollSeconds} s, 1 worker process (WORKER_CONCURRENCY=${concurrency}), PostgreSQL, emulator in the parent process; ${seconds.toFixed(0)} s measured after a ${pollSeconds + 5} s warm-up`,
    )
    console.log(
      `  passes/s ${(polls / seconds).toFixed(1)} (needed ${(mailboxes / pollSeconds).toFixed(1)}); staleness (gap between polls of a mailbox) p50 ${gaps.length ? s(percentile(gaps, 0.5)) : '—'}, p95 ${gaps.length ? s(percentile(gaps, 0.95)) : '—'}, max ${gaps.length ? s(Math.max(...gaps)) : '—'}; mailboxes not polled in the window: ${missed}`,
    )
    console.log(
      `  worker CPU ${cpu.toFixed(1)}% of one core (${((after.cpuMs - before.cpuMs) / Math.max(1, polls)).toFixed(2)} ms per pass); SQL statements per idle pass ${((after.statements - before.statements) / Math.max(1, polls)).toFixed(2)} (everything the worker process sent, pg-boss included)`,
    )
  } finally {
    worker.kill('SIGKILL')
    await database.close()
    await google.close()
  }
}
