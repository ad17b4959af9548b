import { serve, type ServerType } from '@hono/node-server'
import { PUSH_SAFETY_NET_SECONDS } from '../src/server/env'
import { pipelineDepsOf } from '../src/server/bootstrap'
import { pushToken } from '../src/server/features/pipeline/push.service'
import { createLogger } from '../src/server/lib/logger'
import { INBOX, orderEmail, sheetRows, userWithOrderParser } from '../src/server/testing/pipeline-fixtures'
import { createTestApp } from '../src/server/testing/test-app'
import { openPostgresTestDatabase } from '../src/server/testing/test-database'
import { deliverMail, startTestEmulator } from '../src/server/testing/test-emulator'
import { startWorker } from '../src/worker/worker'
import { percentile } from './figures'

/** Gmail quota units per method (https://developers.google.com/workspace/gmail/api/reference/quota). */
export const GMAIL_UNITS: Record<string, number> = {
  'gmail.users.getProfile': 1,
  'gmail.users.labels.list': 1,
  'gmail.users.messages.list': 5,
  'gmail.users.messages.get': 5,
  'gmail.users.history.list': 2,
  'gmail.users.watch': 100,
}

/**
 * An order confirmation of realistic size (~20 KB of HTML): the order table inside the header,
 * recommendations and legal footer that shop emails carry.
 */
export function realisticOrderEmail(n: number) {
  const { expected: _, ...mail } = orderEmail(n)
  const style = 'style="font-family:Helvetica,Arial,sans-serif;font-size:14px;line-height:20px;color:#333333;padding:8px 12px;border-bottom:1px solid #eeeeee"'
  const nav = ['New in', 'Women', 'Men', 'Kids', 'Home', 'Sale', 'Gift cards', 'Stores'].map((item) => `<td ${style}><a href="https://acme.test/${encodeURIComponent(item)}?utm_source=email&amp;utm_medium=order&amp;utm_campaign=confirmation">${item}</a></td>`).join('')
  const picks = Array.from({ length: 24 }, (_, i) => `<tr><td ${style}><img src="https://cdn.acme.test/p/${n}-${i}.jpg" width="120" height="120" alt="Product ${i}"></td><td ${style}><a href="https://acme.test/p/${i}?ref=order-${n}">You might also like: item ${i}</a><br>From $${(i * 7 + 9).toFixed(2)} — free returns within 30 days</td></tr>`).join('')
  const legal = Array.from({ length: 8 }, (_, i) => `<p ${style}>Section ${i + 1}. Acme Store Ltd, 1 Market Street, Springfield. You receive this email because you placed an order. Prices include VAT where applicable. Read our terms, returns policy and privacy notice at https://acme.test/legal. Unsubscribe from marketing at any time; order emails are always sent.</p>`).join('')
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0}td{vertical-align:top}</style></head><body><table width="100%" cellpadding="0" cellspacing="0"><tr>${nav}</tr></table>${mail.html}<table width="100%">${picks}</table>${legal}</body></html>`
  return { ...mail, html }
}

type Case = { name: string; pollSeconds: number; push?: boolean; trickleSeconds: number; meanGapSeconds: number; backlog: number }

/** Arrival→row latency for one case: emails one at a time (trickle), then a backlog at once. PostgreSQL, one in-process worker. */
async function runCase(c: Case) {
  const google = await startTestEmulator()
  const { database } = await openPostgresTestDatabase()
  const t = await createTestApp({ emulatorUrl: google.url, database, env: c.push ? { GMAIL_PUSH_TOPIC: 'projects/mailrow-bench/topics/gmail' } : {} })
  let server: ServerType | undefined
  const worker = await startWorker({ database, logger: createLogger('silent'), pipeline: pipelineDepsOf(t.deps), pollIntervalSeconds: c.pollSeconds })
  try {
    if (c.push) {
      t.deps.requestSync = worker.requestSync
      const port = await new Promise<number>((resolve) => {
        server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port))
      })
      await google.control('/push', { body: { url: `http://127.0.0.1:${port}/api/gmail/push?token=${pushToken(t.deps.appSecret)}` } })
    }
    const { spreadsheetId } = await userWithOrderParser(t, google, { email: 'latency@example.com', plan: 'pro' })
    const seen = new Map<string, number>()
    const watch = setInterval(() => {
      void sheetRows(google, spreadsheetId).then((rows) => {
        for (const row of rows) if (row[6] && !seen.has(row[6])) seen.set(row[6], performance.now())
      })
    }, 100)
    const waitForRows = async (ids: string[]) => {
      const deadline = performance.now() + (c.pollSeconds * 2 + 60) * 1000
      while (ids.some((id) => !seen.has(id)) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    // Steady state: counts start once the parser's first pass is behind us.
    await new Promise((resolve) => setTimeout(resolve, Math.min(c.pollSeconds, 5) * 1000))
    await google.control('/requests', { method: 'DELETE' })

    const arrivals = new Map<string, number>()
    const started = performance.now()
    let n = 100
    while (performance.now() - started < c.trickleSeconds * 1000) {
      await new Promise((resolve) => setTimeout(resolve, c.meanGapSeconds * (0.5 + Math.random()) * 1000))
      const id = await deliverMail(google, INBOX, realisticOrderEmail(n++))
      arrivals.set(id, performance.now())
    }
    await waitForRows([...arrivals.keys()])
    // Google calls over the whole trickle window, idle polls included.
    const calls = (await google.control('/requests')).json.byApi as Record<string, number>
    const windowSeconds = (performance.now() - started) / 1000
    const trickle = [...arrivals].filter(([id]) => seen.has(id)).map(([id, at]) => seen.get(id)! - at)

    const burst: string[] = []
    const burstStart = performance.now()
    for (let i = 0; i < c.backlog; i++) burst.push(await deliverMail(google, INBOX, realisticOrderEmail(n++)))
    const delivered = performance.now()
    await waitForRows(burst)
    const burstDone = burst.filter((id) => seen.has(id)).map((id) => seen.get(id)!)
    clearInterval(watch)

    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`
    const emails = arrivals.size
    const units = Object.entries(calls).reduce((sum, [api, k]) => sum + (GMAIL_UNITS[api] ?? 0) * k, 0)
    const sheets = Object.entries(calls).filter(([api]) => api.startsWith('sheets.')).reduce((sum, [, k]) => sum + k, 0)
    const polls = calls['gmail.users.history.list'] ?? 0
    console.log(`latency, ${c.name}: one mailbox, one in-process worker, PostgreSQL, ~20 KB HTML emails`)
    console.log(
      `  trickle (${emails} emails one at a time over ${c.trickleSeconds} s, one every ~${c.meanGapSeconds} s): arrival→row p50 ${s(percentile(trickle, 0.5))}, p95 ${s(percentile(trickle, 0.95))}, max ${s(Math.max(...trickle))}${trickle.length < emails ? ` (${emails - trickle.length} not written in time)` : ''}`,
    )
    console.log(
      `  steady state over ${windowSeconds.toFixed(0)} s (${polls} history polls): ${(sheets / emails).toFixed(2)} Sheets calls and ${(units / emails).toFixed(1)} Gmail units per email, idle polls included`,
    )
    console.log(
      `  backlog (${c.backlog} emails at once): last arrival→last row ${burstDone.length ? s(Math.max(...burstDone) - delivered) : '—'}, first row after ${burstDone.length ? s(Math.min(...burstDone) - burstStart) : '—'}${burstDone.length < burst.length ? ` (${burst.length - burstDone.length} not written in time)` : ''}`,
    )
  } finally {
    await worker.stop()
    server?.close()
    await t.close()
    await google.close()
  }
}

export async function runLatencyBench({ quick = false, only }: { quick?: boolean; only?: string[] } = {}) {
  const cases: Case[] = [
    { name: 'default poll (30 s)', pollSeconds: 30, trickleSeconds: quick ? 30 : 90, meanGapSeconds: 5, backlog: 50 },
    { name: 'demo poll (3 s)', pollSeconds: 3, trickleSeconds: quick ? 15 : 30, meanGapSeconds: 2, backlog: 50 },
    { name: `Gmail push (safety-net poll ${PUSH_SAFETY_NET_SECONDS / 60} min)`, pollSeconds: PUSH_SAFETY_NET_SECONDS, push: true, trickleSeconds: quick ? 15 : 30, meanGapSeconds: 2, backlog: 50 },
  ]
  for (const c of cases) if (!only || only.some((o) => c.name.includes(o))) await runCase(c)
}
