import { cpus } from 'node:os'
import { performance } from 'node:perf_hooks'
import { sql } from 'drizzle-orm'
import { parsers, users } from '../src/server/db/schema'
import { exportParserData } from '../src/server/features/exports/exports.service'
import { openTestDatabase } from '../src/server/testing/test-database'

/**
 * A parser's export (CSV and XLSX) over `rows` ledger rows: time, rows/s, bytes, and how far the
 * process's memory grows while it streams (sampled every 20 ms), to show it is paged, not built whole.
 */
export async function runExportBench({ rows = 50_000 }: { rows?: number } = {}) {
  const database = await openTestDatabase()
  const db = database.db
  try {
    const [user] = await db.insert(users).values({ id: 'export-bench', name: 'Bench', email: 'export-bench@example.com' }).returning({ id: users.id })
    const fields = ['Order Number', 'Customer', 'Total', 'Ship To', 'Notes'].map((name) => ({ name, value: 'x' }))
    const [parser] = await db.insert(parsers).values({ userId: user!.id, name: 'Bench orders', extractionFields: fields }).returning({ id: parsers.id })
    await db.execute(sql`
      insert into parsed_emails (user_id, parser_id, gmail_message_id, email_subject, email_from, received_at, status, extracted_data)
      select ${user!.id}, ${parser!.id}, to_hex(1000000 + i), 'Order #' || i || ' confirmed', 'Acme Store <orders@acme.test>',
             now() - make_interval(secs => i), 'success',
             jsonb_build_object('Order Number', i::text, 'Customer', 'Customer ' || i, 'Total', '$' || (i % 997) || '.50',
                                'Ship To', i || ' Long Street, Springfield, 12345', 'Notes', 'Leave at the door, "please", thanks')
      from generate_series(1, ${rows}) as i`)
    console.log(`conditions: Node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite in memory'}, ${rows.toLocaleString('en-US')} rows x 10 columns, pages of 500`)
    for (const format of ['csv', 'xlsx'] as const) {
      globalThis.gc?.()
      const baseline = process.memoryUsage().rss
      let peak = baseline
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20)
      const started = performance.now()
      const file = await exportParserData(db, { userId: user!.id, parserId: parser!.id, query: { format } })
      let bytes = 0
      for await (const chunk of file.body) bytes += (chunk as Uint8Array).byteLength
      const ms = performance.now() - started
      clearInterval(sampler)
      console.log(
        `export ${format.padEnd(4)} ${(ms / 1000).toFixed(2).padStart(6)} s  ${Math.round(rows / (ms / 1000)).toLocaleString('en-US').padStart(7)} rows/s  ${(bytes / 1e6).toFixed(1).padStart(5)} MB  RSS growth while streaming ${((peak - baseline) / 1e6).toFixed(0)} MB`,
      )
    }
  } finally {
    await database.close()
  }
}
