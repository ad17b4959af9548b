import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { connectedAccounts, parsedEmails, parsers, users } from '../../db/schema'

export type ParserRow = typeof parsers.$inferSelect
type NewParser = typeof parsers.$inferInsert

export async function insertParser(db: Db, values: NewParser): Promise<ParserRow> {
  const [row] = await db.insert(parsers).values(values).returning()
  return row!
}

/** The user's parsers, newest first, each with the Gmail connection's state (one statement). */
export function listParsersWithConnection(db: Db, userId: string) {
  return db
    .select({ parser: getTableColumns(parsers), connectionStatus: connectedAccounts.status, connectionReason: connectedAccounts.statusReason, plan: users.plan })
    .from(parsers)
    // The owner's plan says which parsers a downgrade paused: same statement, no extra round trip.
    .innerJoin(users, eq(users.id, parsers.userId))
    .leftJoin(connectedAccounts, and(eq(connectedAccounts.userId, parsers.userId), eq(connectedAccounts.provider, 'gmail')))
    .where(eq(parsers.userId, userId))
    .orderBy(desc(parsers.createdAt))
}

/** Scoped by user: another user's parser id finds nothing. */
export async function findParserById(db: Db, userId: string, parserId: string): Promise<ParserRow | undefined> {
  const [row] = await db
    .select()
    .from(parsers)
    .where(and(eq(parsers.id, parserId), eq(parsers.userId, userId)))
    .limit(1)
  return row
}

export async function updateParserActive(db: Db, userId: string, parserId: string, active: boolean) {
  const [row] = await db
    .update(parsers)
    // Paused twice in a row: the first pause is when the unparsed mail starts.
    .set(active ? { active, pausedAt: null } : { active, pausedAt: sql`coalesce(${parsers.pausedAt}, now())` })
    .where(and(eq(parsers.id, parserId), eq(parsers.userId, userId)))
    .returning()
  return row
}

/**
 * Resume: active again, taking new mail from `startHistoryId` (the mailbox's history id now), so
 * mail from the paused time is only what Resume queued itself. Only a paused parser is resumed.
 */
export async function resumeParserRow(db: Db, userId: string, parserId: string, startHistoryId: string | null) {
  const [row] = await db
    .update(parsers)
    .set({ active: true, pausedAt: null, ...(startHistoryId ? { startHistoryId } : {}) })
    .where(and(eq(parsers.id, parserId), eq(parsers.userId, userId), eq(parsers.active, false)))
      .returning()
  return row
}

/** Saves an edit (the edit form, or new fields from 'Train on this email'). Scoped by user. */
export async function updateParserEdit(
  db: Db,
  userId: string,
  parserId: string,
  set: Partial<Pick<NewParser, 'name' | 'filterFrom' | 'filterSubject' | 'filterLabel' | 'advancedFilters' | 'extractionFields' | 'customFields' | 'template' | 'trainingSamples' | 'sheetColumns' | 'destinationConfig'>>,
) {
  const [row] = await db
    .update(parsers)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(parsers.id, parserId), eq(parsers.userId, userId)))
    .returning()
  return row
}

/** The pipeline's own update (self-repair): the parser id comes from the ledger row it processes. */
export async function updateParserFields(db: Db, userId: string, parserId: string, set: { name?: string; active?: boolean }) {
  const [row] = await db
    .update(parsers)
    .set(set)
    .where(and(eq(parsers.id, parserId), eq(parsers.userId, userId)))
    .returning()
  return row
}

export async function updateParserTemplate(db: Db, parserId: string, template: Record<string, unknown>) {
  await db.update(parsers).set({ template }).where(eq(parsers.id, parserId))
}

export async function deleteParserById(db: Db, userId: string, parserId: string) {
  const rows = await db
    .delete(parsers)
    .where(and(eq(parsers.id, parserId), eq(parsers.userId, userId)))
    .returning({ id: parsers.id })
  return rows.length > 0
}

type NewParsedEmail = typeof parsedEmails.$inferInsert

/** Records a test on the ledger; testing the same message again replaces the earlier result. */
export async function upsertTestResult(db: Db, values: NewParsedEmail) {
  const [row] = await db
    .insert(parsedEmails)
    .values(values)
    .onConflictDoUpdate({
      target: [parsedEmails.parserId, parsedEmails.gmailMessageId],
      targetWhere: sql`${parsedEmails.gmailMessageId} is not null`,
      set: {
        status: values.status,
        extractedData: values.extractedData,
        details: values.details ?? null,
        extractionMethod: values.extractionMethod,
        error: values.error,
        timings: values.timings,
        processedAt: new Date(),
        writtenToSheets: sql`${parsedEmails.writtenToSheets} or ${values.writtenToSheets ?? false}`,
        // Queued for the sheet only if nothing has been queued for it yet: the sheet writer writes it once.
        ...(values.sheetState === 'queued'
          ? {
              sheetState: sql`case when ${parsedEmails.sheetState} = 'none' then 'queued' else ${parsedEmails.sheetState} end`,
              sheetRows: sql`case when ${parsedEmails.sheetState} = 'none' then ${JSON.stringify(values.sheetRows)}::jsonb else ${parsedEmails.sheetRows} end`,
              sheetKey: sql`case when ${parsedEmails.sheetState} = 'none' then ${values.sheetKey} else ${parsedEmails.sheetKey} end`,
              sheetKeyAt: sql`case when ${parsedEmails.sheetState} = 'none' then ${values.sheetKeyAt ?? null}::integer else ${parsedEmails.sheetKeyAt} end`,
              spreadsheetId: sql`case when ${parsedEmails.sheetState} = 'none' then ${values.spreadsheetId} else ${parsedEmails.spreadsheetId} end`,
            }
          : {}),
      },
    })
    .returning()
  return row!
}

export async function findLedgerRow(db: Db, parserId: string, gmailMessageId: string) {
  const [row] = await db
    .select()
    .from(parsedEmails)
    .where(and(eq(parsedEmails.parserId, parserId), eq(parsedEmails.gmailMessageId, gmailMessageId)))
    .limit(1)
  return row
}

export async function findParsedEmailById(db: Db, userId: string, id: string) {
  const [row] = await db
    .select({ email: parsedEmails, parserName: parsers.name, destination: parsers.destinationConfig })
    .from(parsedEmails)
    .leftJoin(parsers, eq(parsers.id, parsedEmails.parserId))
    .where(and(eq(parsedEmails.id, id), eq(parsedEmails.userId, userId)))
    .limit(1)
  return row
}
