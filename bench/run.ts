import { runAuthBench } from './auth.bench'
import { runPipelineBench } from './pipeline.bench'

/** `npm run bench`: every benchmark, printed as figures (tests never assert on time). `-- --quick` for a short run. */
const quick = process.argv.includes('--quick')
console.log('Mailrow benchmarks (figures vary with the machine; compare runs on the same one)\n')
console.log('— accounts —')
await runAuthBench()
console.log('\n— pipeline (Google emulator; PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432) —')
await runPipelineBench({ quick })
