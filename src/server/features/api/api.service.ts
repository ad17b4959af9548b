import { createHash } from 'node:crypto'
import { lineItemFields } from '@engine/extract'
import { parseEmail } from '@engine/mime'
import { apiEmailsQuerySchema, SUBMITTED_MESSAGE_PREFIX, type ApiEmail, type ApiEmailDetail, type ApiEmailsPage, type ApiEmailsQuery } from '@shared/contracts/api'
import type { Db } from '../../db/client'
import type { ParsedEmailStatus } from '../../db/schema'
import { AppError } from '../../lib/errors'
import { readStoredTemplate } from '../extraction/extraction.service'
import type { ParserRow } from '../parsers/parsers.queries'
import { getParser } from '../parsers/parsers.service'
import { reprocessParserEmails } from '../parsers/parser-emails.service'
import type { PipelineDeps } from '../pipeline/pipeline.service'
import { processPendingEmails } from '../pipeline/process.service'
import { writeQueuedRows } from '../pipeline/sheet-writer.service'
import { findEmail, findLedgerRowByMessage, findSubmissionByKey, insertSubmission, listEmailsPage } from './api.queries'

type LedgerRow = NonNullable<Awaited<ReturnType<typeof findEmail>>>['email']

function toApiEmail(row: LedgerRow): ApiEmail {
  return {
    id: row.id,
    parserId: row.parserId,
    messageId: row.gmailMessageId,
    source: row.source,
    subject: row.emailSubject,
    from: row.emailFrom,
    receivedAt: row.receivedAt?.toISOString() ?? null,
    processedAt: row.processedAt.toISOString(),
    status: row.status,
    error: row.error,
    writtenToSheets: row.writtenToSheets,
  }
}

/**
 * One email with its fields, the reason per empty field, and its line items: a line-item field's
 * value holds one item per line (decision 010), so item i is line i of each such field.
 */
function toApiEmailDetail(row: LedgerRow, parser: ParserRow | null): ApiEmailDetail {
  const extracted = row.extractedData ?? {}
  const names = parser ? parser.extractionFields.map((f) => f.name) : Object.keys(extracted)
  const fields: Record<string, string | null> = {}
  const reasons: Record<string, string | null> = {}
  for (const name of names) {
    const value = extracted[name]
    fields[name] = typeof value === 'string' ? value : null
    reasons[name] = row.details?.[name]?.reason ?? null
  }
  const template = parser ? readStoredTemplate(parser.template) : null
  const itemFields = template?.ok ? lineItemFields(template.template) : []
  let lineItems: ApiEmailDetail['lineItems'] = null
  if (itemFields.length > 0 && row.extractedData) {
    const columns = itemFields.map((name) => (fields[name] ?? '').split('\n'))
    const count = Math.max(0, ...columns.map((c) => c.filter(Boolean).length))
    lineItems = Array.from({ length: count }, (_, i) => Object.fromEntries(itemFields.map((name, j) => [name, columns[j]![i] || null])))
  }
  return { ...toApiEmail(row), fields, reasons, lineItems, extractionMethod: row.extractionMethod }
}

/** timestamptz as Postgres prints it: 2026-11-23 07:23:01.123456+00 */
const TIMESTAMP_TEXT = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d{1,6})?([+-]\d\d(:?\d\d)?|Z)$/

function encodeCursor(processedAt: string, id: string) {
  return Buffer.from(JSON.stringify([processedAt, id])).toString('base64url')
}

function decodeCursor(cursor: string): { processedAt: string; id: string } {
  try {
    const [processedAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[]
    if (typeof processedAt === 'string' && TIMESTAMP_TEXT.test(processedAt) && typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id)) return { processedAt, id }
  } catch {
    // answered below
  }
  throw new AppError('VALIDATION', 'cursor: not a cursor this API gave out')
}

export async function listEmails(db: Db, { userId, query }: { userId: string; query: ApiEmailsQuery }): Promise<ApiEmailsPage> {
  const q = apiEmailsQuerySchema.parse(query)
  if (q.parserId) await getParser(db, { userId, parserId: q.parserId })
  const rows = await listEmailsPage(db, {
    userId,
    parserId: q.parserId,
    status: q.status as ParsedEmailStatus | undefined,
    since: q.since ? new Date(q.since) : undefined,
    until: q.until ? new Date(q.until) : undefined,
    after: q.cursor ? decodeCursor(q.cursor) : undefined,
    limit: q.limit + 1,
  })
  const page = rows.slice(0, q.limit)
  const last = page.at(-1)
  return { emails: page.map((r) => toApiEmail(r.email)), nextCursor: rows.length > q.limit && last ? encodeCursor(last.processedAtText, last.email.id) : null }
}

export async function getEmail(db: Db, { userId, id }: { userId: string; id: string }): Promise<ApiEmailDetail> {
  const row = await findEmail(db, userId, id)
  if (!row) throw new AppError('NOT_FOUND', 'Parsed email not found')
  return toApiEmailDetail(row.email, row.parser)
}

/** Reprocess one email: the wizard's reprocess, for the email's parser. */
export async function reprocessEmail(db: Db, { userId, id, pipeline, requestSync }: { userId: string; id: string; pipeline: PipelineDeps; requestSync?: (userId: string) => Promise<void> }) {
  const row = await findEmail(db, userId, id)
  if (!row) throw new AppError('NOT_FOUND', 'Parsed email not found')
  if (!row.email.parserId) throw new AppError('CONFLICT', 'The parser of this email was deleted; it cannot be reprocessed.')
  await reprocessParserEmails(db, { userId, parserId: row.email.parserId, input: { ids: [id] }, pipeline, requestSync })
  return getEmail(db, { userId, id })
}

/**
 * The ledger's message id for a submitted email: from its Message-ID header (the same email sent
 * twice is one row, as with Gmail), else from its bytes. 'api-' keeps it apart from Gmail's hex ids.
 */
export function submittedMessageId(messageIdHeader: string | null, raw: Uint8Array): string {
  const basis = messageIdHeader?.trim() ? `message-id:${messageIdHeader.trim().toLowerCase()}` : createHash('sha256').update(raw).digest('hex')
  return `${SUBMITTED_MESSAGE_PREFIX}${createHash('sha256').update(basis).digest('hex').slice(0, 32)}`
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } }
  return e?.code === '23505' || e?.cause?.code === '23505'
}

/**
 * An email from outside Gmail: into the ledger as pending (with its raw message), then through the
 * same extraction and sheet writer as Gmail mail, here and now when it can be (else by the worker's
 * next pass). With an Idempotency-Key a retry returns the first submission and adds nothing.
 */
export async function submitEmail(
  db: Db,
  { userId, parserId, raw, idempotencyKey, pipeline }: { userId: string; parserId: string; raw: Uint8Array; idempotencyKey: string | null; pipeline: PipelineDeps },
): Promise<{ email: ApiEmailDetail; created: boolean }> {
  await getParser(db, { userId, parserId })
  const rawBase64 = Buffer.from(raw).toString('base64')
  const replay = async (key: string) => {
    const earlier = await findSubmissionByKey(db, userId, key)
    if (!earlier) return undefined
    if (earlier.parserId !== parserId || earlier.submission.raw !== rawBase64) {
      throw new AppError('CONFLICT', 'This Idempotency-Key was already used for a different request.')
    }
    return { email: await getEmail(db, { userId, id: earlier.submission.parsedEmailId }), created: false }
  }
  if (idempotencyKey) {
    const earlier = await replay(idempotencyKey)
    if (earlier) return earlier
  }
  const parsed = await parseEmail(raw)
  if (!parsed.ok) throw new AppError('VALIDATION', `The email could not be read: ${parsed.reason}`)
  const { email } = parsed
  const messageId = submittedMessageId(email.messageId, raw)
  const date = email.date && !Number.isNaN(Date.parse(email.date)) ? new Date(email.date) : new Date()
  let ledgerId: string | undefined
  try {
    ledgerId = await insertSubmission(db, { userId, parserId, messageId, raw: rawBase64, receivedAt: date, subject: email.subject || null, from: email.from || null, idempotencyKey })
  } catch (error) {
    // The same key at the same moment from a retry: the other request's submission stands.
    if (idempotencyKey && isUniqueViolation(error)) {
      const earlier = await replay(idempotencyKey)
      if (earlier) return earlier
    }
    throw error
  }
  if (!ledgerId) {
    const existing = await findLedgerRowByMessage(db, userId, parserId, messageId)
    if (!existing) throw new AppError('CONFLICT', 'This email is being submitted by another request; try again.')
    return { email: await getEmail(db, { userId, id: existing.id }), created: false }
  }
  try {
    await processPendingEmails(db, { userId, access: pipeline.access, ai: pipeline.ai, leaseMs: pipeline.leaseMs })
    await writeQueuedRows(db, { userId, access: pipeline.access, options: pipeline.write, leaseMs: pipeline.leaseMs })
  } catch (error) {
    // The email is safely in the ledger: the worker's next pass processes or writes it.
    if (!(error instanceof AppError) || !['UNAVAILABLE', 'RATE_LIMITED', 'GOOGLE_REAUTH_REQUIRED'].includes(error.code)) throw error
  }
  return { email: await getEmail(db, { userId, id: ledgerId }), created: true }
}
