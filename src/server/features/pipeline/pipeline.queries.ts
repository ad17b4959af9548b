import { and, asc, eq, getTableColumns, gt, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { connectedAccounts, leases, parsedEmails, parsers, type DeferredMessage } from '../../db/schema'

export type LedgerRow = typeof parsedEmails.$inferSelect
type NewLedgerRow = typeof parsedEmails.$inferInsert

/**
 * New (parser, message) pairs enter the ledger as pending. The unique key makes overlapping syncs,
 * retries and pushes harmless: a pair that is already there is left alone.
 */
export async function insertPendingRows(db: Db, rows: Omit<NewLedgerRow, 'status'>[]): Promise<number> {
  if (rows.length === 0) return 0
  const inserted = await db
    .insert(parsedEmails)
    .values(rows.map((row) => ({ ...row, status: 'pending' as const })))
    .onConflictDoNothing()
    .returning({ id: parsedEmails.id })
  return inserted.length
}

/**
 * Takes up to `limit` rows to process: pending ones, ones whose worker died mid-way (lease
 * expired) and, when the user has quota again, ones held back by the monthly limit. Oldest first.
 */
export function claimRowsForProcessing(
  db: Db,
  { userId, limit, leaseMs, includeQuotaExceeded, now = new Date() }: { userId: string; limit: number; leaseMs: number; includeQuotaExceeded: boolean; now?: Date },
): Promise<LedgerRow[]> {
  const claimable = or(
    eq(parsedEmails.status, 'pending'),
    and(eq(parsedEmails.status, 'processing'), lt(parsedEmails.claimedAt, new Date(now.getTime() - leaseMs))),
    includeQuotaExceeded ? eq(parsedEmails.status, 'quota_exceeded') : sql`false`,
  )
  const ids = db
    .select({ id: parsedEmails.id })
    .from(parsedEmails)
    .where(and(eq(parsedEmails.userId, userId), claimable))
    // Gmail ids grow with arrival: they order mail that arrived within the same second.
    .orderBy(asc(parsedEmails.receivedAt), asc(parsedEmails.gmailMessageId))
    .limit(limit)
    .for('update', { skipLocked: true })
  return db.update(parsedEmails).set({ status: 'processing', claimedAt: now }).where(inArray(parsedEmails.id, ids)).returning()
}

/** Records a claimed row's outcome; a no-op when the row was finished meanwhile (the Test Parser dialog). */
export function finishRow(db: Db, id: string, set: Partial<NewLedgerRow>) {
  return db
    .update(parsedEmails)
    .set({ ...set, claimedAt: null, processedAt: new Date() })
    .where(and(eq(parsedEmails.id, id), eq(parsedEmails.status, 'processing')))
}

/** Leaves a claimed row for later: its claim runs out at `retryAt`, when any pass may take it again. */
export function deferRow(db: Db, id: string, { retryAt, leaseMs }: { retryAt: Date; leaseMs: number }) {
  return db
    .update(parsedEmails)
    .set({ claimedAt: new Date(retryAt.getTime() - leaseMs) })
    .where(eq(parsedEmails.id, id))
}

/** Spreadsheets of this user with rows waiting to be written (or whose last write is unsettled). */
export async function listSpreadsheetsToWrite(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ spreadsheetId: parsedEmails.spreadsheetId })
    .from(parsedEmails)
    .where(and(eq(parsedEmails.userId, userId), inArray(parsedEmails.sheetState, ['queued', 'writing', 'updating']), isNotNull(parsedEmails.spreadsheetId)))
  return rows.map((r) => r.spreadsheetId!).filter(Boolean)
}

/**
 * Rows to append next, oldest first: queued ones, and 'writing' ones whose last append can no
 * longer land (its deadline passed before `settledBefore`, or it was answered: attempt at epoch).
 */
export function listRowsToWrite(db: Db, spreadsheetId: string, limit: number, settledBefore: Date) {
  return db
    .select()
    .from(parsedEmails)
    .where(
      and(
        eq(parsedEmails.spreadsheetId, spreadsheetId),
        or(
          eq(parsedEmails.sheetState, 'queued'),
          and(eq(parsedEmails.sheetState, 'writing'), or(isNull(parsedEmails.sheetAttemptAt), lte(parsedEmails.sheetAttemptAt, settledBefore))),
        ),
      ),
    )
    .orderBy(asc(parsedEmails.receivedAt), asc(parsedEmails.gmailMessageId))
    .limit(limit)
}

/** Rows of an append whose answer was lost and which Sheets may still be carrying out. */
export function listRowsInFlight(db: Db, spreadsheetId: string, settledBefore: Date) {
  return db
    .select()
    .from(parsedEmails)
    .where(and(eq(parsedEmails.spreadsheetId, spreadsheetId), eq(parsedEmails.sheetState, 'writing'), gt(parsedEmails.sheetAttemptAt, settledBefore)))
}

/** Rows of reprocessed emails already in the sheet, to overwrite in place. */
export function listRowsToUpdate(db: Db, spreadsheetId: string, limit: number) {
  return db
    .select()
    .from(parsedEmails)
    .where(and(eq(parsedEmails.spreadsheetId, spreadsheetId), eq(parsedEmails.sheetState, 'updating')))
    .orderBy(asc(parsedEmails.receivedAt), asc(parsedEmails.gmailMessageId))
    .limit(limit)
}

/** 'writing' with this attempt time: the rows' last append was answered, none of it is still in flight. */
export const NO_APPEND_IN_FLIGHT = new Date(0)

export function setSheetState(db: Db, ids: string[], state: 'queued' | 'writing' | 'written', at = new Date()) {
  if (ids.length === 0) return Promise.resolve()
  return db
    .update(parsedEmails)
    .set({ sheetState: state, sheetAttemptAt: at, ...(state === 'written' ? { writtenToSheets: true } : {}) })
    .where(inArray(parsedEmails.id, ids))
}

/** Takes (or renews) a lease if it is free, expired or already ours; false when another worker holds it. */
export async function acquireLease(db: Db, { key, holder, ttlMs }: { key: string; holder: string; ttlMs: number }) {
  const now = new Date()
  const expiresAt = new Date(now.getTime() + ttlMs)
  const rows = await db
    .insert(leases)
    .values({ key, holder, expiresAt })
    .onConflictDoUpdate({
      target: leases.key,
      set: { holder, expiresAt },
      setWhere: or(lt(leases.expiresAt, now), eq(leases.holder, holder)),
    })
    .returning({ holder: leases.holder })
  return rows.length > 0
}

export function releaseLease(db: Db, { key, holder }: { key: string; holder: string }) {
  return db.delete(leases).where(and(eq(leases.key, key), eq(leases.holder, holder)))
}

export function listActiveParsersByUser(db: Db, userId: string) {
  return db.select().from(parsers).where(and(eq(parsers.userId, userId), eq(parsers.active, true)))
}

export function findParsersByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([])
  return db.select().from(parsers).where(inArray(parsers.id, ids))
}

/** Which of these Gmail messages already have a ledger row (for any parser) of this user. */
export async function listKnownMessageIds(db: Db, userId: string, messageIds: string[]): Promise<string[]> {
  if (messageIds.length === 0) return []
  const rows = await db
    .selectDistinct({ id: parsedEmails.gmailMessageId })
    .from(parsedEmails)
    .where(and(eq(parsedEmails.userId, userId), inArray(parsedEmails.gmailMessageId, messageIds)))
  return rows.map((r) => r.id!).filter(Boolean)
}

export function updateSyncState(db: Db, userId: string, set: { historyId?: string | null; lastSyncedAt?: Date; syncBacklog?: DeferredMessage[] }) {
  return db
    .update(connectedAccounts)
    .set(set)
    .where(and(eq(connectedAccounts.userId, userId), eq(connectedAccounts.provider, 'gmail')))
}

export type Connection = typeof connectedAccounts.$inferSelect

/** A mailbox the scheduler handed to this worker, with what its pass needs to know up front. */
export type ClaimedMailbox = Connection & { hasParsers: boolean; hasWork: boolean }

/**
 * Claims up to `limit` connected mailboxes whose poll is due, oldest first, and moves their next
 * poll `intervalMs` on: one statement, whichever worker runs it. FOR UPDATE SKIP LOCKED makes
 * concurrent claimers take disjoint rows, and its lock re-checks `next_poll_at` on a row another
 * worker claimed meanwhile, so a mailbox is handed out once per interval (docs/decisions/016).
 */
export function claimDueMailboxes(db: Db, { limit, intervalMs, now = new Date() }: { limit: number; intervalMs: number; now?: Date }): Promise<ClaimedMailbox[]> {
  const due = db
    .select({ id: connectedAccounts.id })
    .from(connectedAccounts)
    .where(and(eq(connectedAccounts.status, 'connected'), lte(connectedAccounts.nextPollAt, now)))
    .orderBy(asc(connectedAccounts.nextPollAt))
    .limit(limit)
    .for('update', { skipLocked: true })
  return db
    .update(connectedAccounts)
    .set({ nextPollAt: new Date(now.getTime() + intervalMs) })
    .where(inArray(connectedAccounts.id, due))
    .returning({
      ...getTableColumns(connectedAccounts),
      hasParsers: sql<boolean>`exists (select 1 from ${parsers} where ${parsers.userId} = "connected_accounts"."user_id" and ${parsers.active})`,
      // Both answered by the partial indexes on open work, however long the ledger grows.
      hasWork: sql<boolean>`(exists (select 1 from ${parsedEmails} where ${parsedEmails.userId} = "connected_accounts"."user_id" and ${parsedEmails.status} in ('pending', 'processing', 'quota_exceeded'))
        or exists (select 1 from ${parsedEmails} where ${parsedEmails.userId} = "connected_accounts"."user_id" and ${parsedEmails.sheetState} in ('queued', 'writing', 'updating')))`,
    })
}

/** Makes the mailbox due now (Gmail push, a new parser): the next scheduler tick hands it to a worker. */
export function makeMailboxDue(db: Db, userId: string, now = new Date()) {
  return db
    .update(connectedAccounts)
    .set({ nextPollAt: now })
    .where(and(eq(connectedAccounts.userId, userId), eq(connectedAccounts.provider, 'gmail')))
}
