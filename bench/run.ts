import { runAuthBench } from './auth.bench'
import { runExportBench } from './export.bench'
import { runLandingBench } from './landing.bench'
import { runLatencyBench } from './latency.bench'
import { runPipelineBench } from './pipeline.bench'
import { runReadsBench } from './reads.bench'
import { runPriorityBench } from './priority.bench'
import { runScaleBench } from './scale.bench'

/**
 * `npm run bench`: every benchmark, printed as figures (tests never assert on time). Pick cases by
 * name: `npm run bench -- scale latency` (auth, export, landing, latency, throughput, priority, scale,
 * reads; `scale:1000` for one size); `--quick` for shorter runs; for reads, `--seconds=N` and
 * `--rps=N` (default 60 s at 200 rps).
 */
const args = process.argv.slice(2)
const quick = args.includes('--quick')
const picked = args.filter((a) => !a.startsWith('--'))
const flag = (name: string) => {
  const value = args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
  return value === undefined ? undefined : Number(value)
}
const wants = (name: string) => picked.length === 0 || picked.some((p) => p.split(':')[0] === name)

console.log('Mailrow benchmarks (figures vary with the machine; compare runs on the same one)')
console.log('Google is the local emulator (answers in about a millisecond; real Gmail and Sheets take 50-500 ms).\n')
if (wants('auth')) {
  console.log('— accounts —')
  await runAuthBench()
}
if (wants('export')) {
  console.log('\n— exports: a parser\'s data as CSV and XLSX, streamed —')
  await runExportBench({ rows: quick ? 10_000 : 50_000 })
}
if (wants('landing')) {
  console.log('\n— landing page (the build in dist/web, served as `npm start` serves it; Chromium) —')
  await runLandingBench()
}
if (wants('latency')) {
  console.log('\n— arrival→row latency (PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432) —')
  await runLatencyBench({ quick })
}
if (wants('throughput')) {
  console.log('\n— throughput (PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432) —')
  await runPipelineBench({ quick })
}
if (wants('priority')) {
  console.log('\n— priority processing: a Pro mailbox while a free-plan backlog drains (PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432) —')
  await runPriorityBench({ quick })
}
if (wants('scale')) {
  console.log('\n— scale: idle mailboxes per worker process (PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432) —')
  const sizes = picked.filter((p) => p.startsWith('scale:')).map((p) => Number(p.slice(6)))
  for (const mailboxes of sizes.length ? sizes : [100, 1000, 5000]) {
    await runScaleBench({ mailboxes, measureSeconds: quick ? 30 : 60 })
  }
}
if (wants('reads')) {
  console.log('\n— signed-in reads (PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432) —')
  await runReadsBench({ seconds: flag('seconds') ?? (quick ? 15 : 60), rps: flag('rps') ?? 200 })
}
