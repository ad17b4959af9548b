import { randomUUID } from 'node:crypto'
import { and, count, desc, eq, inArray } from 'drizzle-orm'
import type { AiProviderConfig } from '../../../engine/ai'
import type { Db } from '../../db/client'
import { parsedEmails } from '../../db/schema'
import type { GoogleAccess } from '../connections/connections.service'
import { syncMailbox, type RawCache, type SyncOptions } from './mailbox-sync.service'
import { AppError } from '../../lib/errors'
import type { Logger } from '../../lib/logger'
import { acquireLease, insertPendingRows, releaseLease, type ClaimedMailbox } from './pipeline.queries'
import { DEFAULT_LEASE_MS, processPendingEmails } from './process.service'
import { writeQueuedRows, type WriteOptions } from './sheet-writer.service'

/** Failed emails in a row before a parser shows an alert. */
const FAILURE_STREAK = 3

export type PipelineDeps = {
  access: GoogleAccess
  ai: AiProviderConfig | null
  write?: WriteOptions
  sync?: SyncOptions
  /** How long a claim on a row or a spreadsheet outlives a worker that died holding it. */
  leaseMs?: number
}

/**
 * One pass for a mailbox: new mail into the ledger, the ledger's pending rows extracted, queued
 * rows written to their spreadsheets. Each step is safe to repeat after a crash. Given the
 * scheduler's claim, a pass with no new mail and no open ledger work costs two statements (the
 * mailbox lease, taken and given back) and one Gmail history call.
 */
export async function runMailboxPass(db: Db, { userId, deps, claimed }: { userId: string; deps: PipelineDeps; claimed?: ClaimedMailbox }) {
  // One worker per mailbox at a time keeps Gmail's per-user quota; a crashed worker's lease expires.
  const lease = { key: `mailbox:${userId}`, holder: randomUUID(), ttlMs: deps.leaseMs ?? DEFAULT_LEASE_MS }
  if (!(await acquireLease(db, lease))) return { skipped: true as const }
  try {
    const cache: RawCache = new Map()
    const synced = await syncMailbox(db, { userId, access: deps.access, cache, options: deps.sync, claimed })
    if (claimed && !claimed.hasWork && synced.added === 0) return { skipped: false as const, synced, processed: undefined, written: undefined }
    await acquireLease(db, lease)
    const processed = await processPendingEmails(db, { userId, access: deps.access, ai: deps.ai, cache, leaseMs: deps.leaseMs })
    await acquireLease(db, lease)
    const written = await writeQueuedRows(db, { userId, access: deps.access, options: deps.write, leaseMs: deps.leaseMs })
    return { skipped: false as const, synced, processed, written }
  } finally {
    await releaseLease(db, lease)
  }
}

/** A pass for a mailbox the scheduler handed out; a connection that needs the user is logged, not retried. */
export async function runScheduledPass(db: Db, { mailbox, deps, logger }: { mailbox: ClaimedMailbox; deps: PipelineDeps; logger: Logger }) {
  // No parser and nothing left in the ledger: nothing to do (and no Gmail call).
  if (!mailbox.hasParsers && !mailbox.hasWork) return
  try {
    const result = await runMailboxPass(db, { userId: mailbox.userId, deps, claimed: mailbox })
    if (!result.skipped && (result.synced.added || result.written?.rowsWritten)) logger.info({ userId: mailbox.userId, ...result }, 'mailbox pass')
  } catch (error) {
    // The connection is marked and the dashboard says why; retrying can't help until the user reconnects.
    if (error instanceof AppError && error.code === 'GOOGLE_REAUTH_REQUIRED') {
      logger.warn({ userId: mailbox.userId, reason: error.message }, 'mailbox needs reconnecting')
      return
    }
    // The next poll is the retry: the ledger keeps whatever this pass had reached.
    logger.error({ userId: mailbox.userId, err: error }, 'mailbox pass failed')
  }
}

/** Emails that should be parsed join the ledger as pending (once per parser and message). */
export function addPendingEmails(db: Db, rows: Parameters<typeof insertPendingRows>[1]) {
  return insertPendingRows(db, rows)
}

/** An email that came back incomplete since its sender's layout seems to have changed. */
export type LayoutChangedEmail = { id: string; subject: string | null; error: string | null }

/**
 * Each parser's health from its latest outcomes: an alert when the last emails all failed, and
 * "layout changed" when the last emails came back partial or failed after earlier successes
 * (the sender changed the email's layout; the affected emails are listed so they can be fixed).
 */
export async function parserHealth(db: Db, userId: string): Promise<{ alerts: Map<string, string>; layoutChanged: Map<string, LayoutChangedEmail[]> }> {
  const rows = await db
    .select({ id: parsedEmails.id, parserId: parsedEmails.parserId, status: parsedEmails.status, error: parsedEmails.error, subject: parsedEmails.emailSubject })
    .from(parsedEmails)
    .where(and(eq(parsedEmails.userId, userId), inArray(parsedEmails.status, ['success', 'partial', 'failed'])))
    .orderBy(desc(parsedEmails.processedAt))
    .limit(300)
  const byParser = new Map<string, typeof rows>()
  for (const row of rows) {
    if (!row.parserId) continue
    const list = byParser.get(row.parserId) ?? []
    list.push(row)
    byParser.set(row.parserId, list)
  }
  const alerts = new Map<string, string>()
  const layoutChanged = new Map<string, LayoutChangedEmail[]>()
  for (const [parserId, list] of byParser) {
    const latest = list.slice(0, FAILURE_STREAK)
    if (latest.length < FAILURE_STREAK) continue
    if (latest.every((r) => r.status === 'failed')) alerts.set(parserId, `The last ${FAILURE_STREAK} emails failed: ${latest[0]!.error ?? 'no field was found'}`)
    // Every email since the last success, when there are enough of them and some still gave fields.
    const since = list.findIndex((r) => r.status === 'success')
    if (since >= FAILURE_STREAK && list.slice(0, since).some((r) => r.status === 'partial')) {
      layoutChanged.set(
        parserId,
        list.slice(0, since).map((r) => ({ id: r.id, subject: r.subject, error: r.error })),
      )
    }
  }
  return { alerts, layoutChanged }
}

/** Backfill progress per parser, for the dashboard's progress bar; absent when none is running. */
export async function backfillProgress(db: Db, userId: string): Promise<Map<string, { total: number; done: number }>> {
  const rows = await db
    .select({ parserId: parsedEmails.parserId, status: parsedEmails.status, n: count() })
    .from(parsedEmails)
    .where(and(eq(parsedEmails.userId, userId), eq(parsedEmails.source, 'backfill')))
    .groupBy(parsedEmails.parserId, parsedEmails.status)
  const progress = new Map<string, { total: number; done: number }>()
  for (const row of rows) {
    if (!row.parserId) continue
    const entry = progress.get(row.parserId) ?? { total: 0, done: 0 }
    entry.total += row.n
    if (!['pending', 'processing'].includes(row.status)) entry.done += row.n
    progress.set(row.parserId, entry)
  }
  for (const [id, entry] of progress) if (entry.done >= entry.total) progress.delete(id)
  return progress
}

