import { and, asc, desc, eq, getTableColumns, gt, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { PARSER_TYPES, PLANS, PRIORITY_PLANS, planAllowsParserType } from '@shared/plans'
import { connectedAccounts, leases, parsedEmails, parsers, submittedEmails, users, type DeferredMessage } from '../../db/schema'

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

/**
 * A parser takes new mail when it is active and its type is one the owner's plan allows: after a
 * downgrade, an AI parser is kept but paused until the plan allows it again (decision 021).
 */
const parserAllowedByPlan = sql`(${sql.join(
  PARSER_TYPES.map((type) => {
    const plans = PLANS.filter((plan) => planAllowsParserType(plan, type))
    // Every plan (and any unknown plan value, read as free) allows it: no need to look at the user.
    if (plans.length === PLANS.length) return sql`${parsers.parserType} = ${type}`
    return sql`(${parsers.parserType} = ${type} and exists (select 1 from ${users} where ${users.id} = ${parsers.userId} and ${users.plan} in (${sql.join(
      plans.map((plan) => sql`${plan}`),
      sql`, `,
    )})))`
  }),
  sql` or `,
)})`

export function listActiveParsersByUser(db: Db, userId: string) {
  return db.select().from(parsers).where(and(eq(parsers.userId, userId), eq(parsers.active, true), parserAllowedByPlan))
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
export type ClaimedMailbox = Connection & { hasParsers: boolean; hasWork: boolean; isPriority: boolean }

const onPriorityPlan = sql<boolean>`(${users.plan} in (${sql.join(
  PRIORITY_PLANS.map((plan) => sql`${plan}`),
  sql`, `,
)}))`

/**
 * Claims up to `limit` connected mailboxes whose poll is due, Pro (priority processing) before
 * the rest, oldest first within each, and moves their next poll `intervalMs` on: one statement,
 * whichever worker runs it. FOR UPDATE SKIP LOCKED makes concurrent claimers take disjoint rows,
 * and its lock re-checks `next_poll_at` on a row another worker claimed meanwhile, so a mailbox is
 * handed out once per interval (docs/decisions/016). `priorityOnly` claims Pro mailboxes alone,
 * for the worker's reserved slots (docs/decisions/020).
 */
export function claimDueMailboxes(
  db: Db,
  { limit, intervalMs, now = new Date(), priorityOnly = false }: { limit: number; intervalMs: number; now?: Date; priorityOnly?: boolean },
): Promise<ClaimedMailbox[]> {
  const due = db
    .select({ id: connectedAccounts.id })
    .from(connectedAccounts)
    .innerJoin(users, eq(users.id, connectedAccounts.userId))
    .where(and(eq(connectedAccounts.status, 'connected'), lte(connectedAccounts.nextPollAt, now), priorityOnly ? onPriorityPlan : undefined))
    .orderBy(desc(onPriorityPlan), asc(connectedAccounts.nextPollAt))
    .limit(limit)
    .for('update', { of: connectedAccounts, skipLocked: true })
  return db
    .update(connectedAccounts)
    .set({ nextPollAt: new Date(now.getTime() + intervalMs) })
    .where(inArray(connectedAccounts.id, due))
    .returning({
      ...getTableColumns(connectedAccounts),
      hasParsers: sql<boolean>`exists (select 1 from ${parsers} where ${parsers.userId} = "connected_accounts"."user_id" and ${parsers.active} and ${parserAllowedByPlan})`,
      isPriority: sql<boolean>`exists (select 1 from ${users} where ${users.id} = "connected_accounts"."user_id" and ${onPriorityPlan})`,
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

/** The raw message (base64) of an email submitted through the REST API, by its ledger message id. */
export async function findSubmittedRaw(db: Db, userId: string, messageId: string) {
  const [row] = await db
    .select({ raw: submittedEmails.raw, createdAt: submittedEmails.createdAt })
    .from(submittedEmails)
    .where(and(eq(submittedEmails.userId, userId), eq(submittedEmails.messageId, messageId)))
    .orderBy(desc(submittedEmails.createdAt))
    .limit(1)
  return row
}
/** Outcomes that count for a parser's health (an email the parser finished with). */
type Outcome = 'success' | 'partial' | 'failed'

export type LedgerOverview = {
  /** Per parser of the user: its latest outcomes (newest first, at most `latest`) and the latest one's error. */
  health: Array<{ parser_id: string; statuses: Outcome[] | null; first_error: string | null }>
  /** Per parser whose latest outcome is not a success: the partial and failed emails since its last success. */
  sinceSuccess: Array<{ parser_id: string; emails: Array<{ id: string; subject: string | null; error: string | null; status: Outcome }> }>
  /** Per parser with a backfill still running: its backfill rows, and how many are done. */
  backfill: Array<{ parser_id: string; total: number; done: number }>
  /** Per parser with emails held back by the monthly allowance: how many. */
  waiting: Array<{ parser_id: string; n: number }>
  /** The dashboard's figures (only when asked for). */
  stats: { total: number; successes: number; waiting: number } | null
  recent: Array<{ id: string; processed_ms: number; email_subject: string | null; status: string; parser_name: string | null }> | null
}

/**
 * What the dashboard and the parser list read from the ledger, in one statement (one round trip):
 * each parser's latest outcomes and last success (index-only walks per parser, however big the
 * ledger), running backfills, and optionally the totals and the most recent emails.
 */
export async function readLedgerOverview(
  db: Db,
  userId: string,
  { latest, sinceLimit, recentLimit }: { latest: number; sinceLimit: number; recentLimit?: number },
): Promise<LedgerOverview> {
  const stats = recentLimit !== undefined
  const result = await db.execute(sql`
    with outcomes as (
      select p.id as parser_id, latest.statuses, latest.first_error, last_success.at as last_success_at
      from parsers p
      cross join lateral (
        select array_agg(x.status order by x.processed_at desc) as statuses,
               (array_agg(x.error order by x.processed_at desc))[1] as first_error
        from (
          select e.status, e.error, e.processed_at from parsed_emails e
          where e.parser_id = p.id and e.user_id = ${userId} and e.status in ('success', 'partial', 'failed')
          order by e.processed_at desc limit ${latest}
        ) x
      ) latest
      left join lateral (
        select e.processed_at as at from parsed_emails e
        where e.parser_id = p.id and e.user_id = ${userId} and e.status = 'success'
        order by e.processed_at desc limit 1
      ) last_success on true
      where p.user_id = ${userId}
    ),
    since_success as (
      select o.parser_id,
             json_agg(json_build_object('id', s.id, 'subject', s.email_subject, 'error', s.error, 'status', s.status) order by s.processed_at desc) as emails
      from outcomes o
      cross join lateral (
        select e.id, e.email_subject, e.error, e.status, e.processed_at from parsed_emails e
        where e.parser_id = o.parser_id and e.user_id = ${userId} and e.status in ('partial', 'failed') and e.processed_at > o.last_success_at
        order by e.processed_at desc limit ${sinceLimit}
      ) s
      where o.last_success_at is not null and o.statuses[1] <> 'success'
      group by o.parser_id
    ),
    backfill as (
      select e.parser_id, count(*)::int as total, (count(*) filter (where e.status not in ('pending', 'processing')))::int as done
      from parsed_emails e
      where e.user_id = ${userId} and e.source = 'backfill' and e.parser_id in (
        select o.parser_id from parsed_emails o
        where o.user_id = ${userId} and o.source = 'backfill' and o.status in ('pending', 'processing')
      )
      group by e.parser_id
    )
    select
      (select coalesce(json_agg(json_build_object('parser_id', o.parser_id, 'statuses', o.statuses, 'first_error', o.first_error)), '[]') from outcomes o) as health,
      (select coalesce(json_agg(s), '[]') from since_success s) as since_success,
      (select coalesce(json_agg(b), '[]') from backfill b) as backfill,
      (
        select coalesce(json_agg(w), '[]') from (
          select e.parser_id, count(*)::int as n from parsed_emails e
          where e.user_id = ${userId} and e.status = 'quota_exceeded' and e.parser_id is not null
          group by e.parser_id
        ) w
      ) as waiting,
      ${
        stats
          ? sql`(
        -- Emails held back by the monthly allowance were neither parsed nor failed: counted apart.
        select json_build_object('total', count(*) filter (where e.status <> 'quota_exceeded'), 'successes', count(*) filter (where e.status = 'success'),
                                 'waiting', count(*) filter (where e.status = 'quota_exceeded'))
        from parsed_emails e where e.user_id = ${userId} and e.status not in ('pending', 'processing')
      ) as stats,
      (
        select coalesce(json_agg(r order by r.processed_ms desc), '[]') from (
          select e.id, (extract(epoch from e.processed_at) * 1000)::float8 as processed_ms, e.email_subject, e.status, p.name as parser_name
          from parsed_emails e left join parsers p on p.id = e.parser_id
          where e.user_id = ${userId} and e.status not in ('pending', 'processing')
          order by e.processed_at desc limit ${recentLimit}
        ) r
      ) as recent`
          : sql`null as stats, null as recent`
      }
  `)
  const row = (result as unknown as { rows: Array<Record<string, unknown>> }).rows[0]!
  // node-postgres and PGlite both parse json columns; a driver that hands back text is parsed here.
  const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T
  return {
    health: json(row.health),
    sinceSuccess: json(row.since_success),
    backfill: json(row.backfill),
    waiting: json(row.waiting),
    stats: json(row.stats),
    recent: json(row.recent),
  }
}

