import { runAuthBench } from './auth.bench'

/** `npm run bench`: every benchmark, printed as figures (tests never assert on time). */
console.log('Mailrow benchmarks (figures vary with the machine; compare runs on the same one)\n')
console.log('— accounts —')
await runAuthBench()
