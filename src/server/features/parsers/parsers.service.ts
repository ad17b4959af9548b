import type { AiProviderConfig } from '../../../engine/ai'
import { lineItemFields } from '../../../engine/extract'
import type { ExtractionField } from '../../../shared/contracts/extraction'
import {
  planViolation,
  SAMPLE_EMAIL_ID,
  type CreateParserInput,
  type ParsedEmailView,
  type ParserView,
  type PreviewResult,
  type PreviewRow,
  type RowMode,
  type TestParserResult,
  createParserInputSchema,
} from '../../../shared/contracts/parsers'
import type { EmailFilters } from '../../../shared/contracts/gmail'
import { PLAN_INFO, toPlan } from '../../../shared/plans'
import type { Db } from '../../db/client'
import type { DestinationConfig } from '../../db/schema'
import { AppError } from '../../lib/errors'
import { findUserById } from '../account/account.queries'
import { getGmailConnectionStatus, type GoogleAccess } from '../connections/connections.service'
import { emailFacts, extractFromEmail, fieldReasons, readStoredTemplate, readEmail, sampleEmail, sheetRowsFor, trainTemplate } from '../extraction/extraction.service'
import { currentHistoryId, getRawMessage, listMatchingMessageIds, listMatchingRawMessages } from '../gmail/gmail.service'
import { addPendingEmails, backfillProgress, parserHealth, type LayoutChangedEmail } from '../pipeline/pipeline.service'
import { writeQueuedRows } from '../pipeline/sheet-writer.service'
import { createSpreadsheet, validateSpreadsheet } from '../sheets/sheets.service'
import {
  deleteParserById,
  findLedgerRow,
  findParsedEmailById,
  findParserById,
  insertParser,
  listParsersByUser,
  updateParserActive,
  upsertTestResult,
  type ParserRow,
} from './parsers.queries'

const PREVIEW_LIMIT = 20

export function toParserView(
  row: ParserRow,
  { alert = null, backfill = null, layoutChanged = null }: { alert?: string | null; backfill?: ParserView['backfill']; layoutChanged?: LayoutChangedEmail[] | null } = {},
): ParserView {
  const relearned = readStoredTemplate(row.template)
  return {
    id: row.id,
    name: row.name,
    active: row.active,
    filter_from: row.filterFrom,
    filter_subject: row.filterSubject,
    filter_label: row.filterLabel,
    extraction_fields: row.extractionFields.map((f) => ({ name: f.name, value: f.value })),
    destination_type: row.destinationType,
    destination_config: row.destinationConfig ?? null,
    parser_type: row.parserType,
    parse_attachments: row.parseAttachments,
    row_mode: row.rowMode,
    created_at: row.createdAt.toISOString(),
    alert,
    backfill,
    layout_changed: layoutChanged,
    relearned: relearned.ok ? (relearned.template.relearned ?? null) : null,
  }
}

async function loadSample(db: Db, { userId, messageId, access }: { userId: string; messageId: string; access: GoogleAccess }) {
  if (messageId === SAMPLE_EMAIL_ID) return sampleEmail()
  const message = await getRawMessage(db, { userId, messageId, access })
  return readEmail(message.raw)
}

async function userPlan(db: Db, userId: string) {
  const user = await findUserById(db, userId)
  return toPlan(user?.plan)
}

/** 'Activate Parser': plan rules, training, the spreadsheet (created or checked), then the parser. */
export async function createParser(db: Db, { userId, input, access }: { userId: string; input: CreateParserInput; access: GoogleAccess }) {
  const parsed = createParserInputSchema.parse(input)
  const violation = planViolation(await userPlan(db, userId), parsed)
  if (violation) throw new AppError('FORBIDDEN', violation)

  const sample = await loadSample(db, { userId, messageId: parsed.sample.messageId, access })
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
    sampleMessageId: parsed.sample.messageId,
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
    access,
    limit: PLAN_INFO.starter.historicalEmails,
  })
  await addPendingEmails(db, matches.map((m) => ({ userId, parserId: parser.id, gmailMessageId: m.id, receivedAt: new Date(m.internalDate), source: 'backfill' as const })))
}

/** The live preview: what the template trained so far finds in the other matching emails, and why a field is missing. */
export async function previewParser(
  db: Db,
  { userId, filters, fields, sample: sampleRef, access }: { userId: string; filters: EmailFilters; fields: ExtractionField[]; sample: { messageId: string }; access: GoogleAccess },
): Promise<PreviewResult> {
  const sample = await loadSample(db, { userId, messageId: sampleRef.messageId, access })
  const { template, unmatched } = await trainTemplate(sample, fields)
  const itemFields = lineItemFields(template)
  if (sampleRef.messageId === SAMPLE_EMAIL_ID) return { rows: [], unmatched, lineItemFields: itemFields }
  const messages = (await listMatchingRawMessages(db, { userId, filters, access, limit: PREVIEW_LIMIT + 1 }))
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
  const [rows, connection, progress, health] = await Promise.all([
    listParsersByUser(db, userId),
    getGmailConnectionStatus(db, { userId }),
    backfillProgress(db, userId),
    parserHealth(db, userId),
  ])
  const connectionAlert = connection.needsReconnect ? `Paused: ${connection.reason ?? 'reconnect your Gmail account to resume parsing.'}` : null
  return rows.map((row) =>
    toParserView(row, {
      alert: row.active ? (connectionAlert ?? health.alerts.get(row.id) ?? null) : null,
      backfill: progress.get(row.id) ?? null,
      layoutChanged: health.layoutChanged.get(row.id) ?? null,
    }),
  )
}

export async function getParser(db: Db, { userId, parserId }: { userId: string; parserId: string }) {
  const row = await findParserById(db, userId, parserId)
  if (!row) throw new AppError('NOT_FOUND', 'Parser not found')
  return row
}

export async function setParserActive(db: Db, { userId, parserId, active }: { userId: string; parserId: string; active: boolean }) {
  const row = await updateParserActive(db, userId, parserId, active)
  if (!row) throw new AppError('NOT_FOUND', 'Parser not found')
  return toParserView(row)
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
