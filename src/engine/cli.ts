import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { PARSER_TYPES, type ParserType } from '../shared/plans'
import type { AiProviderConfig } from './ai'
import { runParser, trainParser } from './extract'

const USAGE = 'usage: mailrow extract --sample SAMPLE.eml --fields FIELDS.json [--type template|smart_ai|full_ai] TARGET.eml...'

/** Exit 2: the arguments, the sample or the fields file cannot be used. */
class UsageError extends Error {}

const optional = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional()

/**
 * The CLI is its own program, not the server: it cannot use src/server/env.ts (the engine
 * imports only shared code), so it validates the few AI variables it needs here.
 */
const aiEnvSchema = z.object({
  AI_BASE_URL: optional.refine((v) => v === undefined || (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)), {
    error: 'AI_BASE_URL must be an http(s) URL',
  }),
  AI_API_KEY: optional,
  AI_MODEL_SMART: optional,
  AI_MODEL_FULL: optional,
})

function aiConfig(env: Record<string, string | undefined>): AiProviderConfig | null {
  const parsed = aiEnvSchema.safeParse(env)
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? 'invalid AI configuration')
  const { AI_BASE_URL, AI_API_KEY, AI_MODEL_SMART, AI_MODEL_FULL } = parsed.data
  if (!AI_BASE_URL) return null
  return {
    baseUrl: AI_BASE_URL,
    apiKey: AI_API_KEY,
    models: { smart: AI_MODEL_SMART ?? 'gpt-4o-mini', full: AI_MODEL_FULL ?? 'gpt-4o' },
  }
}

function parseCommandLine(argv: string[]) {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        sample: { type: 'string' },
        fields: { type: 'string' },
        type: { type: 'string', default: 'template' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; ${USAGE}`)
  }
  const { values, positionals } = parsed
  const [command, ...targets] = positionals
  if (values.help) return null
  if (command !== 'extract') throw new UsageError(command ? `unknown command "${command}"; ${USAGE}` : USAGE)
  if (!values.sample) throw new UsageError(`--sample is required; ${USAGE}`)
  if (!values.fields) throw new UsageError(`--fields is required; ${USAGE}`)
  if (!PARSER_TYPES.includes(values.type as ParserType)) throw new UsageError(`--type must be one of ${PARSER_TYPES.join(', ')}`)
  if (targets.length === 0) throw new UsageError(`no TARGET.eml given; ${USAGE}`)
  return { sample: values.sample, fields: values.fields, type: values.type as ParserType, targets }
}

async function readOrExplain(path: string, what: string): Promise<Buffer> {
  try {
    return await readFile(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new UsageError(`cannot read the ${what} ${JSON.stringify(path)}${code ? ` (${code})` : ''}`)
  }
}

async function main(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const args = parseCommandLine(argv)
  if (!args) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  const ai = args.type === 'template' ? null : aiConfig(env)
  const fieldsText = (await readOrExplain(args.fields, 'fields file')).toString('utf8')
  let fieldsJson: unknown
  try {
    fieldsJson = JSON.parse(fieldsText)
  } catch {
    throw new UsageError(`the fields file ${JSON.stringify(args.fields)} is not valid JSON`)
  }
  if (!Array.isArray(fieldsJson)) throw new UsageError(`the fields file must hold a JSON array like [{"name":"Total","value":"$25.00"}]`)
  const sample = await readOrExplain(args.sample, 'sample')
  const trained = await trainParser(sample, fieldsJson)
  if (!trained.ok) throw new UsageError(trained.reason)
  if (trained.unmatched.length > 0) {
    process.stderr.write(`mailrow: warning: not found in the sample: ${trained.unmatched.join(', ')}\n`)
  }
  for (const file of args.targets) {
    let line: Record<string, unknown>
    let bytes: Buffer | null = null
    try {
      bytes = await readFile(file)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      line = {
        file,
        status: 'failed',
        fields: Object.fromEntries(trained.template.fields.map((f) => [f.name, null])),
        method: args.type,
        error: `cannot read the file${code ? ` (${code})` : ''}`,
        confidence: Object.fromEntries(trained.template.fields.map((f) => [f.name, 0])),
      }
    }
    if (bytes) {
      const result = await runParser(trained.template, bytes, { parserType: args.type, ai, parseAttachments: args.type === 'full_ai' })
      // `confidence` was added after the contract's first keys; every earlier key keeps its meaning.
      const confidence = Object.fromEntries(Object.entries(result.details).map(([name, d]) => [name, d.confidence]))
      line = { file, status: result.status, fields: result.fields, method: result.method, error: result.error, confidence }
    }
    process.stdout.write(`${JSON.stringify(line!)}\n`)
  }
  return 0
}

// eslint-disable-next-line no-restricted-properties -- the CLI is a separate program from the server; it validates its own AI_* variables above.
const env = process.env
main(process.argv.slice(2), env).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`mailrow: ${error.message.replace(/\s*\n\s*/g, ' ')}\n`)
      process.exitCode = 2
      return
    }
    process.stderr.write(`mailrow: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exitCode = 1
  },
)
