import type { AiProviderConfig } from '@engine/ai'
import { lineItemFields } from '@engine/extract'
import type { ExtractionField } from '@shared/contracts/extraction'
import {
  planViolation,
  SAMPLE_EMAIL_ID,
  PAUSED_MAIL_LIMIT,
  type CreateParserInput,
  type ParsedEmailView,
  type ResumeParserInput,
  type ResumeParserResult,
  type ParserView,
  type PreviewResult,
  type PreviewRow,
  type RowMode,
  type TestParserResult,
  sampleRefSchema,
} from '@shared/contracts/parsers'
import { apiCreateParserInputSchema, type ApiCreateParserInput } from '@shared/contracts/api'
import type { EmailFilters } from '@shared/contracts/gmail'
import { starterViolation, type AdvancedFilters } from '@shared/contracts/parser-edit'
import { defaultSheetLayout, type SheetColumn } from '@shared/contracts/sheets'
import { PLAN_INFO, planPauseReason, toPlan, type Plan } from '@shared/plans'
import type { Db } from '../../db/client'
import type { DestinationConfig } from '../../db/schema'
import { AppError } from '../../lib/errors'
import { findUserById } from '../account/account.queries'
import type { GoogleAccess } from '../connections/connections.service'
import { emailFacts, extractFromEmail, fieldReasons, readStoredTemplate, readEmail, sampleEmail, sheetKeyColumn, sheetRowsFor, trainTemplate } from '../extraction/extraction.service'
import { currentHistoryId, getRawMessage, listMatchingMessageIds, listMatchingRawMessages } from '../gmail/gmail.service'
import { addPendingEmails, parserHealth, type LayoutChangedEmail } from '../pipeline/pipeline.service'
import { writeQueuedRows } from '../pipeline/sheet-writer.service'
import { createSpreadsheet, validateSpreadsheet } from '../sheets/sheets.service'
import {
  deleteParserById,
  findLedgerRow,
  findParsedEmailById,
  findParserById,
  insertParser,
  listParsersWithConnection,
  resumeParserRow,
  updateParserActive,
  updateParserFields,
  upsertTestResult,
  type ParserRow,
} from './parsers.queries'

const PREVIEW_LIMIT = 20

export function toParserView(
  row: ParserRow,
  {
    alert = null,
    backfill = null,
    layoutChanged = null,
    plan,
    waitingForAllowance = 0,
  }: { alert?: string | null; backfill?: ParserView['backfill']; layoutChanged?: LayoutChangedEmail[] | null; plan?: Plan; waitingForAllowance?: number } = {},
): ParserView {
  const planPause = plan ? planPauseReason(plan, row.parserType) : null
  const relearned = readStoredTemplate(row.template)
  return {
    id: row.id,
    name: row.name,
    active: row.active,
    filter_from: row.filterFrom,
    filter_subject: row.filterSubject,
    filter_label: row.filterLabel,
    extraction_fields: row.extractionFields.map((f) => ({ name: f.name, value: f.value, type: f.type ?? 'text' })),
    advanced_filters: row.advancedFilters ?? null,
    custom_fields: row.customFields ?? [],
    destination_type: row.destinationType,
    destination_config: row.destinationConfig ?? null,
    parser_type: row.parserType,
    parse_attachments: row.parseAttachments,
    row_mode: row.rowMode,
    created_at: row.createdAt.toISOString(),
    alert: row.active ? (planPause ?? alert) : alert,
    paused_by_plan: row.active && planPause !== null,
    backfill,
    layout_changed: layoutChanged,
    relearned: relearned.ok ? (relearned.template.relearned ?? null) : null,
    waiting_for_allowance: waitingForAllowance,
    paused_at: row.pausedAt?.toISOString() ?? null,
  }
}

/** The training sample: the built-in one, a Gmail message, or (REST API) an uploaded email in base64. */
async function loadSample(db: Db, { userId, sample, access }: { userId: string; sample: { messageId: string } | { raw: string }; access: GoogleAccess }) {
  if ('raw' in sample) return readEmail(Buffer.from(sample.raw, 'base64'))
  const { messageId } = sample
  if (messageId === SAMPLE_EMAIL_ID) return sampleEmail()
  const message = await getRawMessage(db, { userId, messageId, access })
  return readEmail(message.raw)
}

async function userPlan(db: Db, userId: string) {
  const user = await findUserById(db, userId)
  return toPlan(user?.plan)
}

/** 'Activate Parser': plan rules, training, the spreadsheet (created or checked), then the parser. */
export async function createParser(db: Db, { userId, input, access }: { userId: string; input: CreateParserInput | ApiCreateParserInput; access: GoogleAccess }) {
  // The API's contract is the wizard's plus an uploaded sample; the wizard's route never lets one through.
  const parsed = apiCreateParserInputSchema.parse(input)
  if ('messageId' in parsed.sample && !sampleRefSchema.safeParse(parsed.sample).success) throw new AppError('VALIDATION', 'sample.messageId: Not a Gmail message ID')
  const plan = await userPlan(db, userId)
  const violation = planViolation(plan, parsed) ?? starterViolation(plan, parsed)
  if (violation) throw new AppError('FORBIDDEN', violation)

  const sample = await loadSample(db, { userId, sample: parsed.sample, access })
  const { template } = await trainTemplate(sample, parsed.fields)
  const fieldNames = parsed.fields.map((f) => f.name)
  // One row per item needs items: without line-item fields it is one row per email (decision 010).
  const rowMode: RowMode = parsed.rowMode === 'per_item' && lineItemFields(template).length > 0 ? 'per_item' : 'per_email'

  let destination: DestinationConfig
  if (parsed.destination.type === 'new') {
    const sheet = await createSpreadsheet(db, { userId, parserName: parsed.name, fieldNames, rowMode, access })
    destination = { type: 'new', spreadsheetId: sheet.spreadsheetId, spreadsheetUrl: sheet.spreadsheetUrl, spreadsheetName: sheet.title, parseHistorical: parsed.parseHistorical }
  } else {
    const sheet = await validateSpreadsheet(db, { userId, spreadsheet: parsed.destination.spreadsheet, access })
    destination = { type: 'existing', spreadsheetId: sheet.spreadsheetId, spreadsheetUrl: sheet.spreadsheetUrl, parseHistorical: parsed.parseHistorical }
  }

  const startHistoryId = await currentHistoryId(db, { userId, access })
  const row = await insertParser(db, {
    startHistoryId,
    userId,
    name: parsed.name,
    active: true,
    filterFrom: parsed.filters.filterFrom,
    filterSubject: parsed.filters.filterSubject,
    filterLabel: parsed.filters.filterLabel,
    extractionFields: parsed.fields,
    destinationType: 'google_sheets',
    destinationConfig: destination,
    parserType: parsed.parserType,
    parseAttachments: parsed.parseAttachments,
    rowMode,
    advancedFilters: parsed.advancedFilters,
    customFields: parsed.customFields,
    // Custom fields go after Mailrow's own columns, like any field added later (decision 022).
    sheetColumns: parsed.customFields.length ? [...defaultSheetLayout(fieldNames, rowMode, 'row_key'), ...parsed.customFields.map((c): SheetColumn => ({ header: c.name, source: { kind: 'custom', name: c.name } }))] : null,
    sampleMessageId: 'messageId' in parsed.sample ? parsed.sample.messageId : null,
    trainingSample: { subject: sample.subject, from: sample.from, date: sample.date, text: sample.text, html: sample.html },
    template: template as unknown as Record<string, unknown>,
  })
  if (parsed.parseHistorical) await startBackfill(db, { userId, parser: row, access })
  return { parser: toParserView(row), spreadsheetUrl: destination.spreadsheetUrl, createdSpreadsheet: destination.type === 'new' }
}

/** Historical parsing (spec step 5): the most recent matching emails join the ledger; the worker processes them oldest first. */
async function startBackfill(db: Db, { userId, parser, access }: { userId: string; parser: ParserRow; access: GoogleAccess }) {
  const matches = await listMatchingMessageIds(db, {
    userId,
    filters: { filterFrom: parser.filterFrom, filterSubject: parser.filterSubject, filterLabel: parser.filterLabel },
    advanced: parser.advancedFilters,
    access,
    limit: PLAN_INFO.starter.historicalEmails,
  })
  await addPendingEmails(db, matches.map((m) => ({ userId, parserId: parser.id, gmailMessageId: m.id, receivedAt: new Date(m.internalDate), source: 'backfill' as const })))
}

/** The live preview: what the template trained so far finds in the other matching emails, and why a field is missing. */
export async function previewParser(
  db: Db,
  {
    userId,
    filters,
    advancedFilters = null,
    fields,
    sample: sampleRef,
    access,
  }: { userId: string; filters: EmailFilters; advancedFilters?: AdvancedFilters | null; fields: ExtractionField[]; sample: { messageId: string }; access: GoogleAccess },
): Promise<PreviewResult> {
  if (advancedFilters) {
    const violation = starterViolation(await userPlan(db, userId), { advancedFilters, customFields: [] })
    if (violation) throw new AppError('FORBIDDEN', violation)
  }
  const sample = await loadSample(db, { userId, sample: sampleRef, access })
  const { template, unmatched } = await trainTemplate(sample, fields)
  const itemFields = lineItemFields(template)
  if (sampleRef.messageId === SAMPLE_EMAIL_ID) return { rows: [], unmatched, lineItemFields: itemFields }
  const messages = (await listMatchingRawMessages(db, { userId, filters, advanced: advancedFilters, access, limit: PREVIEW_LIMIT + 1 }))
    .filter((m) => m.id !== sampleRef.messageId)
    .slice(0, PREVIEW_LIMIT)
  const rows = await Promise.all(
    messages.map(async (message): Promise<PreviewRow> => {
      const result = await extractFromEmail(template, message.raw, { parserType: 'template', parseAttachments: false, ai: null })
      const email = await readEmail(message.raw).catch(() => null)
      return {
        messageId: message.id,
        subject: email?.subject ?? '',
        from: email?.from ?? '',
        date: (email ? emailFacts(email).date : null)?.toISOString() ?? new Date(message.internalDate).toISOString(),
        status: result.status,
        fields: result.fields,
        details: Object.fromEntries(
          fields.map((f) => {
            const value = result.fields[f.name] ?? null
            return [f.name, { value, reason: value === null ? (result.details[f.name]?.reason ?? null) : null }]
          }),
        ),
        items: result.items ? result.items.map((item) => Object.fromEntries(Object.entries(item).map(([name, cell]) => [name, cell.value]))) : null,
        error: result.error,
      }
    }),
  )
  return { rows, unmatched, lineItemFields: itemFields }
}

/** Dashboard list, with the reason a parser is stalled when its Gmail connection needs the user. */
export async function listParsers(db: Db, { userId }: { userId: string }): Promise<ParserView[]> {
  return (await listParsersWithHealth(db, { userId })).parsers
}

/**
 * The parser list with each parser's alert, backfill, "layout changed" and allowance state: two
 * statements (the parsers with the connection's state and the owner's plan, and the ledger's
 * overview), plus the dashboard's figures from the same ledger statement when `recentLimit` is given.
 */
export async function listParsersWithHealth(db: Db, { userId, recentLimit }: { userId: string; recentLimit?: number }) {
  const [rows, health] = await Promise.all([listParsersWithConnection(db, userId), parserHealth(db, userId, { recentLimit })])
  const parsers = rows.map(({ parser, connectionStatus, connectionReason, plan }) => {
    const connectionAlert = connectionStatus === 'needs_reconnect' ? `Paused: ${connectionReason ?? 'reconnect your Gmail account to resume parsing.'}` : null
    return toParserView(parser, {
      alert: parser.active ? (connectionAlert ?? health.alerts.get(parser.id) ?? null) : null,
      backfill: health.backfill.get(parser.id) ?? null,
      layoutChanged: health.layoutChanged.get(parser.id) ?? null,
      plan: toPlan(plan),
      waitingForAllowance: health.waiting.get(parser.id) ?? 0,
    })
  })
  return { parsers, health }
}

export async function getParser(db: Db, { userId, parserId }: { userId: string; parserId: string }) {
  const row = await findParserById(db, userId, parserId)
  if (!row) throw new AppError('NOT_FOUND', 'Parser not found')
  return row
}

/** The REST API's update: the name and/or pause/resume. */
export async function updateParser(db: Db, { userId, parserId, name, active }: { userId: string; parserId: string; name?: string; active?: boolean }) {
  const row = await updateParserFields(db, userId, parserId, { ...(name === undefined ? {} : { name }), ...(active === undefined ? {} : { active }) })
  if (!row) throw new AppError('NOT_FOUND', 'Parser not found')
  return toParserView(row)
}

export async function setParserActive(db: Db, { userId, parserId, active }: { userId: string; parserId: string; active: boolean }) {
  const row = await updateParserActive(db, userId, parserId, active)
  if (!row) throw new AppError('NOT_FOUND', 'Parser not found')
  return toParserView(row, { plan: await userPlan(db, userId) })
}

/**
 * Resume (decision 024). The mail that arrived while the parser was paused is processed only when
 * the user says so: `process` queues the matching emails received since the pause (the newest
 * PAUSED_MAIL_LIMIT; each counts against the allowance like any new mail), `skip` leaves them. The
 * parser then takes new mail from the mailbox's history id now, so nothing from the paused time
 * slips in through the sync afterwards.
 */
export async function resumeParser(
  db: Db,
  { userId, parserId, pausedMail, access, requestSync }: { userId: string; parserId: string; pausedMail: ResumeParserInput['pausedMail']; access: GoogleAccess; requestSync?: (userId: string) => Promise<void> },
): Promise<ResumeParserResult> {
  const parser = await getParser(db, { userId, parserId })
  if (parser.active) return { parser: toParserView(parser), queued: 0 }
  const pausedAt = parser.pausedAt
  let since: Array<{ id: string; internalDate: number }> = []
  if (pausedMail === 'process' && pausedAt) {
    const matches = await listMatchingMessageIds(db, {
      userId,
      filters: { filterFrom: parser.filterFrom, filterSubject: parser.filterSubject, filterLabel: parser.filterLabel },
      access,
      limit: PAUSED_MAIL_LIMIT,
    })
    // The training sample is not new mail, whatever its date.
    since = matches.filter((m) => m.internalDate >= pausedAt.getTime() && m.id !== parser.sampleMessageId)
  }
  const startHistoryId = await currentHistoryId(db, { userId, access })
  const row = await resumeParserRow(db, userId, parserId, startHistoryId)
  // Resumed by another request meanwhile: that one decided.
  if (!row) return { parser: toParserView(await getParser(db, { userId, parserId })), queued: 0 }
  const queued = await addPendingEmails(
    db,
    since.map((m) => ({ userId, parserId, gmailMessageId: m.id, receivedAt: new Date(m.internalDate), source: 'sync' as const })),
  )
  if (queued > 0) await requestSync?.(userId)
  return { parser: toParserView(row), queued }
}

/** Deletes the parser; its ledger rows stay (as 'Unknown Parser') until retention removes them. */
export async function deleteParser(db: Db, { userId, parserId }: { userId: string; parserId: string }) {
  if (!(await deleteParserById(db, userId, parserId))) throw new AppError('NOT_FOUND', 'Parser not found')
}

/**
 * The Test Parser dialog: run the parser on one Gmail message, write the row when every field was
 * found (once per message), and record the result on the ledger.
 */
export async function testParser(
  db: Db,
  { userId, parserId, emailId, access, ai }: { userId: string; parserId: string; emailId: string; access: GoogleAccess; ai: AiProviderConfig | null },
): Promise<TestParserResult> {
  const parser = await getParser(db, { userId, parserId })
  const message = await getRawMessage(db, { userId, messageId: emailId, access })
  const started = performance.now()
  const email = await readEmail(message.raw).catch((error: unknown) => error as AppError)
  if (email instanceof Error) {
    await upsertTestResult(db, { userId, parserId, gmailMessageId: emailId, status: 'failed', error: email.message, receivedAt: new Date(message.internalDate) })
    return { success: false, error: email.message, extracted_data: {}, extraction_method: null, written_to_sheets: false }
  }
  const template = readStoredTemplate(parser.template)
  if (!template.ok) {
    await upsertTestResult(db, { userId, parserId, gmailMessageId: emailId, status: 'failed', error: template.reason, receivedAt: new Date(message.internalDate) })
    return { success: false, error: template.reason, extracted_data: {}, extraction_method: null, written_to_sheets: false }
  }
  const result = await extractFromEmail(template.template, email, {
    parserType: parser.parserType,
    parseAttachments: parser.parseAttachments,
    ai,
  })
  const success = result.status === 'success'
  // The row goes through the ledger and the one sheet writer, like every other: queued once per
  // (parser, message), whoever queues it first, and written exactly once.
  const queue = success && parser.destinationConfig ? parser.destinationConfig.spreadsheetId : null
  const facts = emailFacts(email)
  const recorded = await upsertTestResult(db, {
    userId,
    parserId,
    gmailMessageId: emailId,
    emailSubject: facts.subject,
    emailFrom: facts.from,
    receivedAt: new Date(message.internalDate),
    status: result.status,
    extractedData: result.fields,
    details: fieldReasons(parser.extractionFields, result),
    extractionMethod: result.method,
    error: result.error,
    timings: { extractMs: result.durationMs, totalMs: Math.round(performance.now() - started) },
    source: 'test',
    ...(queue
      ? {
          sheetState: 'queued' as const,
          spreadsheetId: queue,
          sheetRows: sheetRowsFor(parser, result, email, emailId, new Date(message.internalDate)),
          sheetKey: parser.sheetKey,
          sheetKeyAt: sheetKeyColumn(parser),
        }
      : {}),
  })
  let written = recorded.sheetState === 'written'
  if (queue && !written) {
    try {
      await writeQueuedRows(db, { userId, access })
    } catch (error) {
      // The row stays queued and the worker writes it; the dialog says it isn't in the sheet yet.
      if (error instanceof AppError && error.code === 'GOOGLE_REAUTH_REQUIRED') throw error
    }
    written = (await findLedgerRow(db, parserId, emailId))?.sheetState === 'written'
  }
  return {
    success,
    error: success ? null : (result.error ?? 'Failed to test parser'),
    extracted_data: result.fields,
    extraction_method: result.method,
    written_to_sheets: success && written,
  }
}

export async function getParsedEmail(db: Db, { userId, id }: { userId: string; id: string }): Promise<ParsedEmailView> {
  const row = await findParsedEmailById(db, userId, id)
  if (!row) throw new AppError('NOT_FOUND', 'Parsed email not found')
  const { email } = row
  return {
    id: email.id,
    parserId: email.parserId,
    parserName: row.parserName,
    gmailMessageId: email.gmailMessageId,
    emailSubject: email.emailSubject,
    emailFrom: email.emailFrom,
    receivedAt: email.receivedAt?.toISOString() ?? null,
    processedAt: email.processedAt.toISOString(),
    status: email.status,
    extractedData: email.extractedData ?? null,
    extractionMethod: email.extractionMethod,
    error: email.error,
    writtenToSheets: email.writtenToSheets,
    spreadsheetUrl: row.destination?.spreadsheetUrl ?? null,
  }
}
