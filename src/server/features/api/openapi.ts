import { z } from 'zod'
import { apiErrorSchema } from '@shared/contracts/api'

type Method = 'get' | 'post' | 'patch' | 'delete'

/** One operation of REST API v1, described by the zod contracts its handler validates with. */
export type Operation = {
  method: Method
  /** OpenAPI style: /parsers/{id} */
  path: string
  operationId: string
  summary: string
  description?: string
  tag: string
  params?: z.ZodObject
  query?: z.ZodObject
  headers?: Array<{ name: string; description: string; schema: z.ZodType }>
  /** JSON body; `rfc822` adds the raw message as a second form. */
  body?: { schema: z.ZodType; rfc822?: boolean }
  responses: Record<number, { description: string; schema?: z.ZodType; headers?: string[] }>
  /** Public: no API key (the document itself). */
  public?: boolean
}

/** JSON Schema (2020-12, OpenAPI 3.1's dialect) of a contract, as the request or the answer sees it. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>
  return rest
}

function parameters(where: 'path' | 'query', schema: z.ZodObject) {
  const whole = jsonSchema(schema, 'input') as { properties?: Record<string, Record<string, unknown>>; required?: string[] }
  return Object.entries(whole.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property
    return {
      name,
      in: where,
      required: where === 'path' || (whole.required ?? []).includes(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    }
  })
}

const RATE_HEADERS = {
  'RateLimit-Limit': { description: 'Requests this key may make per window', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in this window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
}

const error = (description: string, extraHeaders: Record<string, unknown> = {}) => ({
  description,
  headers: { ...RATE_HEADERS, ...extraHeaders },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
})

/** The OpenAPI 3.1 document of the operations: the same zod schemas the handlers validate with. */
export function buildOpenApiDocument(operations: Operation[], { serverUrl }: { serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const op of operations) {
    const responses: Record<string, unknown> = {}
    for (const [status, response] of Object.entries(op.responses)) {
      responses[status] = {
        description: response.description,
        ...(op.public ? {} : { headers: RATE_HEADERS }),
        ...(response.schema ? { content: { 'application/json': { schema: jsonSchema(response.schema, 'output') } } } : {}),
      }
    }
    if (!op.public) {
      responses['400'] ??= error('Bad input: the message says which')
      responses['401'] = error('No API key, or one that is revoked, expired or unknown')
      responses['403'] = error('The account is not on the Pro plan')
      responses['429'] = error('Too many requests with this key', { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } })
    }
    const content: Record<string, unknown> = {}
    if (op.body) {
      content['application/json'] = { schema: jsonSchema(op.body.schema, 'input') }
      if (op.body.rfc822) content['message/rfc822'] = { schema: { type: 'string', contentMediaType: 'message/rfc822' } }
    }
    paths[op.path] ??= {}
    paths[op.path]![op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.tag],
      ...(op.public ? { security: [] } : {}),
      parameters: [
        ...(op.params ? parameters('path', op.params) : []),
        ...(op.query ? parameters('query', op.query) : []),
        ...(op.headers ?? []).map((h) => ({ name: h.name, in: 'header', required: false, description: h.description, schema: jsonSchema(h.schema, 'input') })),
      ],
      ...(op.body ? { requestBody: { required: true, content } } : {}),
      responses,
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Mailrow API',
      version: '1.0.0',
      description:
        'Parsers, parsed emails and usage of your Mailrow account, and email submission from any source. ' +
        'Authenticate with an API key from Settings → API keys: `Authorization: Bearer mrw_…`. The API is part of the Pro plan. ' +
        'Errors answer `{ "error": { "code", "message" } }`.',
    },
    servers: [{ url: `${serverUrl}/api/v1` }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Parsers', description: 'Create, change, pause and delete parsers' },
      { name: 'Emails', description: 'Parsed emails, and emails submitted through the API' },
      { name: 'Usage', description: "This month's usage" },
      { name: 'Reference', description: 'This document' },
    ],
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key (mrw_…)' } },
      schemas: { Error: jsonSchema(apiErrorSchema, 'output') },
    },
    paths,
  }
}
