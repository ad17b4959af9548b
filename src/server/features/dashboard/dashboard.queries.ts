import { and, count, desc, eq, notInArray, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { parsedEmails, parsers } from '../../db/schema'

/** Rows the pipeline is still working on are not results yet. */
const IN_FLIGHT: Array<'pending' | 'processing'> = ['pending', 'processing']

export async function countParsedEmailsByUser(db: Db, userId: string) {
  const [row] = await db
    .select({
      total: count(),
      successes: sql<number>`count(*) filter (where ${parsedEmails.status} = 'success')`.mapWith(Number),
    })
    .from(parsedEmails)
    .where(and(eq(parsedEmails.userId, userId), notInArray(parsedEmails.status, IN_FLIGHT)))
  return { total: row?.total ?? 0, successes: row?.successes ?? 0 }
}

export function listRecentParsedEmailsByUser(db: Db, userId: string, limit: number) {
  return db
    .select({
      id: parsedEmails.id,
      processedAt: parsedEmails.processedAt,
      emailSubject: parsedEmails.emailSubject,
      status: parsedEmails.status,
      parserName: parsers.name,
    })
    .from(parsedEmails)
    .leftJoin(parsers, eq(parsers.id, parsedEmails.parserId))
    .where(and(eq(parsedEmails.userId, userId), notInArray(parsedEmails.status, IN_FLIGHT)))
    .orderBy(desc(parsedEmails.processedAt))
    .limit(limit)
}
