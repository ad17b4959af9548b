import { useQuery } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { paths } from '@shared/paths'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { Field } from '../../components/ui/field'
import { Input } from '../../components/ui/input'
import { Spinner } from '../../components/ui/spinner'

type Schema = Record<string, unknown>
type Parameter = { name: string; in: 'path' | 'query' | 'header'; required: boolean; description?: string; schema: Schema }
type Operation = {
  operationId: string
  summary: string
  description?: string
  tags: string[]
  security?: unknown[]
  parameters: Parameter[]
  requestBody?: { content: Record<string, { schema: Schema }> }
  responses: Record<string, { description: string }>
}
type OpenApiDocument = {
  info: { title: string; version: string; description: string }
  servers: Array<{ url: string }>
  tags: Array<{ name: string; description: string }>
  paths: Record<string, Record<string, Operation>>
}

const DOCUMENT_URL = '/api/v1/openapi.json'
const BASE = '/api/v1'

const METHOD_STYLE: Record<string, string> = {
  get: 'bg-sky-100 text-sky-900',
  post: 'bg-emerald-100 text-emerald-900',
  patch: 'bg-amber-100 text-amber-900',
  delete: 'bg-red-100 text-red-900',
}

/**
 * The REST API's interactive reference, rendered from the OpenAPI document the server builds from
 * its zod contracts (no CDN: the page is part of the app). Each operation can be tried with a key.
 */
export function ApiDocsPage() {
  const doc = useQuery({
    queryKey: ['openapi'],
    queryFn: async () => {
      const answer = await fetch(DOCUMENT_URL)
      if (!answer.ok) throw new Error(`The API document could not be loaded (${answer.status})`)
      return (await answer.json()) as OpenApiDocument
    },
  })
  const [apiKey, setApiKey] = useState('')

  return (
    <main className="mx-auto flex max-w-4xl flex-col gap-8 px-4 py-10">
      {doc.isPending ? (
        <Spinner className="size-8" label="Loading the API reference" />
      ) : doc.isError ? (
        <p role="alert" className="text-destructive">
          {doc.error.message}
        </p>
      ) : (
        <>
          <header className="flex flex-col gap-3">
            <h1 className="text-3xl font-bold tracking-tight">{doc.data.info.title} reference</h1>
            <p className="text-muted-foreground">{doc.data.info.description.replace(/`/g, '')}</p>
            <p className="text-sm">
              Base URL <code className="rounded bg-muted px-1 font-mono">{doc.data.servers[0]?.url}</code> · version {doc.data.info.version} ·{' '}
              <a className="underline underline-offset-4" href={DOCUMENT_URL}>
                OpenAPI document
              </a>{' '}
              · keys in <Link className="underline underline-offset-4" to={`${paths.settings}#api-keys`}>Settings → API keys</Link>
            </p>
            <Field label='API key for "Try it"' className="max-w-md gap-1.5">
              {(control) => <Input {...control} type="password" autoComplete="off" placeholder="mrw_…" value={apiKey} onChange={(e) => setApiKey(e.target.value.trim())} />}
            </Field>
          </header>
          {doc.data.tags.map((tag) => {
            const operations = Object.entries(doc.data.paths).flatMap(([path, methods]) =>
              Object.entries(methods)
                .filter(([, op]) => op.tags.includes(tag.name))
                .map(([method, op]) => ({ path, method, op })),
            )
            if (operations.length === 0) return null
            return (
              <section key={tag.name} aria-labelledby={`tag-${tag.name}`} className="flex flex-col gap-4">
                <div>
                  <h2 id={`tag-${tag.name}`} className="text-xl font-semibold">
                    {tag.name}
                  </h2>
                  <p className="text-sm text-muted-foreground">{tag.description}</p>
                </div>
                {operations.map(({ path, method, op }) => (
                  <OperationCard key={op.operationId} path={path} method={method} op={op} apiKey={apiKey} />
                ))}
              </section>
            )
          })}
        </>
      )}
    </main>
  )
}

function exampleBody(schema: Schema | undefined): string {
  if (!schema) return ''
  const properties = (schema.properties ?? (schema.anyOf as Schema[] | undefined)?.[0]?.properties ?? {}) as Record<string, Schema>
  const required = (schema.required ?? []) as string[]
  const example = Object.fromEntries(Object.entries(properties).filter(([name]) => required.includes(name) || Object.keys(properties).length <= 2).map(([name, s]) => [name, s.type === 'boolean' ? true : s.type === 'array' ? [] : s.type === 'object' ? {} : '']))
  return JSON.stringify(example, null, 2)
}

function OperationCard({ path, method, op, apiKey }: { path: string; method: string; op: Operation; apiKey: string }) {
  const [values, setValues] = useState<Record<string, string>>({})
  const jsonSchema = op.requestBody?.content['application/json']?.schema
  const [body, setBody] = useState(() => exampleBody(jsonSchema))
  const [result, setResult] = useState<{ status: number; text: string } | null>(null)
  const [sending, setSending] = useState(false)
  const isPublic = Array.isArray(op.security) && op.security.length === 0
  const anchor = op.operationId

  async function send(event: FormEvent) {
    event.preventDefault()
    let url = path
    const query = new URLSearchParams()
    const headers: Record<string, string> = {}
    for (const p of op.parameters) {
      const value = values[p.name] ?? ''
      if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(value))
      else if (value && p.in === 'query') query.set(p.name, value)
      else if (value && p.in === 'header') headers[p.name] = value
    }
    if (apiKey && !isPublic) headers.authorization = `Bearer ${apiKey}`
    if (jsonSchema) headers['content-type'] = 'application/json'
    setSending(true)
    try {
      const answer = await fetch(`${BASE}${url}${query.size ? `?${query}` : ''}`, { method: method.toUpperCase(), headers, body: jsonSchema ? body : undefined })
      const text = await answer.text()
      let shown = text
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2)
      } catch {
        // not JSON: shown as sent
      }
      setResult({ status: answer.status, text: shown })
    } catch (error) {
      setResult({ status: 0, text: error instanceof Error ? error.message : String(error) })
    } finally {
      setSending(false)
    }
  }

  return (
    <article id={anchor} aria-labelledby={`${anchor}-title`} className="flex flex-col gap-3 rounded-lg border bg-card p-4">
      <div className="flex flex-wrap items-center gap-2">
        <span className={`rounded px-2 py-0.5 font-mono text-xs font-semibold uppercase ${METHOD_STYLE[method] ?? ''}`}>{method}</span>
        <code className="font-mono text-sm">{path}</code>
        {isPublic ? <Badge variant="secondary">No key needed</Badge> : null}
      </div>
      <h3 id={`${anchor}-title`} className="font-semibold">
        {op.summary}
      </h3>
      {op.description ? <p className="text-sm text-muted-foreground">{op.description.replace(/`/g, '')}</p> : null}
      {jsonSchema ? (
        <details className="text-sm">
          <summary className="cursor-pointer">Request body schema</summary>
          <pre className="mt-2 max-h-80 overflow-auto rounded bg-muted p-2 text-xs">{JSON.stringify(jsonSchema, null, 2)}</pre>
        </details>
      ) : null}
      <p className="text-sm">
        Responses:{' '}
        {Object.entries(op.responses).map(([status, r]) => (
          <span key={status} className="mr-3 inline-block" title={r.description}>
            <code className="font-mono">{status}</code> {r.description}
          </span>
        ))}
      </p>
      <form className="flex flex-col gap-2" onSubmit={(e) => void send(e)} aria-label={`Try ${op.summary}`}>
        {op.parameters.map((p) => (
          <Field
            key={`${p.in}-${p.name}`}
            label={
              <>
                {p.name} <span className="font-normal text-muted-foreground">({p.in}{p.required ? ', required' : ''}){p.description ? `: ${p.description}` : ''}</span>
              </>
            }
            className="gap-1"
          >
            {(control) => <Input {...control} value={values[p.name] ?? ''} onChange={(e) => setValues({ ...values, [p.name]: e.target.value })} />}
          </Field>
        ))}
        {jsonSchema ? (
          <Field label="JSON body" className="gap-1">
            {(control) => <textarea {...control} className="min-h-24 rounded-md border bg-background p-2 font-mono text-xs" value={body} onChange={(e) => setBody(e.target.value)} />}
          </Field>
        ) : null}
        <div>
          <Button type="submit" size="sm" variant="outline" disabled={sending}>
            {sending ? 'Sending...' : 'Try it'}
          </Button>
        </div>
      </form>
      {result ? (
        <div role="status" className="flex flex-col gap-1 text-sm">
          <p>
            Answer: <strong data-testid={`${anchor}-status`}>{result.status || 'network error'}</strong>
          </p>
          <pre className="max-h-80 overflow-auto rounded bg-muted p-2 text-xs">{result.text}</pre>
        </div>
      ) : null}
    </article>
  )
}
