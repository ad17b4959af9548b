import type { AiProviderConfig } from '@engine/ai'
import { parseEmail } from '@engine/mime'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/errors'
import type { GoogleAccess } from '../connections/connections.service'
import { emailFacts, extractFromEmail, fieldReasons, readStoredTemplate, relearnTemplate, sheetKeyColumn, sheetRowsFor } from '../extraction/extraction.service'
import { updateParserTemplate } from '../parsers/parsers.queries'
import { getRawMessage } from '../gmail/gmail.service'
import { getMonthlyUsage } from '../usage/usage.service'
import { createWebhookEmitter, type WebhookEmitter } from '../webhooks/webhooks.service'
import type { RawCache } from './mailbox-sync.service'
import { claimRowsForProcessing, deferRow, finishRow, findParsersByIds, type LedgerRow } from './pipeline.queries'

const BATCH = 50
const PARALLEL = 8
/** A row claimed longer ago than this belongs to a worker that died; another may take it. */
export const DEFAULT_LEASE_MS = 60 * 1000
/** An email whose download failed after the client's retries is tried again this much later. */
const RETRY_LATER_MS = 30 * 1000

/**
 * Extracts every pending ledger row of a user, oldest first, within the month's allowance.
 * Rows over the allowance become quota_exceeded and are picked up again once quota allows.
 */
export async function processPendingEmails(
  db: Db,
  {
    userId,
    access,
    ai,
    cache,
    leaseMs = DEFAULT_LEASE_MS,
    now = () => new Date(),
    webhooks = createWebhookEmitter(db, userId),
  }: { userId: string; access: GoogleAccess; ai: AiProviderConfig | null; cache?: RawCache; leaseMs?: number; now?: () => Date; webhooks?: WebhookEmitter },
) {
  const usage = await getMonthlyUsage(db, { userId, now: now() })
  let used = usage.used
  const counts = { success: 0, partial: 0, failed: 0, quota_exceeded: 0, skipped: 0, deferred: 0 }
  for (;;) {
    const rows = await claimRowsForProcessing(db, { userId, limit: BATCH, leaseMs, includeQuotaExceeded: used < usage.limit, now: now() })
    if (rows.length === 0) break
    const parsers = new Map((await findParsersByIds(db, [...new Set(rows.map((r) => r.parserId).filter((id): id is string => Boolean(id)))])).map((p) => [p.id, p]))
    // Quota is decided in ledger order before the parallel work, so the boundary is exact.
    const allowed: LedgerRow[] = []
    for (const row of rows) {
      if (used >= usage.limit) {
        if (counts.quota_exceeded === 0) {
          // Once a month per endpoint, however many passes meet the limit.
          await webhooks.emit({
            type: 'usage.limit_reached',
            data: { month: usage.month, used, limit: usage.limit },
            dedupeKey: `usage.limit_reached:${usage.month}`,
          })
        }
        await finishRow(db, row.id, { status: 'quota_exceeded', error: `Monthly limit of ${usage.limit.toLocaleString('en-US')} emails reached; it will be processed when your quota allows.` })
        counts.quota_exceeded++
      } else {
        used++
        allowed.push(row)
      }
    }
    for (let i = 0; i < allowed.length; i += PARALLEL) {
      const outcomes = await Promise.all(
        allowed.slice(i, i + PARALLEL).map(async (row) => {
          try {
            const outcome = await processRow(db, { row, parser: row.parserId ? parsers.get(row.parserId) : undefined, userId, access, ai, cache })
            // The row has its outcome: receivers hear of it (queued here, sent by the delivery loop).
            if (outcome.event) await webhooks.emit({ type: 'email.parsed', parserId: row.parserId, data: outcome.event })
            return outcome.status
          } catch (error) {
            // Google slow or failing for this one email: it waits (still claimed) and the rest go on.
            if (!(error instanceof AppError) || !['UNAVAILABLE', 'RATE_LIMITED'].includes(error.code)) throw error
            await deferRow(db, row.id, { retryAt: new Date(now().getTime() + RETRY_LATER_MS), leaseMs })
            return 'deferred' as const
          }
        }),
      )
      for (const status of outcomes) counts[status]++
    }
  }
  return counts
}

type Outcome = { status: 'success' | 'partial' | 'failed' | 'skipped'; event?: Record<string, unknown> }
type Parser = NonNullable<Awaited<ReturnType<typeof findParsersByIds>>[number]>

/** The `email.parsed` webhook's data: the ledger row as the API shows it. */
function emailParsedData(
  row: LedgerRow,
  parser: Parser,
  set: { status: 'success' | 'partial' | 'failed'; subject?: string | null; from?: string | null; receivedAt?: Date | null; fields?: Record<string, unknown> | null; reasons?: Record<string, { reason: string | null }> | null; error?: string | null },
) {
  return {
    id: row.id,
    status: set.status,
    parser: { id: parser.id, name: parser.name },
    email: { messageId: row.gmailMessageId, subject: set.subject ?? row.emailSubject, from: set.from ?? row.emailFrom, receivedAt: (set.receivedAt ?? row.receivedAt)?.toISOString() ?? null },
    fields: set.fields ?? {},
    reasons: set.reasons ?? {},
    error: set.error ?? null,
    processedAt: new Date().toISOString(),
  }
}

async function processRow(
  db: Db,
  { row, parser, userId, access, ai, cache }: { row: LedgerRow; parser: Parser | undefined; userId: string; access: GoogleAccess; ai: AiProviderConfig | null; cache?: RawCache },
): Promise<Outcome> {
  const started = performance.now()
  if (!parser || !parser.template || !row.gmailMessageId) {
    await finishRow(db, row.id, { status: 'skipped', error: 'The parser was deleted before this email was processed.' })
    return { status: 'skipped' }
  }
  const template = readStoredTemplate(parser.template)
  if (!template.ok) {
    await finishRow(db, row.id, { status: 'failed', error: template.reason })
    return { status: 'failed', event: emailParsedData(row, parser, { status: 'failed', error: template.reason }) }
  }
  let message = cache?.get(row.gmailMessageId)
  if (!message) {
    try {
      const fetched = await getRawMessage(db, { userId, messageId: row.gmailMessageId, access })
      message = { raw: fetched.raw, internalDate: fetched.internalDate }
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') {
        await finishRow(db, row.id, { status: 'skipped', error: 'The email was deleted from Gmail before it was processed.' })
        return { status: 'skipped' }
      }
      throw error
    }
  }
  const fetchedMs = performance.now() - started
  const parsed = message.parsed ?? (await parseEmail(message.raw))
  if (!parsed.ok) {
    const error = `The email could not be read: ${parsed.reason}`
    await finishRow(db, row.id, { status: 'failed', error })
    return { status: 'failed', event: emailParsedData(row, parser, { status: 'failed', error }) }
  }
  const result = await extractFromEmail(template.template, parsed.email, {
    parserType: parser.parserType,
    parseAttachments: parser.parseAttachments,
    ai,
  })
  if (result.repair && parser.parserType !== 'template') {
    const relearned = await relearnTemplate(template.template, parsed.email, result.repair.fields, new Date())
    if (relearned) await updateParserTemplate(db, parser.id, relearned as unknown as Record<string, unknown>)
  }
  const facts = emailFacts(parsed.email)
  const receivedAt = row.receivedAt ?? new Date(message.internalDate)
  // A reprocessed email whose rows are in the sheet has them overwritten in place ('updating');
  // one whose append may be in flight keeps it: it is never appended twice.
  const canWrite = result.status !== 'failed' && Boolean(parser.destinationConfig?.spreadsheetId)
  const writes = canWrite && (row.sheetState === 'none' || row.sheetState === 'queued' || row.sheetState === 'written' || row.sheetState === 'updating')
  const sheetState = row.sheetState === 'written' || row.sheetState === 'updating' ? ('updating' as const) : ('queued' as const)
  const reasons = fieldReasons(parser.extractionFields, result)
  await finishRow(db, row.id, {
    status: result.status,
    emailSubject: facts.subject,
    emailFrom: facts.from,
    receivedAt,
    extractedData: result.fields,
    details: reasons,
    extractionMethod: result.method,
    error: result.error,
    timings: { fetchMs: Math.round(fetchedMs), extractMs: result.durationMs, totalMs: Math.round(performance.now() - started) },
    ...(writes
      ? {
          sheetState,
          spreadsheetId: parser.destinationConfig!.spreadsheetId,
          sheetRows: sheetRowsFor(parser, result, parsed.email, row.gmailMessageId, receivedAt),
          sheetKey: parser.sheetKey,
          sheetKeyAt: sheetKeyColumn(parser),
        }
      : {}),
  })
  return {
    status: result.status,
    event: emailParsedData(row, parser, { status: result.status, subject: facts.subject, from: facts.from, receivedAt, fields: result.fields, reasons, error: result.error }),
  }
}
