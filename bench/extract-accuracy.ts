import { join } from 'node:path'
import { evaluateCorpus } from '../src/engine/corpus-eval'

/**
 * `npm run eval:extract`: trains the template parser on one email per sender template and prints
 * field-level exact-match accuracy per template and overall. `--misses` lists every wrong field.
 */
const dir = join(import.meta.dirname, '..', 'tests', 'fixtures', 'corpus')
const showMisses = process.argv.includes('--misses')
const score = await evaluateCorpus(dir)
const pct = (x: number) => `${(x * 100).toFixed(1)}%`
console.log('template parser, trained on 001.eml of each sender template, exact match per field\n')
console.log(`${'template'.padEnd(24)} ${'emails'.padStart(6)} ${'fields'.padStart(7)} ${'correct'.padStart(8)} ${'accuracy'.padStart(9)}`)
for (const t of score.templates) {
  console.log(`${t.template.padEnd(24)} ${String(t.emails).padStart(6)} ${String(t.fields).padStart(7)} ${String(t.correct).padStart(8)} ${pct(t.accuracy).padStart(9)}`)
  if (showMisses) for (const m of t.misses) console.log(`    ${m.file} ${m.field}: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.got)}`)
}
console.log(`\noverall: ${score.correct}/${score.fields} fields, ${pct(score.accuracy)} (target ≥ 99%)`)
