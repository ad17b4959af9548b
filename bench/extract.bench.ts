import { availableParallelism, cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { runParser, trainParser } from '../src/engine/extract'
import { parseMimeFast } from '../src/engine/mime-fast'
import { buildEml } from '../tests/fixtures/corpus/lib/mime'
import { createRng, seedFor } from '../tests/fixtures/corpus/lib/prng'
import { makeContext } from '../tests/fixtures/corpus/lib/template'
import { template as shopOrder } from '../tests/fixtures/corpus/shop-order/template'

/**
 * `npm run bench:extract [-- COUNT]` (default 50,000): parses and extracts about 20 KB HTML emails (MIME decoding,
 * HTML → text, template extraction) in one process and one thread, printing throughput and RSS as
 * it goes so a flat memory line is visible. The conditions are printed beside the figures: the
 * runtime, the CPU, the load from other processes (the figure is per CPU-second of this process,
 * but a busy machine still slows it), the limits (the engine's defaults, as in production) and how
 * many emails took the MIME fast path. The last line is the figure:
 * `extract: N emails/s (one core), peak RSS M MB`.
 */
const DISTINCT = 200
const TARGET_BYTES = 20 * 1024

/** A "you may also like" block of product cards, the bulk of a real shop email's HTML. */
function recommendations(seed: number, bytes: number): string {
  const rng = createRng(seed)
  let html = '<h2 style="font-size:16px;margin:28px 0 8px 0;">You may also like</h2>\n'
  while (html.length < bytes) {
    const price = `$${rng.int(5, 400)}.${String(rng.int(0, 99)).padStart(2, '0')}`
    html += `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 12px 0;border:1px solid #e2e8f0;border-radius:6px;"><tr>
<td width="96" valign="top" style="padding:12px;"><a href="https://shop.example.com/p/${rng.int(1000, 99999)}?utm_source=email&amp;utm_medium=reco&amp;utm_campaign=order_confirmation"><img src="https://cdn.example.com/products/${rng.int(1000, 99999)}/thumb@2x.jpg" width="72" height="72" alt="Product photo" style="display:block;border:0;border-radius:4px;" /></a></td>
<td valign="top" style="padding:12px 12px 12px 0;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif;font-size:14px;line-height:20px;color:#2d3748;"><strong style="display:block;margin-bottom:4px;">Item ${rng.int(1, 999)} &ndash; customers also bought</strong><span style="color:#718096;font-size:13px;">Rated ${rng.int(30, 50) / 10} out of 5 &middot; Free returns within 30 days</span><br /><span style="font-weight:bold;color:#2b6cb0;">${price}</span></td>
</tr></table>\n`
  }
  return html
}

export function buildCorpus(): Buffer[] {
  const emails: Buffer[] = []
  for (let i = 1; i <= DISTINCT; i++) {
    const rng = createRng(seedFor('bench', i))
    const variant = shopOrder.generate(makeContext(rng, i === 1))
    const html = variant.html!
    const padded = html.replace('</body>', `${recommendations(i, Math.max(0, TARGET_BYTES - html.length - 2500))}</body>`)
    emails.push(
      buildEml(
        { from: variant.from, to: variant.to, subject: variant.subject, date: variant.date, messageId: `bench.${i}@example.com`, html: padded, text: variant.text, format: 'both', encoding: 'quoted-printable' },
        rng,
      ),
    )
  }
  return emails
}

export async function runExtractBench(count: number) {
  const emails = buildCorpus()
  const average = emails.reduce((n, e) => n + e.length, 0) / emails.length
  const sample = createRng(seedFor('bench', 1))
  const fields = Object.entries(shopOrder.generate(makeContext(sample, true)).truth).map(([name, value]) => ({
    name,
    value: (value ?? '').split('\n')[0]!,
  }))
  const trained = await trainParser(emails[0]!, fields)
  if (!trained.ok) throw new Error(trained.reason)
  const fastPath = emails.filter((email) => parseMimeFast(email) !== null).length
  const cpu0 = cpus()[0]
  console.log(`${emails.length} distinct emails, ${(average / 1024).toFixed(1)} KB on average (HTML + text, quoted-printable); ${count} runs`)
  console.log(
    `conditions: Node ${process.version}, ${cpu0?.model.trim() ?? 'unknown CPU'} × ${availableParallelism()}, load average ${loadavg()[0]!.toFixed(1)} at the start; ` +
      `default engine limits; MIME fast path on ${fastPath}/${emails.length} emails`,
  )

  // Warm-up, so the JIT has compiled the hot paths before timing starts.
  for (let i = 0; i < 500; i++) await runParser(trained.template, emails[i % emails.length]!)

  const found = new Map<string, number>()
  const wallStart = performance.now()
  const cpuStart = process.cpuUsage()
  let lastCpu = cpuStart
  const step = Math.max(1000, Math.floor(count / 10))
  for (let i = 0; i < count; i++) {
    const result = await runParser(trained.template, emails[i % emails.length]!)
    found.set(result.status, (found.get(result.status) ?? 0) + 1)
    if ((i + 1) % step === 0) {
      const cpu = process.cpuUsage(lastCpu)
      const rss = process.memoryUsage().rss / 1024 / 1024
      const heap = process.memoryUsage().heapUsed / 1024 / 1024
      console.log(`  ${String(i + 1).padStart(7)} emails  ${Math.round(step / ((cpu.user + cpu.system) / 1e6))} emails/cpu-s  RSS ${rss.toFixed(0)} MB  heap ${heap.toFixed(0)} MB`)
      lastCpu = process.cpuUsage()
    }
  }
  const cpu = process.cpuUsage(cpuStart)
  const cpuSeconds = (cpu.user + cpu.system) / 1e6
  const wallSeconds = (performance.now() - wallStart) / 1000
  const peak = process.resourceUsage().maxRSS / 1024
  console.log(`statuses: ${[...found].map(([k, v]) => `${k} ${v}`).join(', ')} (partial: the optional discount is absent)`)
  console.log(`wall clock: ${Math.round(count / wallSeconds)} emails/s; CPU: ${cpuSeconds.toFixed(1)} s for ${count} emails; load average ${loadavg()[0]!.toFixed(1)} at the end`)
  // Per CPU-second of this process (GC threads included): the one-core rate, whatever else the machine runs.
  console.log(`extract: ${Math.round(count / cpuSeconds)} emails/s (one core), peak RSS ${peak.toFixed(0)} MB`)
}

if (import.meta.filename === process.argv[1]) {
  const count = Number(process.argv[2] ?? 50_000)
  if (!Number.isInteger(count) || count <= 0) {
    console.error('usage: npm run bench:extract -- [COUNT]')
    process.exit(2)
  }
  await runExtractBench(count)
}
