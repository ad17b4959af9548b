import { randomUUID } from 'node:crypto'
import type { AiProviderConfig } from '@engine/ai'
import type { Db } from '../../db/client'
import type { GoogleAccess } from '../connections/connections.service'
import { syncMailbox, type RawCache, type SyncOptions } from './mailbox-sync.service'
import { AppError } from '../../lib/errors'
import type { Logger } from '../../lib/logger'
import { acquireLease, insertPendingRows, readLedgerOverview, releaseLease, type ClaimedMailbox, type LedgerOverview } from './pipeline.queries'
import { DEFAULT_LEASE_MS, processPendingEmails } from './process.service'
import { writeQueuedRows, type WriteOptions } from './sheet-writer.service'
import { createWebhookEmitter, type WebhookEmitter } from '../webhooks/webhooks.service'

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
    const webhooks = createWebhookEmitter(db, userId)
    const processed = await processPendingEmails(db, { userId, access: deps.access, ai: deps.ai, cache, leaseMs: deps.leaseMs, webhooks })
    if (processed.partial + processed.failed > 0) await announceParsersNeedingAttention(db, { userId, webhooks })
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

/** How many emails since a parser's last success the "layout changed" notice lists, at most. */
const LAYOUT_CHANGED_LIMIT = 300

export type ParserHealth = {
  alerts: Map<string, string>
  layoutChanged: Map<string, LayoutChangedEmail[]>
  /** Backfill progress per parser, for the dashboard's progress bar; absent when none is running. */
  backfill: Map<string, { total: number; done: number }>
  /** Emails held back by the monthly allowance, per parser that has any. */
  waiting: Map<string, number>
  /** The dashboard's totals and latest emails, when asked for. */
  stats: LedgerOverview['stats']
  recent: LedgerOverview['recent']
}

/**
 * Each parser's health from its latest outcomes: an alert when the last emails all failed, and
 * "layout changed" when the last emails came back partial or failed after earlier successes
 * (the sender changed the email's layout; the affected emails are listed so they can be fixed).
 * One statement, with the dashboard's figures too when `recentLimit` is given.
 */
export async function parserHealth(db: Db, userId: string, { recentLimit }: { recentLimit?: number } = {}): Promise<ParserHealth> {
  const overview = await readLedgerOverview(db, userId, { latest: FAILURE_STREAK, sinceLimit: LAYOUT_CHANGED_LIMIT, recentLimit })
  const alerts = new Map<string, string>()
  for (const { parser_id, statuses, first_error } of overview.health) {
    if (statuses && statuses.length >= FAILURE_STREAK && statuses.every((s) => s === 'failed')) {
      alerts.set(parser_id, `The last ${FAILURE_STREAK} emails failed: ${first_error ?? 'no field was found'}`)
    }
  }
  // Every email since the last success, when there are enough of them and some still gave fields.
  const layoutChanged = new Map<string, LayoutChangedEmail[]>()
  for (const { parser_id, emails } of overview.sinceSuccess) {
    if (emails.length >= FAILURE_STREAK && emails.some((e) => e.status === 'partial')) {
      layoutChanged.set(
        parser_id,
        emails.map((e) => ({ id: e.id, subject: e.subject, error: e.error })),
      )
    }
  }
  const backfill = new Map<string, { total: number; done: number }>()
  for (const row of overview.backfill) if (row.done < row.total) backfill.set(row.parser_id, { total: row.total, done: row.done })
  const waiting = new Map(overview.waiting.map((row) => [row.parser_id, row.n] as const))
  return { alerts, layoutChanged, backfill, waiting, stats: overview.stats, recent: overview.recent }
}

/**
 * `parser.needs_attention` for parsers whose health turned (the sender's layout changed, or the
 * last emails all failed). Each episode is announced once: the key names the first email of a
 * layout change, and a failing streak at most once a day.
 */
export async function announceParsersNeedingAttention(db: Db, { userId, webhooks, now = new Date() }: { userId: string; webhooks: WebhookEmitter; now?: Date }) {
  if (!(await webhooks.hasEndpoints())) return
  const { alerts, layoutChanged } = await parserHealth(db, userId)
  for (const [parserId, emails] of layoutChanged) {
    await webhooks.emit({
      type: 'parser.needs_attention',
      parserId,
      data: { parserId, reason: 'layout_changed', message: "The sender's layout seems to have changed: these emails came back incomplete.", emails },
      dedupeKey: `parser.needs_attention:layout_changed:${parserId}:${emails.at(-1)!.id}`,
    })
  }
  for (const [parserId, message] of alerts) {
    if (layoutChanged.has(parserId)) continue
    await webhooks.emit({
      type: 'parser.needs_attention',
      parserId,
      data: { parserId, reason: 'failing', message },
      dedupeKey: `parser.needs_attention:failing:${parserId}:${now.toISOString().slice(0, 10)}`,
    })
  }
}

