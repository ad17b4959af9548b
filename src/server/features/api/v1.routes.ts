import { Hono } from 'hono'
import { z } from 'zod'
import {
  apiCreateParserInputSchema,
  apiEmailDetailSchema,
  apiEmailsPageSchema,
  apiEmailsQuerySchema,
  apiParserSchema,
  apiSubmitEmailJsonSchema,
  apiUpdateParserInputSchema,
  apiUsageSchema,
  IDEMPOTENCY_KEY_MAX,
} from '@shared/contracts/api'
import { createWebhookInputSchema, updateWebhookInputSchema, webhookDeliveryViewSchema, webhookEndpointViewSchema } from '@shared/contracts/webhooks'
import { AppError } from '../../lib/errors'
import { validate } from '../../lib/validate'
import { createParser, deleteParser, listParsers, updateParser } from '../parsers/parsers.service'
import type { PipelineDeps } from '../pipeline/pipeline.service'
import { getMonthlyUsage } from '../usage/usage.service'
import { createWebhookHandlers, webhookDeliveriesQuery, webhookDeliveryParam, webhookIdParam } from '../webhooks/webhooks.routes'
import { requireApiKey, type ApiEnv } from './api-auth'
import { getEmail, listEmails, reprocessEmail, submitEmail } from './api.service'
import { buildOpenApiDocument, type Operation } from './openapi'

const parserParam = z.object({ id: z.uuid({ error: 'Parser not found' }).describe('Parser id') })
const emailParam = z.object({ id: z.uuid({ error: 'Parsed email not found' }).describe('Parsed email id') })
const idempotencyKeySchema = z.string().min(1).max(IDEMPOTENCY_KEY_MAX)

const parserAnswer = z.object({ parser: apiParserSchema })
const emailAnswer = z.object({ email: apiEmailDetailSchema })
const webhookAnswer = z.object({ webhook: webhookEndpointViewSchema })
const deliveryAnswer = z.object({ delivery: webhookDeliveryViewSchema })
const noWebhook = { 404: { description: 'No such webhook endpoint of yours' } }

/** Every operation of v1: the document is built from this list, and a test calls each one. */
export const V1_OPERATIONS: Operation[] = [
  { method: 'get', path: '/openapi.json', operationId: 'getOpenApi', summary: 'This OpenAPI 3.1 document', tag: 'Reference', public: true, responses: { 200: { description: 'The document' } } },
  { method: 'get', path: '/parsers', operationId: 'listParsers', summary: 'List your parsers', tag: 'Parsers', responses: { 200: { description: 'Your parsers, newest first', schema: z.object({ parsers: z.array(apiParserSchema) }) } } },
  {
    method: 'post',
    path: '/parsers',
    operationId: 'createParser',
    summary: 'Create a parser',
    description:
      "As the wizard does: the fields' values as highlighted in a sample email, which is a Gmail message of the connected account (`sample.messageId`) or an uploaded email (`sample.raw`, base64). The spreadsheet is created (`destination.type: new`) or checked (`existing`).",
    tag: 'Parsers',
    body: { schema: apiCreateParserInputSchema },
    responses: { 201: { description: 'The parser', schema: parserAnswer.extend({ spreadsheetUrl: z.string(), createdSpreadsheet: z.boolean() }) }, 404: { description: 'Sample email not found' } },
  },
  { method: 'get', path: '/parsers/{id}', operationId: 'getParser', summary: 'Get a parser', tag: 'Parsers', params: parserParam, responses: { 200: { description: 'The parser', schema: parserAnswer }, 404: { description: 'No such parser of yours' } } },
  {
    method: 'patch',
    path: '/parsers/{id}',
    operationId: 'updateParser',
    summary: 'Rename, pause or resume a parser',
    tag: 'Parsers',
    params: parserParam,
    body: { schema: apiUpdateParserInputSchema },
    responses: { 200: { description: 'The parser', schema: parserAnswer }, 404: { description: 'No such parser of yours' } },
  },
  { method: 'post', path: '/parsers/{id}/pause', operationId: 'pauseParser', summary: 'Pause a parser', tag: 'Parsers', params: parserParam, responses: { 200: { description: 'The paused parser', schema: parserAnswer }, 404: { description: 'No such parser of yours' } } },
  { method: 'post', path: '/parsers/{id}/resume', operationId: 'resumeParser', summary: 'Resume a parser', tag: 'Parsers', params: parserParam, responses: { 200: { description: 'The running parser', schema: parserAnswer }, 404: { description: 'No such parser of yours' } } },
  { method: 'delete', path: '/parsers/{id}', operationId: 'deleteParser', summary: 'Delete a parser', description: 'Its parsed emails stay (as Unknown Parser).', tag: 'Parsers', params: parserParam, responses: { 204: { description: 'Deleted' }, 404: { description: 'No such parser of yours' } } },
  {
    method: 'post',
    path: '/parsers/{id}/emails',
    operationId: 'submitEmail',
    summary: 'Submit an email to a parser',
    description:
      'The email (an RFC 822 message, as `message/rfc822` or JSON `{ "raw": base64 }`, at most 1 MB per request) is parsed and written to the sheet like Gmail mail. The same message (same Message-ID) is parsed once. With `Idempotency-Key`, a retry returns the first answer (200) and creates nothing.',
    tag: 'Emails',
    params: parserParam,
    headers: [{ name: 'Idempotency-Key', description: 'Any unique string (up to 200 characters): a retry with the same key creates nothing new', schema: idempotencyKeySchema }],
    body: { schema: apiSubmitEmailJsonSchema, rfc822: true },
    responses: {
      201: { description: 'Submitted: the email and how it was parsed (pending when the worker will do it)', schema: emailAnswer },
      200: { description: 'Already submitted (same Idempotency-Key or same message): the earlier email', schema: emailAnswer },
      404: { description: 'No such parser of yours' },
      409: { description: 'The Idempotency-Key was used for a different request' },
    },
  },
  {
    method: 'get',
    path: '/emails',
    operationId: 'listEmails',
    summary: 'List parsed emails',
    description: 'Newest processed first, a page at a time: pass `nextCursor` as `cursor` for the next page. `since` and `until` filter on when the email was received.',
    tag: 'Emails',
    query: apiEmailsQuerySchema,
    responses: { 200: { description: 'A page of emails', schema: apiEmailsPageSchema }, 404: { description: 'parserId is not a parser of yours' } },
  },
  { method: 'get', path: '/emails/{id}', operationId: 'getEmail', summary: 'Get a parsed email', description: 'With its fields, the reason per empty field and its line items.', tag: 'Emails', params: emailParam, responses: { 200: { description: 'The email', schema: emailAnswer }, 404: { description: 'No such email of yours' } } },
  {
    method: 'post',
    path: '/emails/{id}/reprocess',
    operationId: 'reprocessEmail',
    summary: 'Reprocess a parsed email',
    description: "Runs the parser on the email again; rows already in the sheet are updated in place.",
    tag: 'Emails',
    params: emailParam,
    responses: { 200: { description: 'The email after reprocessing', schema: emailAnswer }, 404: { description: 'No such email of yours' }, 409: { description: "The email's parser was deleted" } },
  },
  { method: 'get', path: '/usage', operationId: 'getUsage', summary: "This month's usage", tag: 'Usage', responses: { 200: { description: 'Emails processed this calendar month (UTC) and the plan allowance', schema: z.object({ usage: apiUsageSchema }) } } },
  { method: 'get', path: '/webhooks', operationId: 'listWebhooks', summary: 'List your webhook endpoints', tag: 'Webhooks', responses: { 200: { description: 'Your endpoints', schema: z.object({ webhooks: z.array(webhookEndpointViewSchema) }) } } },
  {
    method: 'post',
    path: '/webhooks',
    operationId: 'createWebhook',
    summary: 'Add a webhook endpoint',
    description:
      'Events are signed per the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the `whsec_` secret in this answer. No `parserIds` means every parser. Private, loopback and link-local targets are refused.',
    tag: 'Webhooks',
    body: { schema: createWebhookInputSchema },
    responses: { 201: { description: 'The endpoint and its signing secret', schema: webhookAnswer.extend({ secret: z.string() }) }, 404: { description: 'A parser in parserIds is not yours' } },
  },
  {
    method: 'patch',
    path: '/webhooks/{id}',
    operationId: 'updateWebhook',
    summary: 'Change a webhook endpoint',
    description: 'Turning an endpoint back on (`enabled: true`) after Mailrow disabled it for failing clears the reason.',
    tag: 'Webhooks',
    params: webhookIdParam,
    body: { schema: updateWebhookInputSchema },
    responses: { 200: { description: 'The endpoint', schema: webhookAnswer }, ...noWebhook },
  },
  { method: 'delete', path: '/webhooks/{id}', operationId: 'deleteWebhook', summary: 'Delete a webhook endpoint', tag: 'Webhooks', params: webhookIdParam, responses: { 204: { description: 'Deleted' }, ...noWebhook } },
  { method: 'get', path: '/webhooks/{id}/secret', operationId: 'getWebhookSecret', summary: "A webhook endpoint's signing secret", tag: 'Webhooks', params: webhookIdParam, responses: { 200: { description: 'The secret', schema: z.object({ secret: z.string() }) }, ...noWebhook } },
  {
    method: 'get',
    path: '/webhooks/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: "A webhook endpoint's delivery log",
    description: 'Newest first, a page at a time: pass `nextBefore` as `before` for the next page. Each delivery lists its attempts (status code, time, response excerpt).',
    tag: 'Webhooks',
    params: webhookIdParam,
    query: webhookDeliveriesQuery,
    responses: { 200: { description: 'A page of deliveries', schema: z.object({ deliveries: z.array(webhookDeliveryViewSchema), nextBefore: z.string().nullable() }) }, ...noWebhook },
  },
  { method: 'post', path: '/webhooks/{id}/test', operationId: 'sendWebhookTestEvent', summary: 'Send a test event', description: 'A `webhook.test` event, sent now; the answer is its delivery log.', tag: 'Webhooks', params: webhookIdParam, responses: { 200: { description: 'The delivery', schema: deliveryAnswer }, ...noWebhook } },
  {
    method: 'post',
    path: '/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    operationId: 'redeliverWebhook',
    summary: 'Redeliver an event',
    description: 'Sends the same message again (same `webhook-id`, so a receiver that deduplicates sees one event).',
    tag: 'Webhooks',
    params: webhookDeliveryParam,
    responses: { 200: { description: 'The delivery', schema: deliveryAnswer }, 404: { description: 'No such endpoint or delivery of yours' } },
  },
]

/** What the pipeline needs to parse and write here and now (as the parser page's reprocess). */
function pipelineOf(c: { var: ApiEnv['Variables'] }): PipelineDeps {
  const { google, box, env, googleRetry, ai } = c.var.deps
  if (!google) throw new AppError('UNAVAILABLE', 'Google is not configured on this server.')
  return {
    access: { google, box, appUrl: env.APP_URL, retry: googleRetry, pushTopic: env.GMAIL_PUSH_TOPIC },
    ai,
    leaseMs: env.WORKER_LEASE_SECONDS * 1000,
    write: { ambiguousDeadlineMs: env.SHEETS_WRITE_DEADLINE_SECONDS * 1000 },
  }
}

/** Reads a submitted email: the raw message, or JSON with it in base64. */
async function readSubmittedEmail(c: { req: { header: (name: string) => string | undefined; arrayBuffer: () => Promise<ArrayBuffer>; json: () => Promise<unknown> } }): Promise<Uint8Array> {
  const type = (c.req.header('content-type') ?? '').toLowerCase()
  if (type.startsWith('message/rfc822')) {
    const raw = new Uint8Array(await c.req.arrayBuffer())
    if (raw.length === 0) throw new AppError('VALIDATION', 'The request body is empty: send the email')
    return raw
  }
  if (type.includes('json')) {
    const body = apiSubmitEmailJsonSchema.safeParse(await c.req.json().catch(() => undefined))
    if (!body.success) throw new AppError('VALIDATION', body.error.issues[0]?.message ?? 'raw: must be the email in base64')
    return Buffer.from(body.data.raw, 'base64')
  }
  throw new AppError('VALIDATION', 'Send the email as Content-Type: message/rfc822, or as JSON { "raw": "<base64>" }')
}

/** REST API v1 (issue 13): parsers, emails, usage and webhooks, behind API keys. */
export const v1Routes = new Hono<ApiEnv>()
  .get('/openapi.json', (c) => {
    c.header('Cache-Control', 'no-cache')
    return c.json(buildOpenApiDocument(V1_OPERATIONS, { serverUrl: c.var.deps.env.APP_URL }))
  })
  .use(requireApiKey)
  .get('/parsers', async (c) => c.json({ parsers: await listParsers(c.var.db, { userId: c.var.apiUserId }) }))
  .post('/parsers', validate('json', apiCreateParserInputSchema), async (c) => {
    const { access } = pipelineOf(c)
    return c.json(await createParser(c.var.db, { userId: c.var.apiUserId, input: c.req.valid('json'), access }), 201)
  })
  .get('/parsers/:id', validate('param', parserParam), async (c) => {
    const parser = (await listParsers(c.var.db, { userId: c.var.apiUserId })).find((p) => p.id === c.req.valid('param').id)
    if (!parser) throw new AppError('NOT_FOUND', 'Parser not found')
    return c.json({ parser })
  })
  .patch('/parsers/:id', validate('param', parserParam), validate('json', apiUpdateParserInputSchema), async (c) => {
    return c.json({ parser: await updateParser(c.var.db, { userId: c.var.apiUserId, parserId: c.req.valid('param').id, ...c.req.valid('json') }) })
  })
  .post('/parsers/:id/pause', validate('param', parserParam), async (c) => {
    return c.json({ parser: await updateParser(c.var.db, { userId: c.var.apiUserId, parserId: c.req.valid('param').id, active: false }) })
  })
  .post('/parsers/:id/resume', validate('param', parserParam), async (c) => {
    return c.json({ parser: await updateParser(c.var.db, { userId: c.var.apiUserId, parserId: c.req.valid('param').id, active: true }) })
  })
  .delete('/parsers/:id', validate('param', parserParam), async (c) => {
    await deleteParser(c.var.db, { userId: c.var.apiUserId, parserId: c.req.valid('param').id })
    return c.body(null, 204)
  })
  .post('/parsers/:id/emails', validate('param', parserParam), async (c) => {
    const key = c.req.header('idempotency-key') ?? null
    if (key !== null && !idempotencyKeySchema.safeParse(key).success) throw new AppError('VALIDATION', `Idempotency-Key: 1 to ${IDEMPOTENCY_KEY_MAX} characters`)
    const pipeline = pipelineOf(c)
    const raw = await readSubmittedEmail(c)
    const result = await submitEmail(c.var.db, { userId: c.var.apiUserId, parserId: c.req.valid('param').id, raw, idempotencyKey: key, pipeline })
    if (!result.created) c.header('Idempotent-Replayed', 'true')
    return c.json({ email: result.email }, result.created ? 201 : 200)
  })
  .get('/emails', validate('query', apiEmailsQuerySchema), async (c) => c.json(await listEmails(c.var.db, { userId: c.var.apiUserId, query: c.req.valid('query') })))
  .get('/emails/:id', validate('param', emailParam), async (c) => c.json({ email: await getEmail(c.var.db, { userId: c.var.apiUserId, id: c.req.valid('param').id }) }))
  .post('/emails/:id/reprocess', validate('param', emailParam), async (c) => {
    const email = await reprocessEmail(c.var.db, { userId: c.var.apiUserId, id: c.req.valid('param').id, pipeline: pipelineOf(c), requestSync: c.var.deps.requestSync })
    return c.json({ email })
  })
  .get('/usage', async (c) => c.json({ usage: await getMonthlyUsage(c.var.db, { userId: c.var.apiUserId }) }))
  // The app's own webhook handlers; requireApiKey above has named the key's owner.
  .route(
    '/webhooks',
    createWebhookHandlers((c) => (c.var as ApiEnv['Variables']).apiUserId),
  )
