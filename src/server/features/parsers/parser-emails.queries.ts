import { and, count, desc, eq, ilike, inArray, isNotNull, notInArray, or, sql, type SQL } from 'drizzle-orm'
import type { ParserEmailFilter } from '@shared/contracts/parsers'
import type { Db } from '../../db/client'
import { parsedEmails, parsers, type ParsedEmailStatus, type TrainingSampleRef } from '../../db/schema'

/** The ledger statuses behind each filter of a parser's page. */
export const FILTER_STATUSES: Record<Exclude<ParserEmailFilter, 'all'>, ParsedEmailStatus[]> = {
  success: ['success'],
  partial: ['partial'],
  failed: ['failed'],
  waiting: ['pending', 'processing', 'quota_exceeded'],
  skipped: ['skipped'],
}

/** Emails whose extraction is over and can be run again (not queued or being processed right now). */
export const REPROCESSABLE: ParsedEmailStatus[] = ['success', 'partial', 'failed', 'skipped', 'quota_exceeded']

const byParser = (userId: string, parserId: string) => and(eq(parsedEmails.userId, userId), eq(parsedEmails.parserId, parserId))

/** `q` as a literal ILIKE pattern: %, _ and \ in the search mean themselves. */
function containsPattern(q: string) {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

function searchCondition(q: string): SQL | undefined {
  if (!q) return undefined
  const pattern = containsPattern(q)
  return or(ilike(parsedEmails.emailSubject, pattern), ilike(parsedEmails.emailFrom, pattern), sql`${parsedEmails.extractedData}::text ilike ${pattern}`)
}

/** The emails a parser's table shows for a search and a status filter (the export takes the same). */
export function parserEmailsWhere({ userId, parserId, q, status }: { userId: string; parserId: string; q: string; status: ParserEmailFilter }) {
  return and(byParser(userId, parserId), searchCondition(q), status === 'all' ? undefined : inArray(parsedEmails.status, FILTER_STATUSES[status]))
}

export async function listParserEmailsPage(
  db: Db,
  { userId, parserId, page, pageSize, q, status }: { userId: string; parserId: string; page: number; pageSize: number; q: string; status: ParserEmailFilter },
) {
  const where = parserEmailsWhere({ userId, parserId, q, status })
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(parsedEmails)
      .where(where)
      .orderBy(sql`coalesce(${parsedEmails.receivedAt}, ${parsedEmails.processedAt}) desc`, desc(parsedEmails.gmailMessageId), desc(parsedEmails.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(parsedEmails).where(where),
  ])
  return { rows, total: total?.n ?? 0 }
}

export function countParserEmailsByStatus(db: Db, userId: string, parserId: string) {
  return db.select({ status: parsedEmails.status, n: count() }).from(parsedEmails).where(byParser(userId, parserId)).groupBy(parsedEmails.status)
}

/** One email of one parser of this user; another user's (or parser's) id finds nothing. */
export async function findParserEmail(db: Db, { userId, parserId, id }: { userId: string; parserId: string; id: string }) {
  const [row] = await db
    .select()
    .from(parsedEmails)
    .where(and(byParser(userId, parserId), eq(parsedEmails.id, id)))
    .limit(1)
  return row
}

export function findParserEmailsByIds(db: Db, { userId, parserId, ids }: { userId: string; parserId: string; ids: string[] }) {
  return db
    .select({ id: parsedEmails.id, status: parsedEmails.status })
    .from(parsedEmails)
    .where(and(byParser(userId, parserId), inArray(parsedEmails.id, ids)))
}

/** Sends emails back to the queue: chosen ones, or every failed and partial one. Returns their ids. */
export async function requeueParserEmails(db: Db, { userId, parserId, ids }: { userId: string; parserId: string; ids: string[] | 'incomplete' }) {
  const which = ids === 'incomplete' ? inArray(parsedEmails.status, ['failed', 'partial']) : and(inArray(parsedEmails.id, ids), inArray(parsedEmails.status, REPROCESSABLE))
  const rows = await db
    .update(parsedEmails)
    .set({ status: 'pending', claimedAt: null, error: null })
    .where(and(byParser(userId, parserId), which, isNotNull(parsedEmails.gmailMessageId)))
    .returning({ id: parsedEmails.id })
  return rows.map((r) => r.id)
}

export function findEmailStatuses(db: Db, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([])
  return db.select({ id: parsedEmails.id, status: parsedEmails.status }).from(parsedEmails).where(inArray(parsedEmails.id, ids))
}

/** The parser's latest processed emails (for the training preview), except `exceptId`. */
export function listRecentParserEmails(db: Db, { userId, parserId, exceptId, limit }: { userId: string; parserId: string; exceptId: string; limit: number }) {
  return db
    .select()
    .from(parsedEmails)
    .where(and(byParser(userId, parserId), isNotNull(parsedEmails.gmailMessageId), notInArray(parsedEmails.id, [exceptId]), inArray(parsedEmails.status, ['success', 'partial', 'failed'])))
    .orderBy(sql`coalesce(${parsedEmails.receivedAt}, ${parsedEmails.processedAt}) desc`)
    .limit(limit)
}

export async function updateParserTraining(db: Db, { userId, parserId, template, trainingSamples }: { userId: string; parserId: string; template: Record<string, unknown>; trainingSamples: TrainingSampleRef[] }) {
  const [row] = await db
    .update(parsers)
    .set({ template, trainingSamples })
    .where(and(eq(parsers.id, parserId), eq(parsers.userId, userId)))
    .returning()
  return row
}
