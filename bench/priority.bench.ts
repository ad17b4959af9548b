import { pipelineDepsOf } from '../src/server/bootstrap'
import { createLogger } from '../src/server/lib/logger'
import { sheetRows, userWithOrderParser } from '../src/server/testing/pipeline-fixtures'
import { createTestApp } from '../src/server/testing/test-app'
import { openPostgresTestDatabase } from '../src/server/testing/test-database'
import { deliverMail, startTestEmulator } from '../src/server/testing/test-emulator'
import { reservedPrioritySlots } from '../src/worker/scheduler'
import { startWorker } from '../src/worker/worker'
import { percentile } from './figures'
import { realisticOrderEmail } from './latency.bench'

/**
 * Priority processing (docs/decisions/020): free-plan mailboxes with a large backlog keep a worker
 * busy while one email at a time arrives for a Pro user and for a free user without a backlog.
 * Arrival→row is timed for both (the row seen in the emulator's sheet), as is the backlog's drain.
 */
export async function runPriorityBench({ quick = false }: { quick?: boolean } = {}) {
  const freeUsers = quick ? 8 : 12
  const backlogPerUser = quick ? 100 : 200
  const concurrency = 4
  const pollSeconds = 1
  const google = await startTestEmulator()
  const { database } = await openPostgresTestDatabase()
  const t = await createTestApp({ emulatorUrl: google.url, database })
  const backlogInboxes: string[] = []
  for (let i = 0; i < freeUsers; i++) {
    const inbox = `backlog${i}@mailrow.test`
    await google.control('/mailboxes', { body: { email: inbox } })
    await userWithOrderParser(t, google, { email: `backlog${i}@example.com`, inbox })
    backlogInboxes.push(inbox)
  }
  await google.control('/mailboxes', { body: { email: 'pro@mailrow.test' } })
  await google.control('/mailboxes', { body: { email: 'probe@mailrow.test' } })
  const pro = await userWithOrderParser(t, google, { email: 'pro@example.com', plan: 'pro', inbox: 'pro@mailrow.test' })
  const probe = await userWithOrderParser(t, google, { email: 'probe@example.com', plan: 'free', inbox: 'probe@mailrow.test' })

  const seen = new Map<string, number>()
  const watch = setInterval(() => {
    for (const spreadsheetId of [pro.spreadsheetId, probe.spreadsheetId]) {
      void sheetRows(google, spreadsheetId).then((rows) => {
        for (const row of rows) if (row[6] && !seen.has(row[6])) seen.set(row[6], performance.now())
      })
    }
  }, 100)

  const start = () => startWorker({ database, logger: createLogger('silent'), pipeline: pipelineDepsOf(t.deps), pollIntervalSeconds: pollSeconds, concurrency })
  let worker = await start()
  let n = 1000
  const waitFor = async (ids: string[], ms = 60_000) => {
    const deadline = performance.now() + ms
    while (ids.some((id) => !seen.has(id)) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  // Baseline: the same trickle to the Pro mailbox with nothing else to do.
  const idle = new Map<string, number>()
  for (let i = 0; i < 8; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1500))
    idle.set(await deliverMail(google, 'pro@mailrow.test', realisticOrderEmail(n++)), performance.now())
  }
  await waitFor([...idle.keys()])

  // The whole backlog arrives while no worker runs, so it is all waiting when the worker starts.
  await worker.stop()
  const backlogIds: string[] = []
  for (const inbox of backlogInboxes) for (let i = 0; i < backlogPerUser; i++) backlogIds.push(await deliverMail(google, inbox, realisticOrderEmail(n++)))
  worker = await start()
  const started = performance.now()
  const arrivals = { pro: new Map<string, number>(), free: new Map<string, number>() }
  const isDrained = async () => {
    const [row] = (await database.sql.executeSql(`select count(*)::int as open from parsed_emails where status in ('pending', 'processing') or sheet_state in ('queued', 'writing')`)).rows as { open: number }[]
    return row!.open === 0
  }
  try {
    // One email each for the Pro user and the free probe every ~1.5 s while the backlog drains.
    let drainedAt: number | undefined
    while (performance.now() - started < (quick ? 120 : 300) * 1000) {
      await new Promise((resolve) => setTimeout(resolve, 1500))
      arrivals.pro.set(await deliverMail(google, 'pro@mailrow.test', realisticOrderEmail(n++)), performance.now())
      arrivals.free.set(await deliverMail(google, 'probe@mailrow.test', realisticOrderEmail(n++)), performance.now())
      if (arrivals.pro.size >= 10 && (await isDrained())) {
        drainedAt = performance.now()
        break
      }
    }
    await waitFor([...arrivals.pro.keys(), ...arrivals.free.keys()])
    const latencies = (m: Map<string, number>) => [...m].filter(([id]) => seen.has(id)).map(([id, at]) => seen.get(id)! - at)
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`
    const line = (name: string, m: Map<string, number>) => {
      const l = latencies(m)
      return `  ${name}: ${m.size} emails, arrival→row p50 ${l.length ? s(percentile(l, 0.5)) : '—'}, p95 ${l.length ? s(percentile(l, 0.95)) : '—'}, max ${l.length ? s(Math.max(...l)) : '—'}${l.length < m.size ? ` (${m.size - l.length} not written in time)` : ''}`
    }
    console.log(
      `priority: ${freeUsers} free-plan mailboxes with ${backlogPerUser} emails each (${backlogIds.length} in all) draining; 1 in-process worker, WORKER_CONCURRENCY=${concurrency} (${reservedPrioritySlots(concurrency)} slot kept for Pro), poll every ${pollSeconds} s, PostgreSQL, emulator, ~20 KB HTML emails; one email every ~1.5 s to a Pro mailbox and to a free mailbox without a backlog`,
    )
    console.log(line('Pro user, before the backlog (baseline)', idle))
    console.log(line('Pro user, while the backlog drains', arrivals.pro))
    console.log(line('free user (no backlog of its own)', arrivals.free))
    console.log(`  backlog: ${drainedAt ? `drained ${s(drainedAt - started)} after the worker started on it` : 'still draining when the run ended'}`)
  } finally {
    clearInterval(watch)
    await worker.stop()
    await t.close()
    await google.close()
  }
}
