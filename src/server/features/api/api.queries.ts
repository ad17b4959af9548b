import { and, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { parsedEmails, parsers, submittedEmails, type ParsedEmailStatus } from '../../db/schema'

export type EmailPageFilters = {
  userId: string
  parserId?: string
  status?: ParsedEmailStatus
  since?: Date
  until?: Date
  /** The last row of the previous page: its processed_at (as Postgres prints it, microseconds kept) and id. */
  after?: { processedAt: string; id: string }
  limit: number
}

/**
 * A page of the user's ledger, newest processed first, keyset-paginated on (processed_at, id): a
 * page never repeats or skips a row however many arrive meanwhile. The cursor keeps processed_at's
 * text as Postgres prints it: a JavaScript Date would drop the microseconds and skip rows.
 */
export function listEmailsPage(db: Db, f: EmailPageFilters) {
  const where: SQL[] = [eq(parsedEmails.userId, f.userId)]
  if (f.parserId) where.push(eq(parsedEmails.parserId, f.parserId))
  if (f.status) where.push(eq(parsedEmails.status, f.status))
  if (f.since) where.push(gte(parsedEmails.receivedAt, f.since))
  if (f.until) where.push(lt(parsedEmails.receivedAt, f.until))
  if (f.after) {
    const at = sql`${f.after.processedAt}::timestamptz`
    where.push(or(lt(parsedEmails.processedAt, at), and(eq(parsedEmails.processedAt, at), lt(parsedEmails.id, f.after.id)))!)
  }
  return db
    .select({ email: parsedEmails, processedAtText: sql<string>`${parsedEmails.processedAt}::text` })
    .from(parsedEmails)
    .where(and(...where))
    .orderBy(desc(parsedEmails.processedAt), desc(parsedEmails.id))
    .limit(f.limit)
}

export async function findEmail(db: Db, userId: string, id: string) {
  const [row] = await db
    .select({ email: parsedEmails, parser: parsers })
    .from(parsedEmails)
    .leftJoin(parsers, eq(parsers.id, parsedEmails.parserId))
    .where(and(eq(parsedEmails.id, id), eq(parsedEmails.userId, userId)))
    .limit(1)
  return row
}

export async function findSubmissionByKey(db: Db, userId: string, idempotencyKey: string) {
  const [row] = await db
    .select({ submission: submittedEmails, parserId: parsedEmails.parserId })
    .from(submittedEmails)
    .innerJoin(parsedEmails, eq(parsedEmails.id, submittedEmails.parsedEmailId))
    .where(and(eq(submittedEmails.userId, userId), eq(submittedEmails.idempotencyKey, idempotencyKey)))
    .limit(1)
  return row
}

export async function findLedgerRowByMessage(db: Db, userId: string, parserId: string, messageId: string) {
  const [row] = await db
    .select({ id: parsedEmails.id })
    .from(parsedEmails)
    .where(and(eq(parsedEmails.userId, userId), eq(parsedEmails.parserId, parserId), eq(parsedEmails.gmailMessageId, messageId)))
    .limit(1)
  return row
}

/**
 * The submitted email joins the ledger as pending, with its raw message, in one transaction. A
 * message already in this parser's ledger (same Message-ID) adds nothing: undefined.
 */
export async function insertSubmission(
  db: Db,
  s: { userId: string; parserId: string; messageId: string; raw: string; receivedAt: Date; subject: string | null; from: string | null; idempotencyKey: string | null },
) {
  return db.transaction(async (tx) => {
    const [ledger] = await tx
      .insert(parsedEmails)
      .values({ userId: s.userId, parserId: s.parserId, gmailMessageId: s.messageId, status: 'pending', source: 'api', receivedAt: s.receivedAt, emailSubject: s.subject, emailFrom: s.from })
      .onConflictDoNothing()
      .returning({ id: parsedEmails.id })
    if (!ledger) return undefined
    await tx.insert(submittedEmails).values({ userId: s.userId, parsedEmailId: ledger.id, messageId: s.messageId, raw: s.raw, idempotencyKey: s.idempotencyKey })
    return ledger.id
  })
}
