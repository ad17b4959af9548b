import { runAuthBench } from './auth.bench'
import { runLatencyBench } from './latency.bench'
import { runPipelineBench } from './pipeline.bench'
import { runScaleBench } from './scale.bench'

/**
 * `npm run bench`: every benchmark, printed as figures (tests never assert on time). Pick cases by
 * name: `npm run bench -- scale latency` (auth, latency, throughput, scale; `scale:1000` for one
 * size); `--quick` for shorter runs.
 */
const args = process.argv.slice(2)
const quick = args.includes('--quick')
const picked = args.filter((a) => !a.startsWith('--'))
const wants = (name: string) => picked.length === 0 || picked.some((p) => p.split(':')[0] === name)

console.log('Mailrow benchmarks (figures vary with the machine; compare runs on the same one)')
console.log('Google is the local emulator (answers in about a millisecond; real Gmail and Sheets take 50-500 ms).\n')
if (wants('auth')) {
  console.log('— accounts —')
  await runAuthBench()
}
if (wants('latency')) {
  console.log('\n— arrival→row latency (PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432) —')
  await runLatencyBench({ quick })
}
if (wants('throughput')) {
  console.log('\n— throughput (PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432) —')
  await runPipelineBench({ quick })
}
if (wants('scale')) {
  console.log('\n— scale: idle mailboxes per worker process (PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432) —')
  const sizes = picked.filter((p) => p.startsWith('scale:')).map((p) => Number(p.slice(6)))
  for (const mailboxes of sizes.length ? sizes : [100, 1000, 5000]) {
    await runScaleBench({ mailboxes, measureSeconds: quick ? 30 : 60 })
  }
}
