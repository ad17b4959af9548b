import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { GMAIL_UNITS } from './latency.bench'
import { and, eq, inArray } from 'drizzle-orm'
import { parsedEmails } from '../src/server/db/schema'
import { deliverOrders, eventually, userWithOrderParser } from '../src/server/testing/pipeline-fixtures'
import { createTestApp, TEST_APP_SECRET } from '../src/server/testing/test-app'
import { openPostgresTestDatabase } from '../src/server/testing/test-database'
import { startTestEmulator, type TestEmulator } from '../src/server/testing/test-emulator'

async function apiCounts(google: TestEmulator) {
  return (await google.control('/requests')).json.byApi as Record<string, number>
}

/** Sustained throughput with N worker processes on PostgreSQL, plus Google calls per email. */
async function throughput(workerCount: number, users: number, perUser: number) {
  const accounts = Array.from({ length: users }, (_, i) => `box${i}@mailrow.test`)
  const google = await startTestEmulator({ accounts })
  const { database, url } = await openPostgresTestDatabase()
  const t = await createTestApp({ emulatorUrl: google.url, database })
  const children: ChildProcess[] = []
  try {
    const setups = []
    for (let i = 0; i < users; i++) {
      const inbox = accounts[i]!
      setups.push(await userWithOrderParser(t, google, { email: `tp${workerCount}-${i}@example.com`, plan: 'pro', inbox }))
    }
    for (const inbox of accounts) await deliverOrders(google, 1, perUser, inbox)
    await google.control('/requests', { method: 'DELETE' })
    const total = users * perUser
    const userIds = setups.map((s) => s.userId)
    for (let w = 0; w < workerCount; w++) {
      children.push(
        spawn(process.execPath, ['--import', 'tsx', 'src/worker/main.ts'], {
          env: { ...process.env, DATABASE_URL: url, APP_SECRET: TEST_APP_SECRET, APP_URL: 'http://localhost:3000', GOOGLE_EMULATOR_URL: google.url, POLL_INTERVAL_SECONDS: '0.5', LOG_LEVEL: 'error', DATA_DIR: mkdtempSync(join(tmpdir(), 'mailrow-bench-')) },
          stdio: 'ignore',
        }),
      )
    }
    // The clock starts when the first email reaches the ledger (worker start-up excluded) and stops
    // when every email is a row in its sheet.
    const inLedger = async () => (await t.db.select({ id: parsedEmails.id }).from(parsedEmails).where(inArray(parsedEmails.userId, userIds)).limit(1)).length
    await eventually(inLedger, (n) => n > 0, 60_000)
    const started = performance.now()
    await eventually(
      async () =>
        (await t.db.select({ id: parsedEmails.id }).from(parsedEmails).where(and(inArray(parsedEmails.userId, userIds), eq(parsedEmails.sheetState, 'written')))).length,
      (n) => n === total,
      300_000,
    )
    const seconds = (performance.now() - started) / 1000
    const calls = await apiCounts(google)
    const units = Object.entries(calls).reduce((sum, [api, n]) => sum + (GMAIL_UNITS[api] ?? 0) * n, 0)
    const appends = calls['sheets.spreadsheets.values.append'] ?? 0
    const sheetsCalls = Object.entries(calls).filter(([api]) => api.startsWith('sheets.')).reduce((sum, [, n]) => sum + n, 0)
    console.log(
      `throughput (${workerCount} worker process${workerCount > 1 ? 'es' : ''}, PostgreSQL, ${users} mailboxes × ${perUser}): ${(total / seconds).toFixed(0)} emails/s (${total} in ${seconds.toFixed(1)} s after start-up)`,
    )
    console.log(`  Sheets calls per 100 rows: ${((sheetsCalls / total) * 100).toFixed(1)} (values.append: ${((appends / total) * 100).toFixed(1)})`)
    console.log(`  Gmail quota units per email: ${(units / total).toFixed(2)}`)
  } finally {
    for (const child of children) child.kill('SIGKILL')
    await t.close()
    await google.close()
  }
}

export async function runPipelineBench({ quick = false } = {}) {
  await throughput(1, 4, quick ? 50 : 250)
  await throughput(2, 4, quick ? 50 : 250)
}
