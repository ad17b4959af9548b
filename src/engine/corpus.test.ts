import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CORPUS_DIR, generateTemplate } from '../../tests/fixtures/corpus/generate'
import { TEMPLATES } from '../../tests/fixtures/corpus/templates'
import { evaluateCorpus } from './corpus-eval'

describe('accuracy corpus', () => {
  it('is exactly what the seeded generator writes (regenerate with tests/fixtures/corpus/generate.ts)', async () => {
    expect(TEMPLATES.length).toBeGreaterThanOrEqual(12)
    for (const template of TEMPLATES) {
      for (const generated of generateTemplate(template)) {
        const committed = await readFile(join(CORPUS_DIR, template.id, generated.path))
        expect(committed.equals(Buffer.from(generated.content)), `${template.id}/${generated.path}`).toBe(true)
      }
    }
  })

  it('the template parser, trained on one email per sender, gets at least 99% of fields exactly right', async () => {
    const score = await evaluateCorpus(CORPUS_DIR)
    const misses = score.templates.flatMap((t) => t.misses.map((m) => `${t.template}/${m.file} ${m.field}: ${JSON.stringify(m.got)} ≠ ${JSON.stringify(m.expected)}`))
    expect(score.templates.length).toBeGreaterThanOrEqual(12)
    expect(score.templates.every((t) => t.emails >= 20)).toBe(true)
    expect(score.accuracy, misses.slice(0, 20).join('\n')).toBeGreaterThanOrEqual(0.99)
  })
})
