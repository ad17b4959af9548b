import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eml } from './testing/eml'
import { startFakeAiServer, type FakeAiServer } from './testing/fake-ai-server'

const run = promisify(execFile)
const ROOT = join(import.meta.dirname, '..', '..')

type CliRun = { code: number; stdout: string; stderr: string }

/** Runs the CLI the way the contract says, through the package's `mailrow` bin. */
async function mailrow(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(ROOT, 'bin', 'mailrow.js'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

let dir: string
let ai: FakeAiServer
const file = (name: string) => join(dir, name)

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mailrow-cli-'))
  ai = await startFakeAiServer()
  await writeFile(file('sample.eml'), eml({ text: 'Order #1001\nTotal: $25.00\nThanks!' }))
  await writeFile(file('fields.json'), JSON.stringify([{ name: 'Order', value: '1001' }, { name: 'Total', value: '$25.00' }]))
  await writeFile(file('a.eml'), eml({ text: 'Order #20394\nTotal: $12,345.67\nThanks!' }))
  await writeFile(file('b.eml'), eml({ text: 'Order #7\nThanks!' }))
  await writeFile(file('garbage.eml'), Buffer.from([0, 1, 2, 255, 254, 0, 7]))
  await writeFile(file('not-json.json'), '[{"name": "Order"')
})
afterAll(async () => {
  await ai.close()
  await rm(dir, { recursive: true, force: true })
})

describe('mailrow extract', () => {
  it('prints one JSON line per target, in order, and exits 0 whatever it found', async () => {
    const targets = [file('a.eml'), file('b.eml'), file('garbage.eml'), file('missing.eml')]
    const { code, stdout } = await mailrow(['extract', '--sample', file('sample.eml'), '--fields', file('fields.json'), ...targets])
    expect(code).toBe(0)
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l))
    // Each line also says how sure the parser is of each field (0..1); 0 where nothing was found.
    expect(lines.map((l) => l.confidence)).toEqual([
      { Order: expect.closeTo(0.95, 1), Total: expect.closeTo(0.95, 1) },
      { Order: expect.closeTo(0.95, 1), Total: 0 },
      { Order: 0, Total: 0 },
      { Order: 0, Total: 0 },
    ])
    expect(lines.map(({ confidence: _, ...rest }) => rest)).toEqual([
      { file: targets[0], status: 'success', fields: { Order: '20394', Total: '$12,345.67' }, method: 'template', error: null },
      { file: targets[1], status: 'partial', fields: { Order: '7', Total: null }, method: 'template', error: 'not found: Total (label "total" not found)' },
      { file: targets[2], status: 'failed', fields: { Order: null, Total: null }, method: 'template', error: 'not an RFC 822 message: binary data in the header' },
      { file: targets[3], status: 'failed', fields: { Order: null, Total: null }, method: 'template', error: 'cannot read the file (ENOENT)' },
    ])
  })

  it.each([
    ['no command', [], /^mailrow: usage: mailrow extract --sample/],
    ['no sample', ['extract', '--fields', 'f.json', 'a.eml'], /^mailrow: --sample is required/],
    ['no targets', ['extract', '--sample', 's.eml', '--fields', 'f.json'], /^mailrow: no TARGET\.eml given/],
    ['an unknown type', ['extract', '--sample', 's.eml', '--fields', 'f.json', '--type', 'magic', 'a.eml'], /^mailrow: --type must be one of template, smart_ai, full_ai/],
  ])('exits 2 with one line for %s', async (_, args, message) => {
    const { code, stdout, stderr } = await mailrow(args)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toMatch(message)
  })

  it('exits 2 for an unreadable sample or fields file', async () => {
    const missingSample = await mailrow(['extract', '--sample', file('nope.eml'), '--fields', file('fields.json'), file('a.eml')])
    expect(missingSample).toMatchObject({ code: 2, stdout: '' })
    expect(missingSample.stderr).toBe(`mailrow: cannot read the sample "${file('nope.eml')}" (ENOENT)\n`)
    const badFields = await mailrow(['extract', '--sample', file('sample.eml'), '--fields', file('not-json.json'), file('a.eml')])
    expect(badFields).toMatchObject({ code: 2, stderr: `mailrow: the fields file "${file('not-json.json')}" is not valid JSON\n` })
    const badSample = await mailrow(['extract', '--sample', file('garbage.eml'), '--fields', file('fields.json'), file('a.eml')])
    expect(badSample).toMatchObject({ code: 2, stderr: 'mailrow: the sample email cannot be read: not an RFC 822 message: binary data in the header\n' })
  })

  it('uses the AI provider from AI_* variables for --type smart_ai', async () => {
    ai.reply({ content: JSON.stringify({ Order: '7', Total: '$3.00' }) })
    const env = { AI_BASE_URL: ai.baseUrl, AI_API_KEY: 'k', AI_MODEL_SMART: 'small-model' }
    const { code, stdout } = await mailrow(['extract', '--sample', file('sample.eml'), '--fields', file('fields.json'), '--type', 'smart_ai', file('b.eml')], env)
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({ file: file('b.eml'), status: 'success', fields: { Order: '7', Total: '$3.00' }, method: 'template+smart_ai', error: null })
    expect(ai.requests.at(-1)!.model).toBe('small-model')
    const unconfigured = await mailrow(['extract', '--sample', file('sample.eml'), '--fields', file('fields.json'), '--type', 'full_ai', file('b.eml')])
    // Without a provider the template's values still come through.
    expect(JSON.parse(unconfigured.stdout)).toMatchObject({ status: 'partial', method: 'template', error: 'AI provider not configured' })
  })
})
