import { and, sql } from 'drizzle-orm'
import type { ParserEmailFilter } from '@shared/contracts/parsers'
import type { Db } from '../../db/client'
import { parsedEmails } from '../../db/schema'
import { parserEmailsWhere } from '../parsers/parser-emails.queries'

/** Where the previous page ended: its last row's sort time (as PostgreSQL wrote it, microseconds kept) and id. */
export type ExportCursor = { sortAt: string; id: string }

const sortAt = sql`coalesce(${parsedEmails.receivedAt}, ${parsedEmails.processedAt})`

/**
 * One page of a parser's emails for an export, newest first, after `cursor`. Keyset paging: each
 * page is one index-friendly query however deep the export goes, and rows arriving meanwhile don't
 * shift the pages (as OFFSET would).
 */
export function listParserEmailsForExport(
  db: Db,
  { userId, parserId, q, status, cursor, limit }: { userId: string; parserId: string; q: string; status: ParserEmailFilter; cursor: ExportCursor | null; limit: number },
) {
  return db
    .select({
      id: parsedEmails.id,
      // Text, not a Date: a JavaScript Date keeps milliseconds and would skip or repeat rows at the page edge.
      sortAt: sql<string>`${sortAt}::text`,
      receivedAt: parsedEmails.receivedAt,
      processedAt: parsedEmails.processedAt,
      from: parsedEmails.emailFrom,
      subject: parsedEmails.emailSubject,
      status: parsedEmails.status,
      extractedData: parsedEmails.extractedData,
      error: parsedEmails.error,
    })
    .from(parsedEmails)
    .where(and(parserEmailsWhere({ userId, parserId, q, status }), cursor ? sql`(${sortAt}, ${parsedEmails.id}) < (${cursor.sortAt}::timestamptz, ${cursor.id}::uuid)` : undefined))
    .orderBy(sql`${sortAt} desc`, sql`${parsedEmails.id} desc`)
    .limit(limit)
}

export type ExportLedgerRow = Awaited<ReturnType<typeof listParserEmailsForExport>>[number]
