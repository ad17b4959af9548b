import { Hono, type Context } from 'hono'
import { apiGuard, type ApiSpec } from '../http/api-guard'
import type { EmulatorEnv } from '../http/context'
import { badRequest, GoogleApiError, notFound } from '../http/google-error'
import { GMAIL_UNITS, type QuotaCost } from '../http/quotas'
import { queryList, readJsonBody, sendJson } from '../http/respond'
import { base64urlPadded } from '../ids'
import { SCOPE_REQUIREMENTS, SCOPES } from '../oauth/scopes'
import type { EmulatorState } from '../state'
import type { HistoryRecord, Mailbox, StoredMessage } from './mail-store'
import { SYSTEM_LABELS } from './mail-store'
import { findPart, messageResource, partIdFromAttachmentId, type MessageFormat } from './message-format'
import { compileQuery } from './search-query'

const SERVICE = 'gmail.googleapis.com'
const WATCH_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000

function spec(id: string, rpc: string, units: number, scopes: readonly string[] = SCOPE_REQUIREMENTS.gmailRead): ApiSpec {
  const quota: QuotaCost = { kind: 'gmail', units }
  return { id, service: SERVICE, rpc: `caribou.api.proto.MailboxService.${rpc}`, scopes, quota }
}

function parseUint(c: Context, name: string, fallback: number, max: number): number {
  const raw = c.req.query(name)
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw)) throw badRequest(`Invalid value at '${name.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`)}' (TYPE_UINT32), "${raw}"`)
  return Math.min(Number(raw), max)
}

/** Page tokens are opaque digits, like Gmail's: the offset of the next item. */
function readPageToken(c: Context): number {
  const token = c.req.query('pageToken')
  if (!token) return 0
  if (!/^\d{1,20}$/.test(token)) throw badRequest('Invalid pageToken')
  return Number(token)
}

function pageToken(offset: number): string {
  return String(offset).padStart(20, '0')
}

/** A message-list token names the last message shown, so mail arriving between pages shifts nothing. */
function messageCursor(message: StoredMessage): string {
  return `${String(message.internalDate).padStart(15, '0')}${String(message.seq).padStart(8, '0')}`
}

function readMessageCursor(c: Context): { internalDate: number; seq: number } | undefined {
  const token = c.req.query('pageToken')
  if (!token) return undefined
  if (!/^\d{23}$/.test(token)) throw badRequest('Invalid pageToken')
  return { internalDate: Number(token.slice(0, 15)), seq: Number(token.slice(15)) }
}

function isMetadataOnly(scopes: string[]): boolean {
  return scopes.includes(SCOPES.gmailMetadata) && !SCOPE_REQUIREMENTS.gmailFullContent.some((scope) => scopes.includes(scope))
}

export function gmailRoutes(state: EmulatorState) {
  const app = new Hono<EmulatorEnv>()
  const guard = (apiSpec: ApiSpec) => apiGuard(state, apiSpec)

  /** userId is "me" or the token's own address; anyone else is "Delegation denied". */
  const mailboxOf = (c: Context<EmulatorEnv>): Mailbox => {
    const principal = c.get('principal')
    const userId = c.req.param('userId') ?? 'me'
    if (userId !== 'me' && userId.toLowerCase() !== principal.email) {
      throw new GoogleApiError({ code: 403, message: `Delegation denied for ${principal.email}`, reason: 'forbidden' })
    }
    const mailbox = state.mail.find(principal.email)
    if (!mailbox) throw new GoogleApiError({ code: 400, message: 'Mail service not enabled', reason: 'failedPrecondition', status: 'FAILED_PRECONDITION' })
    return mailbox
  }

  const messageOf = (mailbox: Mailbox, id: string): StoredMessage => {
    if (!/^[0-9a-f]{1,32}$/i.test(id)) throw badRequest('Invalid id value')
    const message = mailbox.messages.get(id.toLowerCase())
    if (!message) throw notFound()
    return message
  }

  app.get('/gmail/v1/users/:userId/profile', guard(spec('gmail.users.getProfile', 'GetProfile', GMAIL_UNITS.getProfile)), (c) => {
    const mailbox = mailboxOf(c)
    return sendJson(c, {
      emailAddress: mailbox.account.email,
      messagesTotal: mailbox.messages.size,
      threadsTotal: state.mail.threadCount(mailbox),
      historyId: String(mailbox.historyId),
    })
  })

  app.get('/gmail/v1/users/:userId/labels', guard(spec('gmail.users.labels.list', 'ListLabels', GMAIL_UNITS.labelsList)), (c) => {
    const mailbox = mailboxOf(c)
    const user = [...mailbox.userLabels.values()].map((label) => ({
      id: label.id,
      name: label.name,
      messageListVisibility: 'show',
      labelListVisibility: 'labelShow',
      type: 'user',
    }))
    return sendJson(c, { labels: [...SYSTEM_LABELS.map((label) => ({ ...label })), ...user] })
  })

  app.get('/gmail/v1/users/:userId/labels/:id', guard(spec('gmail.users.labels.get', 'GetLabel', GMAIL_UNITS.labelsGet)), (c) => {
    const mailbox = mailboxOf(c)
    const id = c.req.param('id')
    const system = SYSTEM_LABELS.find((label) => label.id === id)
    const messages = [...mailbox.messages.values()].filter((message) => message.labelIds.includes(id))
    const counts = {
      messagesTotal: messages.length,
      messagesUnread: messages.filter((message) => message.labelIds.includes('UNREAD')).length,
      threadsTotal: new Set(messages.map((message) => message.threadId)).size,
      threadsUnread: new Set(messages.filter((message) => message.labelIds.includes('UNREAD')).map((message) => message.threadId)).size,
    }
    if (system) return sendJson(c, { ...system, ...counts })
    const label = mailbox.userLabels.get(id)
    if (!label) throw notFound()
    return sendJson(c, { id: label.id, name: label.name, messageListVisibility: 'show', labelListVisibility: 'labelShow', type: 'user', ...counts })
  })

  app.get('/gmail/v1/users/:userId/messages', guard(spec('gmail.users.messages.list', 'ListMessages', GMAIL_UNITS.messagesList)), (c) => {
    const mailbox = mailboxOf(c)
    const principal = c.get('principal')
    const q = c.req.query('q') ?? ''
    if (q && isMetadataOnly(principal.scopes)) {
      throw new GoogleApiError({ code: 403, message: "Metadata scope does not support 'q' parameter", reason: 'forbidden' })
    }
    const maxResults = parseUint(c, 'maxResults', 100, 500) || 100
    const cursor = readMessageCursor(c)
    const labelIds = queryList(c, 'labelIds')
    const includeSpamTrash = c.req.query('includeSpamTrash') === 'true'
    const query = compileQuery(q, state.clock.now())
    const matches = state.mail.sortedMessages(mailbox).filter((message) => {
      if (!includeSpamTrash && !query.includesSpamTrash && message.labelIds.some((id) => id === 'SPAM' || id === 'TRASH')) return false
      if (labelIds.some((id) => !message.labelIds.includes(id))) return false
      return query.matches(state.mail.searchable(mailbox, message))
    })
    const start = cursor
      ? matches.findIndex((message) => message.internalDate < cursor.internalDate || (message.internalDate === cursor.internalDate && message.seq < cursor.seq))
      : 0
    const remaining = start === -1 ? [] : matches.slice(start)
    const page = remaining.slice(0, maxResults)
    const body: Record<string, unknown> = {}
    if (page.length) body.messages = page.map((message) => ({ id: message.id, threadId: message.threadId }))
    if (remaining.length > page.length) body.nextPageToken = messageCursor(page.at(-1)!)
    body.resultSizeEstimate = matches.length
    return sendJson(c, body)
  })

  app.get('/gmail/v1/users/:userId/messages/:id', guard(spec('gmail.users.messages.get', 'GetMessage', GMAIL_UNITS.messagesGet)), (c) => {
    const mailbox = mailboxOf(c)
    const message = messageOf(mailbox, c.req.param('id'))
    const format = (c.req.query('format') ?? 'full').toLowerCase() as MessageFormat
    if (!['minimal', 'full', 'raw', 'metadata'].includes(format)) {
      throw badRequest(`Invalid value at 'format' (type.googleapis.com/caribou.api.proto.MessageFormat), "${c.req.query('format')}"`)
    }
    if ((format === 'full' || format === 'raw') && isMetadataOnly(c.get('principal').scopes)) {
      throw new GoogleApiError({ code: 403, message: `Metadata scope doesn't allow format ${format.toUpperCase()}`, reason: 'forbidden' })
    }
    return sendJson(c, messageResource(message, format, queryList(c, 'metadataHeaders')))
  })

  app.get(
    '/gmail/v1/users/:userId/messages/:messageId/attachments/:id',
    guard(spec('gmail.users.messages.attachments.get', 'GetAttachment', GMAIL_UNITS.attachmentsGet, SCOPE_REQUIREMENTS.gmailFullContent)),
    (c) => {
      const mailbox = mailboxOf(c)
      const message = messageOf(mailbox, c.req.param('messageId'))
      const partId = partIdFromAttachmentId(message.id, c.req.param('id'))
      const part = partId === undefined ? undefined : findPart(message.tree, partId)
      if (!part || part.isMultipart) throw badRequest('Invalid attachment token')
      return sendJson(c, { size: part.body.length, data: base64urlPadded(part.body) })
    },
  )

  app.get('/gmail/v1/users/:userId/history', guard(spec('gmail.users.history.list', 'ListHistory', GMAIL_UNITS.historyList)), (c) => {
    const mailbox = mailboxOf(c)
    const startText = c.req.query('startHistoryId')
    if (!startText) throw badRequest('Missing required field: startHistoryId', 'required')
    if (!/^\d+$/.test(startText)) throw badRequest(`Invalid value at 'start_history_id' (TYPE_UINT64), "${startText}"`)
    const start = Number(startText)
    if (start < mailbox.historyFloor) throw notFound()
    const maxResults = parseUint(c, 'maxResults', 100, 500)
    const offset = readPageToken(c)
    const types = queryList(c, 'historyTypes')
    const labelId = c.req.query('labelId')
    const records = mailbox.history
      .filter((record) => record.id > start)
      .map((record) => filterRecord(record, types, labelId))
      .filter((record): record is HistoryRecord => record !== null)
    const page = records.slice(offset, offset + (maxResults || 100))
    const body: Record<string, unknown> = {}
    if (page.length) body.history = page.map((record) => ({ ...record, id: String(record.id) }))
    if (offset + page.length < records.length) body.nextPageToken = pageToken(offset + page.length)
    body.historyId = String(mailbox.historyId)
    return sendJson(c, body)
  })

  app.post('/gmail/v1/users/:userId/watch', guard(spec('gmail.users.watch', 'Watch', GMAIL_UNITS.watch, SCOPE_REQUIREMENTS.gmailWatch)), async (c) => {
    const mailbox = mailboxOf(c)
    const body = await readJsonBody(c)
    const topicName = typeof body.topicName === 'string' ? body.topicName : ''
    if (!topicName) throw badRequest('Invalid topicName does not match projects/SOME-PROJECT/topics/SOME-TOPIC')
    if (!/^projects\/[^/]+\/topics\/[^/]+$/.test(topicName)) {
      throw badRequest('Invalid topicName does not match projects/SOME-PROJECT/topics/SOME-TOPIC')
    }
    const behavior = String(body.labelFilterBehavior ?? body.labelFilterAction ?? 'include').toLowerCase()
    mailbox.watch = {
      topicName,
      labelIds: Array.isArray(body.labelIds) ? body.labelIds.map(String) : [],
      labelFilterBehavior: behavior === 'exclude' ? 'exclude' : 'include',
      expiration: state.clock.now() + WATCH_LIFETIME_MS,
    }
    return sendJson(c, { historyId: String(mailbox.historyId), expiration: String(mailbox.watch.expiration) })
  })

  app.post('/gmail/v1/users/:userId/stop', guard(spec('gmail.users.stop', 'Stop', GMAIL_UNITS.stop, SCOPE_REQUIREMENTS.gmailWatch)), (c) => {
    const mailbox = mailboxOf(c)
    mailbox.watch = null
    return c.body(null, 204)
  })

  app.all('/gmail/v1/*', (c) => {
    throw new GoogleApiError({
      code: 501,
      status: 'UNIMPLEMENTED',
      reason: 'notImplemented',
      message: `The Mailrow Google emulator does not implement ${c.req.method} ${new URL(c.req.url).pathname}.`,
    })
  })

  return app
}

function filterRecord(record: HistoryRecord, types: string[], labelId: string | undefined): HistoryRecord | null {
  const allowed = (type: string) => !types.length || types.includes(type)
  const keepMessage = (labelIds: string[]) => !labelId || labelIds.includes(labelId)
  const out: HistoryRecord = { id: record.id, messages: record.messages }
  if (record.messagesAdded && allowed('messageAdded')) {
    const items = record.messagesAdded.filter((item) => keepMessage(item.message.labelIds))
    if (items.length) out.messagesAdded = items
  }
  if (record.messagesDeleted && allowed('messageDeleted')) {
    const items = record.messagesDeleted.filter((item) => keepMessage(item.message.labelIds))
    if (items.length) out.messagesDeleted = items
  }
  if (record.labelsAdded && allowed('labelAdded')) {
    const items = record.labelsAdded.filter((item) => keepMessage(item.message.labelIds))
    if (items.length) out.labelsAdded = items
  }
  if (record.labelsRemoved && allowed('labelRemoved')) {
    const items = record.labelsRemoved.filter((item) => keepMessage(item.message.labelIds))
    if (items.length) out.labelsRemoved = items
  }
  const hasChange = out.messagesAdded || out.messagesDeleted || out.labelsAdded || out.labelsRemoved
  return hasChange ? out : null
}
