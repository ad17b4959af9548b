import { join } from 'node:path'
import { evaluateCorpus, TARGETS, type SplitScore, type Tally, type TemplateScore } from '../src/engine/corpus-eval'

/**
 * `npm run eval:extract`: trains the template parser on each sender template's first email (then
 * on its first two) and prints field-level exact-match accuracy for the tuning set, template by
 * template, and for the held-out set as one figure. `--misses` lists the tuning set's wrong fields;
 * `--show-held-out` also shows the held-out templates one by one (and their misses with --misses):
 * look at them only to measure, never to tune rules.
 */
const dir = join(import.meta.dirname, '..', 'tests', 'fixtures', 'corpus')
const showMisses = process.argv.includes('--misses')
const showHeldOut = process.argv.includes('--show-held-out')
const score = await evaluateCorpus(dir)

const pct = (x: number, digits = 1) => `${(x * 100).toFixed(digits)}%`
const of = (correct: number, total: number) => `${correct}/${total}`

function printTemplates(templates: TemplateScore[]) {
  console.log(`${'template'.padEnd(28)} ${'emails'.padStart(6)} ${'fields'.padStart(7)} ${'correct'.padStart(8)} ${'accuracy'.padStart(9)} ${'silently wrong'.padStart(15)} ${'2 samples'.padStart(10)}`)
  for (const t of templates) {
    console.log(
      `${t.template.padEnd(28)} ${String(t.emails).padStart(6)} ${String(t.fields).padStart(7)} ${String(t.correct).padStart(8)} ${pct(t.accuracy).padStart(9)} ${String(t.oneSample.silentlyWrong).padStart(15)} ${pct(t.twoSamples.accuracy).padStart(10)}`,
    )
    if (showMisses) for (const m of t.misses) console.log(`    ${m.file} ${m.field} [${m.status}]: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.got)}`)
    if (showMisses && process.argv.includes('--one-item') && t.oneItemSample) for (const m of t.oneItemSample.misses) console.log(`    1 item (${t.oneItemSample.sample}) ${m.file} ${m.field} [${m.status}]: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.got)}`)
    if (showMisses && process.argv.includes("--two")) for (const m of t.twoSampleMisses) console.log(`    2× ${m.file} ${m.field} [${m.status}]: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.got)}`)
  }
}

function printTally(t: Tally, heldOut: boolean) {
  const target = heldOut ? ` (target ≥ ${pct(TARGETS.heldOutAccuracy, 0)})` : ''
  console.log(`    fields      ${of(t.correct, t.fields).padStart(11)}  ${pct(t.accuracy, 2).padStart(7)}${target}`)
  console.log(`    scalar      ${of(t.scalar.correct, t.scalar.fields).padStart(11)}  ${pct(t.scalar.accuracy, 2).padStart(7)}`)
  console.log(`    line items  ${of(t.lineItems.correct, t.lineItems.fields).padStart(11)}  ${pct(t.lineItems.accuracy, 2).padStart(7)}`)
  console.log(
    `    silently wrong (wrong non-empty value in a "success" result): ${t.silentlyWrong} = ${pct(t.silentlyWrong / Math.max(1, t.fields), 2)} of fields (target ≤ ${pct(TARGETS.silentlyWrongRate, 1)})`,
  )
  console.log(`    wrong non-empty value, any status: ${t.wrongNonEmpty} = ${pct(t.wrongNonEmpty / Math.max(1, t.fields), 2)} of fields`)
}

function printSplit(title: string, s: SplitScore, heldOut: boolean) {
  console.log(`\n${title}: ${s.templates} templates`)
  console.log(`  one sample (train on 001, score 002–025), ${s.oneSample.emails} emails:`)
  printTally(s.oneSample, heldOut)
  console.log(`  two samples (train on 001 + 002 with trainParserFromSamples, score 003–025), ${s.twoSamples.emails} emails:`)
  printTally(s.twoSamples, heldOut)
  console.log(`    for comparison, one sample on the same 003–025: ${of(s.oneSampleFrom003.correct, s.oneSampleFrom003.fields)} ${pct(s.oneSampleFrom003.accuracy, 2)}, silently wrong ${s.oneSampleFrom003.silentlyWrong}`)
  const o = s.oneItemSample
  console.log(`  one sample with one item (the first of 002–025 showing one item, score the rest), ${o.templates} templates with line items, ${o.emails} emails:`)
  console.log(`    line items  ${of(o.lineItems.correct, o.lineItems.fields).padStart(11)}  ${pct(o.lineItems.accuracy, 2).padStart(7)}`)
  console.log(`    all fields  ${of(o.correct, o.fields).padStart(11)}  ${pct(o.accuracy, 2).padStart(7)}, silently wrong ${o.silentlyWrong} = ${pct(o.silentlyWrong / Math.max(1, o.fields), 2)} of fields`)
}

console.log('template parser, exact match per field\n')
console.log('tuning set')
printTemplates(score.templates.filter((t) => !t.heldOut))
if (showHeldOut) {
  console.log('\nheld-out set (measure only: do not tune rules on these)')
  printTemplates(score.templates.filter((t) => t.heldOut))
}
printSplit('TUNING SET', score.tuning, false)
printSplit('HELD-OUT SET', score.heldOut, true)
if (!showHeldOut && score.heldOut.templates > 0) console.log('\n(held-out templates are summarised; --show-held-out lists them, for measuring only)')
