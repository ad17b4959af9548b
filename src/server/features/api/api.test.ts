import { Validator } from '@seriousme/openapi-schema-validator'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { API_PLAN_MESSAGE, apiEmailDetailSchema, apiEmailsPageSchema, apiParserSchema, apiUsageSchema } from '@shared/contracts/api'
import { apiKeys, parsedEmails, submittedEmails, users } from '../../db/schema'
import { ORDER_FIELDS, orderEmail, sheetRows, userWithOrderParser } from '../../testing/pipeline-fixtures'
import { createTestApp, signUpAndIn, type HttpClient, type TestApp } from '../../testing/test-app'
import { startTestEmulator, type TestEmulator } from '../../testing/test-emulator'
import { startWebhookReceiver, verifyStandardWebhook, type WebhookReceiver } from '../../testing/webhook-receiver'
import { V1_OPERATIONS } from './v1.routes'

let google: TestEmulator
let receiver: WebhookReceiver
let t: TestApp
let n = 0
const RATE_LIMIT = 1000

beforeAll(async () => {
  google = await startTestEmulator()
  receiver = await startWebhookReceiver()
  // The webhook receiver listens on 127.0.0.1: this operator allows private targets.
  t = await createTestApp({ emulatorUrl: google.url, env: { API_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT), WEBHOOKS_ALLOW_PRIVATE: 'true' } })
})
afterAll(async () => {
  await receiver.close()
  await t.close()
  await google.close()
})
beforeEach(async () => {
  await google.control('/reset', { body: {} })
})

/** An order email as a client would submit it: RFC 822, HTML body, UTF-8. */
function rawOrder(number: number, messageId = `<order-${number}-${Math.random().toString(16).slice(2)}@acme.test>`) {
  const { from, subject, html } = orderEmail(number)
  return [
    `From: ${from}`,
    'To: demo@mailrow.test',
    `Subject: ${subject}`,
    `Message-ID: ${messageId}`,
    `Date: ${new Date(Date.UTC(2026, 10, 1, 12, 0, number % 60)).toUTCString()}`,
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    html,
    '',
  ].join('\r\n')
}

type Caller = (method: string, path: string, init?: { body?: unknown; headers?: Record<string, string> }) => Promise<{ status: number; headers: Headers; json: any }>

/** Calls /api/v1 as a script would: no cookies, no Origin, the key in Authorization. */
function apiAs(app: TestApp, key: string | null): Caller {
  return async (method, path, init = {}) => {
    const isRaw = typeof init.body === 'string'
    const response = await app.app.request(`/api/v1${path}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(init.body === undefined ? {} : { 'content-type': isRaw ? 'message/rfc822' : 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : isRaw ? (init.body as string) : JSON.stringify(init.body),
    })
    const text = await response.text()
    return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined }
  }
}

async function createKey(client: HttpClient, body: Record<string, unknown> = { name: 'Script' }) {
  const created = await client.post('/api/api-keys', body)
  if (created.status !== 201) throw new Error(`key not created: ${created.status} ${created.text}`)
  return created.json as { key: string; apiKey: { id: string; start: string } }
}

/** A Pro user with Gmail, an order parser and an API key. */
async function proUser(app = t) {
  const setup = await userWithOrderParser(app, google, { email: `api${++n}@example.com`, plan: 'pro' })
  const { key, apiKey } = await createKey(setup.client)
  return { ...setup, key, keyId: apiKey.id, api: apiAs(app, key) }
}

const missingId = '00000000-0000-4000-8000-000000000000'

describe('API keys', () => {
  it('are shown once, stored as a hash with the mrw_ prefix, listed with their last use, and revoked', async () => {
    const { client, key, keyId, api } = await proUser()
    expect(key).toMatch(/^mrw_[A-Za-z0-9_-]{43}$/)
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, keyId))
    expect(row!.keyHash).not.toContain(key)
    expect(JSON.stringify(row)).not.toContain(key.slice(8))
    const listed = await client.get('/api/api-keys')
    expect(listed.json.apiKeys).toEqual([expect.objectContaining({ id: keyId, name: 'Script', start: key.slice(0, 8), lastUsedAt: null, expiresAt: null })])
    expect(listed.text).not.toContain(key.slice(8))

    expect((await api('GET', '/usage')).status).toBe(200)
    expect((await client.get('/api/api-keys')).json.apiKeys[0].lastUsedAt).toEqual(expect.any(String))

    expect((await client.send('DELETE', `/api/api-keys/${keyId}`)).status).toBe(204)
    const revoked = await api('GET', '/usage')
    expect(revoked.status).toBe(401)
    expect(revoked.json.error.code).toBe('UNAUTHORIZED')
    expect((await client.get('/api/api-keys')).json.apiKeys).toEqual([])
  })

  it('take an expiry, after which the key answers 401', async () => {
    const { client } = await proUser()
    const { key, apiKey } = await createKey(client, { name: 'Short', expiresIn: '30' })
    const listed = (await client.get('/api/api-keys')).json.apiKeys.find((k: { id: string }) => k.id === apiKey.id)
    expect(Date.parse(listed.expiresAt) - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000)
    const api = apiAs(t, key)
    expect((await api('GET', '/usage')).status).toBe(200)
    await t.db.update(apiKeys).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(apiKeys.id, apiKey.id))
    expect((await api('GET', '/usage')).status).toBe(401)
  })

  it("can't be revoked by another user, nor created without a name", async () => {
    const { keyId, api } = await proUser()
    const other = await proUser()
    expect((await other.client.send('DELETE', `/api/api-keys/${keyId}`)).status).toBe(404)
    expect((await api('GET', '/usage')).status).toBe(200)
    const blank = await other.client.post('/api/api-keys', { name: '  ' })
    expect(blank.status).toBe(400)
    expect(blank.json.error.message).toBe('name: Please enter a name for the key.')
  })
})

describe('authentication and plan', () => {
  it('refuses requests without a key, with a malformed or unknown key, and with a session cookie alone', async () => {
    const { client } = await proUser()
    for (const key of [null, 'mrw_not-a-real-key', 'sk_live_elsewhere']) {
      const answer = await apiAs(t, key)('GET', '/parsers')
      expect(answer.status).toBe(401)
      expect(answer.json.error.code).toBe('UNAUTHORIZED')
    }
    expect((await client.get('/api/v1/parsers')).status).toBe(401)
  })

  it('keys and the API are Pro: others get 403 with the upgrade wording', async () => {
    for (const plan of ['free', 'starter'] as const) {
      const client = await signUpAndIn(t, `plan-${plan}-${++n}@example.com`)
      await t.db.update(users).set({ plan }).where(eq(users.email, `plan-${plan}-${n}@example.com`))
      const refused = await client.post('/api/api-keys', { name: 'Nope' })
      expect(refused.status).toBe(403)
      expect(refused.json.error).toEqual({ code: 'FORBIDDEN', message: API_PLAN_MESSAGE })
    }
    // A Pro user who moves to a lower plan keeps the key, but the API says why it stopped.
    const { api, userId } = await proUser()
    await t.db.update(users).set({ plan: 'starter' }).where(eq(users.id, userId))
    const downgraded = await api('GET', '/parsers')
    expect(downgraded.status).toBe(403)
    expect(downgraded.json.error.message).toBe(API_PLAN_MESSAGE)
  })
})

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1 and is served without a key', async () => {
    const answer = await apiAs(t, null)('GET', '/openapi.json')
    expect(answer.status).toBe(200)
    expect(answer.json.openapi).toBe('3.1.0')
    const validator = new Validator()
    const result = await validator.validate(answer.json)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  it('lists every route, and each answers with a status the document gives it', async () => {
    const { api } = await proUser()
    const doc = (await api('GET', '/openapi.json')).json
    const documented = Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ method, path, statuses: Object.keys(op.responses).map(Number) })),
    )
    expect(documented.map((d) => `${d.method} ${d.path}`).sort()).toEqual(V1_OPERATIONS.map((o) => `${o.method} ${o.path}`).sort())
    for (const { method, path, statuses } of documented) {
      const answer = await api(method.toUpperCase(), path.replace(/\{\w+\}/g, missingId), method === 'get' || method === 'delete' ? {} : { body: {} })
      expect(statuses, `${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.json)}`).toContain(answer.status)
      expect(answer.headers.get('content-type') ?? 'application/json').toContain('json')
    }
  })
})

describe('parsers', () => {
  it('lists, gets, renames, pauses, resumes and deletes; answers match the documented schemas', async () => {
    const { api, parser } = await proUser()
    const list = await api('GET', '/parsers')
    expect(list.status).toBe(200)
    expect(list.json.parsers.map((p: { id: string }) => p.id)).toEqual([parser.id])
    apiParserSchema.parse(list.json.parsers[0])
    expect((await api('GET', `/parsers/${parser.id}`)).json.parser.name).toBe('Orders')
    const renamed = await api('PATCH', `/parsers/${parser.id}`, { body: { name: 'Acme orders' } })
    expect(renamed.json.parser).toMatchObject({ name: 'Acme orders', active: true })
    expect((await api('POST', `/parsers/${parser.id}/pause`)).json.parser.active).toBe(false)
    expect((await api('POST', `/parsers/${parser.id}/resume`)).json.parser.active).toBe(true)
    expect((await api('PATCH', `/parsers/${parser.id}`, { body: {} })).status).toBe(400)
    expect((await api('DELETE', `/parsers/${parser.id}`)).status).toBe(204)
    expect((await api('GET', `/parsers/${parser.id}`)).status).toBe(404)
  })

  it('creates a parser from an uploaded sample email plus the highlighted values, or from a Gmail message id', async () => {
    const { api } = await proUser()
    const created = await api('POST', '/parsers', {
      body: {
        name: 'Uploaded',
        filters: { filterFrom: 'orders@acme.test', filterSubject: null, filterLabel: null },
        fields: ORDER_FIELDS,
        sample: { raw: Buffer.from(rawOrder(0)).toString('base64') },
        parserType: 'template',
        destination: { type: 'new' },
      },
    })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    apiParserSchema.parse(created.json.parser)
    expect(created.json.parser.extraction_fields.map((f: { name: string }) => f.name)).toEqual(ORDER_FIELDS.map((f) => f.name))
    const submitted = await api('POST', `/parsers/${created.json.parser.id}/emails`, { body: rawOrder(3) })
    expect(submitted.json.email.fields).toEqual({ 'Order Number': '1003', Customer: orderEmail(3).expected.customer, Total: orderEmail(3).expected.total })

    const fromGmail = await api('POST', '/parsers', {
      body: { name: 'Sample', filters: { filterFrom: null, filterSubject: 'Invoice', filterLabel: null }, fields: [{ name: 'Invoice', value: 'INV' }], sample: { messageId: 'sample-invoice' }, parserType: 'template', destination: { type: 'new' } },
    })
    expect(fromGmail.status, JSON.stringify(fromGmail.json)).toBe(201)
    const badId = await api('POST', '/parsers', {
      body: { name: 'Bad', filters: { filterFrom: 'a@b.test', filterSubject: null, filterLabel: null }, fields: ORDER_FIELDS, sample: { messageId: 'not hex!' }, parserType: 'template', destination: { type: 'new' } },
    })
    expect(badId.status).toBe(400)
    const fullAi = await api('POST', '/parsers', {
      body: { name: 'AI', filters: { filterFrom: 'a@b.test', filterSubject: null, filterLabel: null }, fields: ORDER_FIELDS, sample: { raw: 'not base64!' }, parserType: 'full_ai', destination: { type: 'new' } },
    })
    expect(fullAi.status).toBe(400)
  })

  it("answers 404 for another user's parser, whatever the operation", async () => {
    const mine = await proUser()
    const other = await proUser()
    const id = other.parser.id
    for (const [method, path, body] of [
      ['GET', `/parsers/${id}`],
      ['PATCH', `/parsers/${id}`, { name: 'Mine now' }],
      ['POST', `/parsers/${id}/pause`],
      ['POST', `/parsers/${id}/resume`],
      ['DELETE', `/parsers/${id}`],
      ['POST', `/parsers/${id}/emails`, rawOrder(1)],
      ['GET', `/emails?parserId=${id}`],
    ] as const) {
      const answer = await mine.api(method, path, body === undefined ? {} : { body })
      expect(answer.status, `${method} ${path}`).toBe(404)
      expect(answer.json.error.code).toBe('NOT_FOUND')
    }
    expect((await other.api('GET', `/parsers/${id}`)).json.parser).toMatchObject({ name: 'Orders', active: true })
  })
})

describe('submitting an email', () => {
  it('parses it through the ledger and writes it to the sheet, as raw RFC 822 or JSON with base64', async () => {
    const { api, parser, spreadsheetId } = await proUser()
    const raw = await api('POST', `/parsers/${parser.id}/emails`, { body: rawOrder(5) })
    expect(raw.status, JSON.stringify(raw.json)).toBe(201)
    const email = apiEmailDetailSchema.parse(raw.json.email)
    expect(email).toMatchObject({ status: 'success', source: 'api', writtenToSheets: true, subject: 'Order #1005 confirmed' })
    expect(email.messageId).toMatch(/^api-[0-9a-f]{32}$/)
    expect(email.fields['Order Number']).toBe('1005')

    const json = await api('POST', `/parsers/${parser.id}/emails`, { body: { raw: Buffer.from(rawOrder(6)).toString('base64') } })
    expect(json.status).toBe(201)
    expect(json.json.email.fields['Order Number']).toBe('1006')
    const rows = await sheetRows(google, spreadsheetId)
    expect(rows.slice(1).map((r) => r[0])).toEqual(['1005', '1006'])
  })

  it('with an Idempotency-Key, a retry returns the first answer and creates nothing new', async () => {
    const { api, parser, spreadsheetId, userId } = await proUser()
    const body = rawOrder(7)
    const headers = { 'idempotency-key': 'order-7-attempt' }
    const first = await api('POST', `/parsers/${parser.id}/emails`, { body, headers })
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const retry = await api('POST', `/parsers/${parser.id}/emails`, { body, headers })
    expect(retry.status).toBe(200)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(retry.json.email.id).toBe(first.json.email.id)
    const ledger = await t.db.select().from(parsedEmails).where(eq(parsedEmails.userId, userId))
    expect(ledger.filter((r) => r.source === 'api')).toHaveLength(1)
    expect(await t.db.select().from(submittedEmails).where(eq(submittedEmails.userId, userId))).toHaveLength(1)
    expect((await sheetRows(google, spreadsheetId)).slice(1)).toHaveLength(1)

    const reused = await api('POST', `/parsers/${parser.id}/emails`, { body: rawOrder(8), headers })
    expect(reused.status).toBe(409)
    expect(reused.json.error.code).toBe('CONFLICT')
    const tooLong = await api('POST', `/parsers/${parser.id}/emails`, { body, headers: { 'idempotency-key': 'x'.repeat(201) } })
    expect(tooLong.status).toBe(400)
  })

  it('the same message (same Message-ID) is parsed once even without a key; unreadable input is refused', async () => {
    const { api, parser, userId } = await proUser()
    const first = await api('POST', `/parsers/${parser.id}/emails`, { body: rawOrder(9, '<same@acme.test>') })
    const again = await api('POST', `/parsers/${parser.id}/emails`, { body: rawOrder(9, '<same@acme.test>') })
    expect([first.status, again.status]).toEqual([201, 200])
    expect(again.json.email.id).toBe(first.json.email.id)
    expect((await t.db.select().from(parsedEmails).where(eq(parsedEmails.userId, userId))).filter((r) => r.source === 'api')).toHaveLength(1)
    expect((await api('POST', `/parsers/${parser.id}/emails`, { body: { raw: '%%%' } })).status).toBe(400)
    expect((await api('POST', `/parsers/${parser.id}/emails`, { body: '' })).status).toBe(400)
  })
})

describe('parsed emails', () => {
  it('pages with a cursor, newest first, without repeats or gaps; filters by parser, status and date', async () => {
    const { api, parser } = await proUser()
    const ids: string[] = []
    for (let i = 10; i < 17; i++) ids.push((await api('POST', `/parsers/${parser.id}/emails`, { body: rawOrder(i) })).json.email.id)
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page: { status: number; json: any } = await api('GET', `/emails?limit=3${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.status).toBe(200)
      apiEmailsPageSchema.parse(page.json)
      expect(page.json.emails.length).toBeLessThanOrEqual(3)
      seen.push(...page.json.emails.map((e: { id: string }) => e.id))
      cursor = page.json.nextCursor
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(seen).toEqual([...ids].reverse())

    expect((await api('GET', `/emails?parserId=${parser.id}&status=success`)).json.emails).toHaveLength(7)
    expect((await api('GET', `/emails?status=failed`)).json.emails).toHaveLength(0)
    // rawOrder's Date is 2026-11-01T12:00:(n % 60)Z.
    const window = await api('GET', `/emails?since=${encodeURIComponent('2026-11-01T12:00:12Z')}&until=${encodeURIComponent('2026-11-01T12:00:15Z')}`)
    expect(window.json.emails.map((e: { subject: string }) => e.subject).sort()).toEqual(['Order #1012 confirmed', 'Order #1013 confirmed', 'Order #1014 confirmed'])
    expect((await api('GET', '/emails?cursor=garbage')).status).toBe(400)
    expect((await api('GET', '/emails?limit=500')).status).toBe(400)
    expect((await api('GET', '/emails?since=yesterday')).status).toBe(400)
  })

  it('pages rows processed within the same millisecond without skipping any (the cursor keeps microseconds)', async () => {
    const { api, parser, userId } = await proUser()
    const micros = ['000100', '000200', '000300', '000400']
    await t.db.insert(parsedEmails).values(
      micros.map((us, i) => ({ userId, parserId: parser.id, gmailMessageId: `api-micro-${i}`, status: 'success' as const, source: 'api' as const, processedAt: sql`${`2026-11-01 12:00:00.${us}+00`}::timestamptz` })),
    )
    const subjects: string[] = []
    let cursor: string | null = null
    do {
      const page: { json: any } = await api('GET', `/emails?limit=1${cursor ? `&cursor=${cursor}` : ''}`)
      subjects.push(...page.json.emails.map((e: { messageId: string }) => e.messageId))
      cursor = page.json.nextCursor
    } while (cursor)
    expect(subjects).toEqual(['api-micro-3', 'api-micro-2', 'api-micro-1', 'api-micro-0'])
  })

  it('gets one with fields, reasons and line items, reprocesses it, and hides other users\' emails', async () => {
    const { api, parser, client } = await proUser()
    const submitted = (await api('POST', `/parsers/${parser.id}/emails`, { body: rawOrder(20) })).json.email
    const one = await api('GET', `/emails/${submitted.id}`)
    expect(one.status).toBe(200)
    expect(one.json.email).toMatchObject({ id: submitted.id, fields: { 'Order Number': '1020' }, reasons: { 'Order Number': null }, lineItems: null })
    // The parser's page reads a submitted email as it reads Gmail's ("Train on this email").
    const training = await client.get(`/api/parsers/${parser.id}/emails/${submitted.id}/training`)
    expect(training.status, training.text).toBe(200)
    expect(training.json.email.subject).toBe('Order #1020 confirmed')
    const again = await api('POST', `/emails/${submitted.id}/reprocess`)
    expect(again.status, JSON.stringify(again.json)).toBe(200)
    expect(again.json.email).toMatchObject({ id: submitted.id, status: 'success' })

    const other = await proUser()
    expect((await other.api('GET', `/emails/${submitted.id}`)).status).toBe(404)
    expect((await other.api('POST', `/emails/${submitted.id}/reprocess`)).status).toBe(404)
    expect((await other.api('GET', '/emails')).json.emails.map((e: { id: string }) => e.id)).not.toContain(submitted.id)
  })

  it("usage counts this month's processed emails against the plan", async () => {
    const { api, parser } = await proUser()
    await api('POST', `/parsers/${parser.id}/emails`, { body: rawOrder(30) })
    const usage = await api('GET', '/usage')
    expect(apiUsageSchema.parse(usage.json.usage)).toEqual({ month: new Date().toISOString().slice(0, 7), used: 1, limit: 5000 })
  })
})

describe('webhooks', () => {
  it('adds an endpoint, sends a signed test event, lists and redelivers it, and deletes it, all with an API key', async () => {
    const { api } = await proUser()
    const created = await api('POST', '/webhooks', { body: { url: `${receiver.url}/api-hooks`, events: ['email.parsed'] } })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    const { webhook, secret } = created.json
    expect(secret).toMatch(/^whsec_/)
    expect((await api('GET', '/webhooks')).json.webhooks).toEqual([expect.objectContaining({ id: webhook.id, events: ['email.parsed'], enabled: true })])
    expect((await api('GET', `/webhooks/${webhook.id}/secret`)).json.secret).toBe(secret)

    const before = receiver.received.length
    const tested = await api('POST', `/webhooks/${webhook.id}/test`)
    expect(tested.status).toBe(200)
    expect(tested.json.delivery).toMatchObject({ eventType: 'webhook.test', status: 'succeeded' })
    const sent = receiver.received.slice(before).find((r) => r.path === '/api-hooks')
    expect(sent && verifyStandardWebhook(secret, sent)).toBe(true)

    const log = await api('GET', `/webhooks/${webhook.id}/deliveries`)
    expect(log.json.deliveries.map((d: { id: string }) => d.id)).toEqual([tested.json.delivery.id])
    const again = await api('POST', `/webhooks/${webhook.id}/deliveries/${tested.json.delivery.id}/redeliver`)
    expect(again.status).toBe(200)
    expect(receiver.received.slice(before).filter((r) => r.path === '/api-hooks').map((r) => r.headers['webhook-id'])).toEqual([sent!.headers['webhook-id'], sent!.headers['webhook-id']])

    expect((await api('PATCH', `/webhooks/${webhook.id}`, { body: { enabled: false } })).json.webhook.enabled).toBe(false)
    expect((await api('DELETE', `/webhooks/${webhook.id}`)).status).toBe(204)
    expect((await api('GET', '/webhooks')).json.webhooks).toEqual([])
  })

  it("answers 404 for another user's endpoint, and a bad URL with the contract's message", async () => {
    const owner = await proUser()
    const { webhook } = (await owner.api('POST', '/webhooks', { body: { url: `${receiver.url}/mine`, events: ['email.parsed'] } })).json
    const other = await proUser()
    for (const [method, path] of [
      ['GET', `/webhooks/${webhook.id}/secret`],
      ['GET', `/webhooks/${webhook.id}/deliveries`],
      ['PATCH', `/webhooks/${webhook.id}`],
      ['POST', `/webhooks/${webhook.id}/test`],
      ['DELETE', `/webhooks/${webhook.id}`],
    ] as const) {
      const answer = await other.api(method, path, method === 'PATCH' ? { body: { enabled: false } } : {})
      expect(answer.status, `${method} ${path}`).toBe(404)
    }
    expect((await other.api('GET', '/webhooks')).json.webhooks).toEqual([])
    expect((await owner.api('GET', '/webhooks')).json.webhooks).toHaveLength(1)
    const ftp = await other.api('POST', '/webhooks', { body: { url: 'ftp://example.com/x', events: ['email.parsed'] } })
    expect(ftp.json.error).toEqual({ code: 'VALIDATION', message: 'url: Please enter an http:// or https:// URL.' })
  })
})

describe('rate limits', () => {
  it('each key has its own window: RateLimit-* headers count down, then 429 with Retry-After', async () => {
    const limited = await createTestApp({ emulatorUrl: google.url, env: { API_RATE_LIMIT_PER_MINUTE: '3' } })
    try {
      const { client, api } = await proUser(limited)
      const second = apiAs(limited, (await createKey(client, { name: 'Second' })).key)
      const remaining: string[] = []
      for (let i = 0; i < 3; i++) {
        const answer = await api('GET', '/usage')
        expect(answer.status).toBe(200)
        expect(answer.headers.get('ratelimit-limit')).toBe('3')
        remaining.push(answer.headers.get('ratelimit-remaining')!)
      }
      expect(remaining).toEqual(['2', '1', '0'])
      const refused = await api('GET', '/usage')
      expect(refused.status).toBe(429)
      expect(refused.json.error.code).toBe('RATE_LIMITED')
      const retryAfter = Number(refused.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(60)
      expect(refused.headers.get('ratelimit-remaining')).toBe('0')
      expect((await second('GET', '/usage')).status).toBe(200)
    } finally {
      await limited.close()
    }
  })
})
