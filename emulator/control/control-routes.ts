import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { baseUrl } from '../http/base-url'
import type { EmulatorEnv } from '../http/context'
import { SCOPES } from '../oauth/scopes'
import { validateAuthorizationRequest } from '../oauth/oauth-routes'
import { snapshotValues, updateValues } from '../sheets/spreadsheet-store'
import type { EmulatorState } from '../state'
import type { Mailbox, StoredMessage } from '../gmail/mail-store'

/** Scopes Mailrow asks for; the default for POST /_control/tokens. */
const MAILROW_SCOPES = [SCOPES.openid, SCOPES.email, SCOPES.gmailReadonly, SCOPES.spreadsheets]

const clientSchema = z.object({
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  redirectUris: z.array(z.string().min(1)).min(1),
  name: z.string().optional(),
})

const faultSchema = z.object({
  pathPattern: z.string().min(1),
  method: z.string().optional(),
  status: z.number().int().min(100).max(599).optional(),
  rate: z.number().min(0).max(1).optional(),
  latencyMs: z.number().int().min(0).max(120_000).optional(),
  mode: z.enum(['error', 'latency', 'drop', 'drop-after-write', 'error-after-write']).optional(),
  count: z.number().int().min(1).optional(),
  times: z.number().int().min(1).optional(),
  nth: z.number().int().min(1).optional(),
  body: z.unknown().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  seed: z.number().int().optional(),
})

const quotaSchema = z.object({
  enabled: z.boolean().optional(),
  sheetsWritesPerMinute: z.number().int().min(0).optional(),
  sheetsReadsPerMinute: z.number().int().min(0).optional(),
  gmailUnitsPerSecond: z.number().int().min(0).optional(),
})

const spreadsheetFixtureSchema = z.object({
  owner: z.string().email(),
  title: z.string().optional(),
  sheets: z
    .array(
      z.object({
        title: z.string().min(1),
        values: z.array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()]))).optional(),
        frozenRowCount: z.number().int().min(0).optional(),
      }),
    )
    .optional(),
  valueInputOption: z.enum(['RAW', 'USER_ENTERED']).optional(),
})

function controlError(c: Context, status: number, message: string) {
  return c.json({ error: { code: status, message } }, status as 400)
}

async function parseJson<T>(c: Context, schema: z.ZodType<T>): Promise<{ ok: true; data: T } | { ok: false; response: Response }> {
  const text = await c.req.text()
  let raw: unknown = {}
  if (text.trim()) {
    try {
      raw = JSON.parse(text)
    } catch {
      return { ok: false, response: controlError(c, 400, 'Body is not valid JSON') }
    }
  }
  const result = schema.safeParse(raw)
  if (!result.success) {
    const message = result.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ')
    return { ok: false, response: controlError(c, 400, message) }
  }
  return { ok: true, data: result.data }
}

function messageSummary(message: StoredMessage) {
  return {
    id: message.id,
    threadId: message.threadId,
    labelIds: message.labelIds,
    historyId: String(message.historyId),
    internalDate: String(message.internalDate),
    date: new Date(message.internalDate).toISOString(),
    from: message.from[0] ? (message.from[0].name ? `${message.from[0].name} <${message.from[0].address}>` : message.from[0].address) : '',
    subject: message.subject,
    snippet: message.snippet,
    attachments: message.filenames,
  }
}

function mailboxSummary(state: EmulatorState, mailbox: Mailbox) {
  return {
    email: mailbox.account.email,
    name: mailbox.account.name,
    sub: mailbox.account.sub,
    messagesTotal: mailbox.messages.size,
    threadsTotal: state.mail.threadCount(mailbox),
    historyId: String(mailbox.historyId),
    oldestValidHistoryId: String(mailbox.historyFloor),
    labels: [...mailbox.userLabels.values()],
    watch: mailbox.watch
      ? { ...mailbox.watch, expiration: String(mailbox.watch.expiration) }
      : null,
  }
}

function parseLabels(c: Context): string[] | undefined {
  const raw = c.req.query('labels') ?? c.req.header('x-emulator-labels')
  if (raw === undefined) return undefined
  return raw.split(',').map((label) => label.trim()).filter(Boolean)
}

function parseInternalDate(value: string | undefined): number | undefined | null {
  if (value === undefined || value === '') return undefined
  if (/^\d+$/.test(value)) return Number(value)
  const parsed = Date.parse(value)
  return Number.isFinite(parsed) ? parsed : null
}

export function controlRoutes(state: EmulatorState, actions: { reset: () => Promise<void> }) {
  const app = new Hono<EmulatorEnv>()

  app.get('/health', (c) =>
    c.json({
      ok: true,
      accounts: state.mail.list().map((mailbox) => mailbox.account.email),
      spreadsheets: state.sheets.list().length,
      demo: { enabled: state.config.demo, running: state.demo.running, intervalMs: state.demo.intervalMs },
      clock: state.clock.describe(),
    }),
  )

  app.post('/reset', async (c) => {
    await actions.reset()
    return c.json({ ok: true })
  })

  app.get('/mailboxes', (c) => c.json({ mailboxes: state.mail.list().map((mailbox) => mailboxSummary(state, mailbox)) }))

  app.post('/mailboxes', async (c) => {
    const parsed = await parseJson(c, z.object({ email: z.string().email(), name: z.string().optional() }))
    if (!parsed.ok) return parsed.response
    const mailbox = state.mail.addAccount(parsed.data)
    return c.json(mailboxSummary(state, mailbox), 201)
  })

  const findMailbox = (c: Context) => state.mail.find(c.req.param('email') ?? '')

  app.get('/mailboxes/:email', (c) => {
    const mailbox = findMailbox(c)
    if (!mailbox) return controlError(c, 404, 'No such mailbox')
    return c.json({ ...mailboxSummary(state, mailbox), messages: state.mail.sortedMessages(mailbox).map(messageSummary) })
  })

  app.post('/mailboxes/:email/messages', async (c) => {
    const email = c.req.param('email')
    if (!z.string().email().safeParse(email).success) return controlError(c, 400, `Not an email address: ${email}`)
    let raw: Buffer
    let labels = parseLabels(c)
    let internalDate = parseInternalDate(c.req.query('internalDate'))
    const type = c.req.header('content-type') ?? ''
    if (type.includes('application/json')) {
      const parsed = await parseJson(
        c,
        z.object({ raw: z.string().optional(), rawBase64: z.string().optional(), labels: z.array(z.string()).optional(), internalDate: z.union([z.string(), z.number()]).optional() }),
      )
      if (!parsed.ok) return parsed.response
      raw = parsed.data.rawBase64 ? Buffer.from(parsed.data.rawBase64, 'base64') : Buffer.from(parsed.data.raw ?? '', 'utf8')
      labels = parsed.data.labels ?? labels
      if (parsed.data.internalDate !== undefined) internalDate = parseInternalDate(String(parsed.data.internalDate))
    } else {
      raw = Buffer.from(await c.req.arrayBuffer())
    }
    if (!raw.length) return controlError(c, 400, 'Send the message as the request body (Content-Type: message/rfc822)')
    if (internalDate === null) return controlError(c, 400, 'internalDate must be epoch milliseconds or an ISO date')
    const source = c.req.query('internalDateSource')
    const message = await state.mail.deliver(email, raw, {
      labels,
      internalDate,
      internalDateSource: source === 'receivedTime' ? 'receivedTime' : 'dateHeader',
    })
    return c.json({ ...messageSummary(message) }, 201)
  })

  app.get('/mailboxes/:email/messages/:id', (c) => {
    const mailbox = findMailbox(c)
    const message = mailbox?.messages.get(c.req.param('id'))
    if (!message) return controlError(c, 404, 'No such message')
    return c.json({ ...messageSummary(message), text: message.text ?? null, html: message.html ?? null, sizeEstimate: message.sizeEstimate })
  })

  app.post('/mailboxes/:email/messages/:id/labels', async (c) => {
    const mailbox = findMailbox(c)
    const message = mailbox?.messages.get(c.req.param('id'))
    if (!mailbox || !message) return controlError(c, 404, 'No such message')
    const parsed = await parseJson(c, z.object({ add: z.array(z.string()).optional(), remove: z.array(z.string()).optional() }))
    if (!parsed.ok) return parsed.response
    state.mail.modifyLabels(mailbox, message, parsed.data.add ?? [], parsed.data.remove ?? [])
    return c.json(messageSummary(message))
  })

  app.delete('/mailboxes/:email/messages/:id', (c) => {
    const mailbox = findMailbox(c)
    const message = mailbox?.messages.get(c.req.param('id'))
    if (!mailbox || !message) return controlError(c, 404, 'No such message')
    state.mail.deleteMessage(mailbox, message)
    return c.json({ ok: true, historyId: String(mailbox.historyId) })
  })

  app.post('/mailboxes/:email/history/expire', (c) => {
    const mailbox = findMailbox(c)
    if (!mailbox) return controlError(c, 404, 'No such mailbox')
    state.mail.expireHistory(mailbox)
    return c.json({ historyId: String(mailbox.historyId), oldestValidHistoryId: String(mailbox.historyFloor) })
  })

  app.post('/demo/deliver', async (c) => {
    const parsed = await parseJson(c, z.object({ email: z.string().email().optional() }))
    if (!parsed.ok) return parsed.response
    const email = parsed.data.email ?? state.config.accounts[0]?.email
    if (!email) return controlError(c, 400, 'No account to deliver to')
    const message = await state.demo.deliverNext(email)
    return c.json(messageSummary(message), 201)
  })

  app.post('/demo', async (c) => {
    const parsed = await parseJson(c, z.object({ running: z.boolean().optional(), intervalMs: z.number().int().min(0).optional() }))
    if (!parsed.ok) return parsed.response
    if (parsed.data.intervalMs !== undefined) state.demo.setInterval(parsed.data.intervalMs)
    if (parsed.data.running === true) state.demo.start()
    if (parsed.data.running === false) state.demo.stop()
    return c.json({ running: state.demo.running, intervalMs: state.demo.intervalMs })
  })

  const spreadsheetSummary = (c: Context, id: string) => {
    const spreadsheet = state.sheets.find(id)!
    return {
      id: spreadsheet.id,
      title: spreadsheet.properties.title,
      owner: spreadsheet.owner,
      url: `${baseUrl(c, state)}/sheets/${spreadsheet.id}`,
      permissions: Object.fromEntries(spreadsheet.permissions),
      createdAt: new Date(spreadsheet.createdAt).toISOString(),
    }
  }

  app.get('/spreadsheets', (c) =>
    c.json({
      spreadsheets: state.sheets.list().map((spreadsheet) => ({
        ...spreadsheetSummary(c, spreadsheet.id),
        sheets: snapshotValues(spreadsheet).map((sheet) => ({ title: sheet.title, rows: sheet.values.length })),
      })),
    }),
  )

  app.post('/spreadsheets', async (c) => {
    const parsed = await parseJson(c, spreadsheetFixtureSchema)
    if (!parsed.ok) return parsed.response
    const { owner, title, sheets = [], valueInputOption = 'RAW' } = parsed.data
    const spreadsheet = state.sheets.create(owner.toLowerCase(), {
      properties: { title },
      sheets: sheets.map((sheet) => ({ properties: { title: sheet.title, gridProperties: { frozenRowCount: sheet.frozenRowCount } } })),
    })
    for (const sheet of sheets) {
      if (sheet.values?.length) updateValues(spreadsheet, `'${sheet.title.replace(/'/g, "''")}'!A1`, { values: sheet.values }, { valueInputOption })
    }
    return c.json({ ...spreadsheetSummary(c, spreadsheet.id), sheets: snapshotValues(spreadsheet) }, 201)
  })

  app.get('/spreadsheets/:id', (c) => {
    const spreadsheet = state.sheets.find(c.req.param('id'))
    if (!spreadsheet) return controlError(c, 404, 'No such spreadsheet')
    return c.json({ ...spreadsheetSummary(c, spreadsheet.id), sheets: snapshotValues(spreadsheet, { cells: c.req.query('cells') === '1' }) })
  })

  app.post('/spreadsheets/:id/permissions', async (c) => {
    const spreadsheet = state.sheets.find(c.req.param('id'))
    if (!spreadsheet) return controlError(c, 404, 'No such spreadsheet')
    const parsed = await parseJson(c, z.object({ email: z.string().email(), role: z.enum(['reader', 'writer', 'none']) }))
    if (!parsed.ok) return parsed.response
    const email = parsed.data.email.toLowerCase()
    if (parsed.data.role === 'none') spreadsheet.permissions.delete(email)
    else spreadsheet.permissions.set(email, parsed.data.role)
    return c.json(spreadsheetSummary(c, spreadsheet.id))
  })

  app.delete('/spreadsheets/:id', (c) => {
    if (!state.sheets.remove(c.req.param('id'))) return controlError(c, 404, 'No such spreadsheet')
    return c.json({ ok: true })
  })

  app.get('/clients', (c) =>
    c.json({ clients: [...state.oauth.clients.values()].map(({ clientSecret: _secret, ...client }) => client) }),
  )

  app.post('/clients', async (c) => {
    const parsed = await parseJson(c, clientSchema)
    if (!parsed.ok) return parsed.response
    state.oauth.registerClient(parsed.data)
    return c.json({ clientId: parsed.data.clientId }, 201)
  })

  app.get('/grants', (c) => {
    const email = c.req.query('email')?.toLowerCase()
    return c.json({ grants: state.oauth.listGrants().filter((grant) => !email || grant.email === email) })
  })

  app.post('/users/:email/revoke', (c) => {
    const email = c.req.param('email').toLowerCase()
    return c.json({ revoked: state.oauth.revokeUser(email) })
  })

  app.post('/tokens', async (c) => {
    const parsed = await parseJson(
      c,
      z.object({ email: z.string().email(), scopes: z.array(z.string()).optional(), clientId: z.string().optional(), offline: z.boolean().optional() }),
    )
    if (!parsed.ok) return parsed.response
    const result = state.oauth.issueDirect({ ...parsed.data, email: parsed.data.email.toLowerCase(), scopes: parsed.data.scopes ?? MAILROW_SCOPES })
    if ('status' in result) return c.json(result.body, result.status as 400)
    return c.json(result, 201)
  })

  app.post('/tokens/expire', async (c) => {
    const parsed = await parseJson(c, z.object({ email: z.string().email().optional() }))
    if (!parsed.ok) return parsed.response
    return c.json({ expired: state.oauth.expireAccessTokens(parsed.data.email?.toLowerCase()) })
  })

  app.post('/oauth/consent', async (c) => {
    const parsed = await parseJson(
      c,
      z.object({
        authUrl: z.string().url(),
        account: z.string().email().optional(),
        scopes: z.array(z.string()).optional(),
        action: z.enum(['allow', 'deny']).optional(),
      }),
    )
    if (!parsed.ok) return parsed.response
    const validated = validateAuthorizationRequest(state, new URL(parsed.data.authUrl).searchParams)
    if (!validated.ok) return c.json({ error: { code: validated.status, message: `${validated.error}: ${validated.detail}` } }, validated.status as 400)
    const pending = state.oauth.addPending(validated.request)
    const decision = state.oauth.decide(pending.id, {
      action: parsed.data.action ?? 'allow',
      email: parsed.data.account ?? pending.loginHint ?? state.config.accounts[0]?.email,
      scopes: parsed.data.scopes,
    })
    if ('error' in decision) return controlError(c, 400, decision.error)
    return c.json(decision)
  })

  app.get('/settings', (c) => c.json({ tokenLifetimeSeconds: state.oauth.tokenLifetimeSeconds, pushUrl: state.push.url ?? null, issuer: state.config.issuer }))

  app.post('/settings', async (c) => {
    const parsed = await parseJson(c, z.object({ tokenLifetimeSeconds: z.number().int().min(1).optional(), pushUrl: z.string().url().nullable().optional() }))
    if (!parsed.ok) return parsed.response
    if (parsed.data.tokenLifetimeSeconds !== undefined) state.oauth.setTokenLifetimeSeconds(parsed.data.tokenLifetimeSeconds)
    if (parsed.data.pushUrl !== undefined) state.push.setUrl(parsed.data.pushUrl ?? undefined)
    return c.json({ tokenLifetimeSeconds: state.oauth.tokenLifetimeSeconds, pushUrl: state.push.url ?? null })
  })

  app.get('/faults', (c) => c.json({ faults: state.faults.list() }))
  app.post('/faults', async (c) => {
    const parsed = await parseJson(c, faultSchema)
    if (!parsed.ok) return parsed.response
    return c.json(state.faults.add(parsed.data), 201)
  })
  app.delete('/faults', (c) => {
    state.faults.clear()
    return c.json({ ok: true })
  })
  app.delete('/faults/:id', (c) => (state.faults.remove(c.req.param('id')) ? c.json({ ok: true }) : controlError(c, 404, 'No such fault')))

  app.get('/quotas', (c) => c.json(state.quotas.settings))
  app.post('/quotas', async (c) => {
    const parsed = await parseJson(c, quotaSchema)
    if (!parsed.ok) return parsed.response
    state.quotas.resetCounters()
    return c.json(state.quotas.configure(parsed.data))
  })
  app.post('/quotas/reset', (c) => {
    state.quotas.resetCounters()
    return c.json(state.quotas.settings)
  })

  app.get('/requests', (c) =>
    c.json(state.requests.query({ pathPrefix: c.req.query('pathPrefix'), method: c.req.query('method'), api: c.req.query('api'), email: c.req.query('email') })),
  )
  app.delete('/requests', (c) => {
    state.requests.clear()
    return c.json({ ok: true })
  })

  app.get('/clock', (c) => c.json(state.clock.describe()))
  app.post('/clock', async (c) => {
    const parsed = await parseJson(
      c,
      z.object({
        advanceMs: z.number().optional(),
        advanceSeconds: z.number().optional(),
        freeze: z.boolean().optional(),
        now: z.string().optional(),
        reset: z.boolean().optional(),
      }),
    )
    if (!parsed.ok) return parsed.response
    const { advanceMs, advanceSeconds, freeze, now, reset } = parsed.data
    if (reset) state.clock.reset()
    if (now !== undefined) {
      const at = Date.parse(now)
      if (!Number.isFinite(at)) return controlError(c, 400, 'now must be an ISO date')
      state.clock.freeze(at)
      if (freeze === false) state.clock.unfreeze()
    } else if (freeze === true) state.clock.freeze()
    else if (freeze === false) state.clock.unfreeze()
    if (advanceMs) state.clock.advance(advanceMs)
    if (advanceSeconds) state.clock.advance(advanceSeconds * 1000)
    return c.json(state.clock.describe())
  })

  app.get('/push', (c) => c.json({ url: state.push.url ?? null, deliveries: state.push.deliveries() }))
  app.post('/push', async (c) => {
    const parsed = await parseJson(c, z.object({ url: z.string().url().nullable() }))
    if (!parsed.ok) return parsed.response
    state.push.setUrl(parsed.data.url ?? undefined)
    return c.json({ url: state.push.url ?? null })
  })
  app.post('/push/flush', async (c) => {
    await state.push.settle()
    return c.json({ url: state.push.url ?? null, deliveries: state.push.deliveries() })
  })

  app.all('/*', (c) => controlError(c, 404, `No control endpoint ${c.req.method} ${new URL(c.req.url).pathname}`))

  return app
}
