import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runParser, trainParser } from './extract'

/** Field-level exact-match accuracy of the template parser over the corpus in tests/fixtures/corpus. */
export type Miss = { file: string; field: string; expected: string | null; got: string | null }
export type TemplateScore = { template: string; emails: number; fields: number; correct: number; accuracy: number; misses: Miss[] }
export type CorpusScore = { templates: TemplateScore[]; fields: number; correct: number; accuracy: number }

export const SAMPLE_FILE = '001.eml'

/** Trains on each template's 001.eml and its fields.json, then scores every other email against truth.json. */
export async function evaluateCorpus(dir: string): Promise<CorpusScore> {
  const templates: TemplateScore[] = []
  const names = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'truth.json')))
  for (const { name } of names.sort((a, b) => a.name.localeCompare(b.name))) {
    const base = join(dir, name)
    const fields = JSON.parse(await readFile(join(base, 'fields.json'), 'utf8'))
    const truth: Record<string, Record<string, string | null>> = JSON.parse(await readFile(join(base, 'truth.json'), 'utf8'))
    const trained = await trainParser(await readFile(join(base, SAMPLE_FILE)), fields)
    if (!trained.ok) throw new Error(`${name}: ${trained.reason}`)
    const score: TemplateScore = { template: name, emails: 0, fields: 0, correct: 0, accuracy: 0, misses: [] }
    for (const [file, expected] of Object.entries(truth)) {
      if (file === SAMPLE_FILE) continue
      const result = await runParser(trained.template, await readFile(join(base, file)))
      score.emails++
      for (const [field, want] of Object.entries(expected)) {
        const got = result.fields[field] ?? null
        score.fields++
        if (got === want) score.correct++
        else score.misses.push({ file, field, expected: want, got })
      }
    }
    score.accuracy = score.fields === 0 ? 1 : score.correct / score.fields
    templates.push(score)
  }
  const fieldsTotal = templates.reduce((n, t) => n + t.fields, 0)
  const correct = templates.reduce((n, t) => n + t.correct, 0)
  return { templates, fields: fieldsTotal, correct, accuracy: fieldsTotal === 0 ? 1 : correct / fieldsTotal }
}
