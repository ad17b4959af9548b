import { trainParserFromSamples, type TrainingSample } from '@engine/extract'
import type { NormalisedEmail } from '@engine/mime'
import type { ExtractionField } from '@shared/contracts/extraction'
import {
  PARSER_EMAIL_FILTERS,
  SAMPLE_EMAIL_ID,
  parserEmailsQuerySchema,
  type ParserEmailFilter,
  type ParserEmailRow,
  type ParserEmailsPage,
  type ParserEmailsQuery,
  type PreviewResult,
  type PreviewRow,
  type ReprocessInput,
  type ReprocessResult,
  type TrainFromEmailResult,
  type TrainingEmailView,
} from '@shared/contracts/parsers'
import type { Db } from '../../db/client'
import type { TrainingSampleRef } from '../../db/schema'
import { AppError } from '../../lib/errors'
import type { GoogleAccess } from '../connections/connections.service'
import { emailFacts, extractFromEmail, readEmail, sampleEmail } from '../extraction/extraction.service'
import { getFetchedEmail, getRawMessage } from '../gmail/gmail.service'
import { runMailboxPass, type PipelineDeps } from '../pipeline/pipeline.service'
import {
  countParserEmailsByStatus,
  FILTER_STATUSES,
  findEmailStatuses,
  findParserEmail,
  findParserEmailsByIds,
  listParserEmailsPage,
  listRecentParserEmails,
  requeueParserEmails,
  updateParserTraining,
} from './parser-emails.queries'
import { updateParserEdit, type ParserRow } from './parsers.queries'
import { addFieldsToLayout } from './parser-edit.service'
import { getParser, toParserView } from './parsers.service'

/** Emails the training preview runs the re-learned template on. */
const TRAINING_PREVIEW_LIMIT = 20
/** Extra training samples kept per parser (the oldest goes first); the original sample always stays. */
const MAX_TRAINING_SAMPLES = 20

type LedgerRow = Awaited<ReturnType<typeof findParserEmail>> & object

function toRow(parser: ParserRow, row: LedgerRow): ParserEmailRow {
  const extracted = (row.extractedData ?? {}) as Record<string, unknown>
  const values: Record<string, string | null> = {}
  const reasons: Record<string, string | null> = {}
  for (const field of parser.extractionFields) {
    const value = extracted[field.name]
    values[field.name] = typeof value === 'string' ? value : null
    reasons[field.name] = row.details?.[field.name]?.reason ?? null
  }
  return {
    id: row.id,
    gmailMessageId: row.gmailMessageId,
    subject: row.emailSubject,
    from: row.emailFrom,
    receivedAt: row.receivedAt?.toISOString() ?? null,
    processedAt: row.processedAt.toISOString(),
    status: row.status,
    values,
    reasons,
    error: row.error,
    writtenToSheets: row.writtenToSheets,
  }
}

/** A parser's emails as a table of their values: one page, a search and a status filter. */
export async function getParserEmails(db: Db, { userId, parserId, query }: { userId: string; parserId: string; query: ParserEmailsQuery }): Promise<ParserEmailsPage> {
  const parser = await getParser(db, { userId, parserId })
  const { page, pageSize, q, status } = parserEmailsQuerySchema.parse(query)
  const [{ rows, total }, statusCounts] = await Promise.all([
    listParserEmailsPage(db, { userId, parserId, page, pageSize, q, status }),
    countParserEmailsByStatus(db, userId, parserId),
  ])
  const counts = Object.fromEntries(PARSER_EMAIL_FILTERS.map((f) => [f, 0])) as Record<ParserEmailFilter, number>
  for (const { status: s, n } of statusCounts) {
    counts.all += n
    for (const [filter, statuses] of Object.entries(FILTER_STATUSES)) if (statuses.includes(s)) counts[filter as ParserEmailFilter] += n
  }
  return { emails: rows.map((row) => toRow(parser, row)), total, page, pageSize, counts }
}

/**
 * 'Reprocess': the emails go back to the ledger's queue and a mailbox pass runs now (the worker's
 * next pass when another one holds the mailbox). A requeued email leaves the month's count and is
 * counted again when processed: one processed this month is not counted twice.
 */
export async function reprocessParserEmails(
  db: Db,
  { userId, parserId, input, pipeline, requestSync }: { userId: string; parserId: string; input: ReprocessInput; pipeline: PipelineDeps; requestSync?: (userId: string) => Promise<void> },
): Promise<ReprocessResult> {
  await getParser(db, { userId, parserId })
  let ids: string[] | 'incomplete' = 'incomplete'
  if ('ids' in input) {
    ids = [...new Set(input.ids)]
    const found = await findParserEmailsByIds(db, { userId, parserId, ids })
    if (found.length !== ids.length) throw new AppError('NOT_FOUND', 'Parsed email not found')
  }
  const requeued = await requeueParserEmails(db, { userId, parserId, ids })
  const outcomes = { success: 0, partial: 0, failed: 0, waiting: 0, skipped: 0 }
  if (requeued.length === 0) return { reprocessed: 0, outcomes }
  const pass = await runMailboxPass(db, { userId, deps: pipeline })
  if (pass.skipped) await requestSync?.(userId)
  for (const { status } of await findEmailStatuses(db, requeued)) {
    if (status === 'success' || status === 'partial' || status === 'failed' || status === 'skipped') outcomes[status]++
    else outcomes.waiting++
  }
  return { reprocessed: requeued.length, outcomes }
}

function storedSample(parser: ParserRow): NormalisedEmail | null {
  const s = parser.trainingSample as { subject?: string; from?: string; date?: string | null; text?: string | null; html?: string | null } | null
  if (!s) return null
  return { subject: s.subject ?? '', from: s.from ?? '', to: [], date: s.date ?? null, messageId: null, text: s.text ?? null, html: s.html ?? null, attachments: [], warnings: [] } as NormalisedEmail
}

/** The parser's samples for multi-sample learning: the original first (its fields define the parser), then the later ones. */
async function loadTrainingSamples(db: Db, { userId, parser, access, extra }: { userId: string; parser: ParserRow; access: GoogleAccess; extra: TrainingSampleRef[] }) {
  let original = storedSample(parser)
  if (!original) {
    if (!parser.sampleMessageId || parser.sampleMessageId === SAMPLE_EMAIL_ID) original = sampleEmail()
    else original = await readEmail((await getRawMessage(db, { userId, messageId: parser.sampleMessageId, access })).raw)
  }
  const samples: TrainingSample[] = [{ email: original, fields: parser.extractionFields }]
  const kept: TrainingSampleRef[] = []
  for (const ref of extra) {
    try {
      const message = await getRawMessage(db, { userId, messageId: ref.messageId, access })
      samples.push({ email: message.raw, fields: ref.fields })
      kept.push(ref)
    } catch (error) {
      // A sample deleted from Gmail is dropped; the others still teach the parser.
      if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error
    }
  }
  return { samples, kept }
}

/** The fields as highlighted in the email, in the parser's order (new fields, already added to it, last). */
function checkedFields(parser: ParserRow, fields: ExtractionField[]): ExtractionField[] {
  const names = parser.extractionFields.map((f) => f.name)
  return names.flatMap((name) => fields.filter((f) => f.name === name))
}

/**
 * The parser with the fields highlighted in this email that it did not have (issue 12 item 3:
 * adding a field needs its value in a sample). They go after its fields, typed as highlighted.
 */
function withNewFields(parser: ParserRow, fields: ExtractionField[]): { parser: ParserRow; added: ExtractionField[] } {
  const names = new Set(parser.extractionFields.map((f) => f.name.toLowerCase()))
  const added = fields.filter((f) => !names.has(f.name.toLowerCase()))
  if (added.length === 0) return { parser, added }
  // An email that shows none of the parser's fields teaches it nothing about them: likely the wrong email.
  if (added.length === fields.length) {
    throw new AppError('VALIDATION', `Highlight at least one of the parser's fields (${parser.extractionFields.map((f) => f.name).join(', ')}) in this email`)
  }
  if (parser.extractionFields.length + added.length > 100) throw new AppError('VALIDATION', 'A parser can have at most 100 fields')
  return { parser: { ...parser, extractionFields: [...parser.extractionFields, ...added] }, added }
}

async function relearn(db: Db, { userId, parser, messageId, fields, access }: { userId: string; parser: ParserRow; messageId: string; fields: ExtractionField[]; access: GoogleAccess }) {
  const refs = [...parser.trainingSamples.filter((s) => s.messageId !== messageId && s.messageId !== parser.sampleMessageId), { messageId, fields: checkedFields(parser, fields) }].slice(-MAX_TRAINING_SAMPLES)
  const { samples, kept } = await loadTrainingSamples(db, { userId, parser, access, extra: refs })
  const trained = await trainParserFromSamples(samples)
  if (!trained.ok) throw new AppError('VALIDATION', trained.reason)
  return { template: trained.template, unmatched: trained.unmatched, refs: kept }
}

async function parserEmailOrThrow(db: Db, { userId, parserId, emailId }: { userId: string; parserId: string; emailId: string }) {
  const row = await findParserEmail(db, { userId, parserId, id: emailId })
  if (!row || !row.gmailMessageId) throw new AppError('NOT_FOUND', 'Parsed email not found')
  return row as LedgerRow & { gmailMessageId: string }
}

/** 'Train on this email': the email to highlight in and what the parser took from it. */
export async function getTrainingEmail(db: Db, { userId, parserId, emailId, access }: { userId: string; parserId: string; emailId: string; access: GoogleAccess }): Promise<TrainingEmailView> {
  const parser = await getParser(db, { userId, parserId })
  const row = await parserEmailOrThrow(db, { userId, parserId, emailId })
  const email = await getFetchedEmail(db, { userId, messageId: row.gmailMessageId, access })
  const view = toRow(parser, row)
  return { email, parsedEmailId: row.id, status: row.status, values: view.values, reasons: view.reasons }
}

/** The live preview while training on an email: the template re-learned with it, run on the parser's recent emails. */
export async function previewTrainingFromEmail(
  db: Db,
  { userId, parserId, emailId, fields, access }: { userId: string; parserId: string; emailId: string; fields: ExtractionField[]; access: GoogleAccess },
): Promise<PreviewResult> {
  const { parser } = withNewFields(await getParser(db, { userId, parserId }), fields)
  const row = await parserEmailOrThrow(db, { userId, parserId, emailId })
  const { template, unmatched } = await relearn(db, { userId, parser, messageId: row.gmailMessageId, fields, access })
  const recent = await listRecentParserEmails(db, { userId, parserId, exceptId: row.id, limit: TRAINING_PREVIEW_LIMIT })
  const rows = await Promise.all(
    recent.map(async (email): Promise<PreviewRow | null> => {
      const message = await getRawMessage(db, { userId, messageId: email.gmailMessageId!, access }).catch(() => null)
      if (!message) return null
      const result = await extractFromEmail(template, message.raw, { parserType: 'template', parseAttachments: false, ai: null })
      const read = await readEmail(message.raw).catch(() => null)
      return {
        messageId: message.id,
        subject: read?.subject ?? email.emailSubject ?? '',
        from: read?.from ?? email.emailFrom ?? '',
        date: (read ? emailFacts(read).date : null)?.toISOString() ?? (email.receivedAt ?? email.processedAt).toISOString(),
        status: result.status,
        fields: result.fields,
        details: Object.fromEntries(
          parser.extractionFields.map((f) => {
            const value = result.fields[f.name] ?? null
            return [f.name, { value, reason: value === null ? (result.details[f.name]?.reason ?? null) : null }]
          }),
        ),
        items: null,
        error: result.error,
      }
    }),
  )
  return { rows: rows.filter((r): r is PreviewRow => r !== null), unmatched, lineItemFields: [] }
}

/** Saves the template re-learned from all the parser's samples, this email's corrected values among them. */
export async function trainParserFromEmail(
  db: Db,
  { userId, parserId, emailId, fields, access }: { userId: string; parserId: string; emailId: string; fields: ExtractionField[]; access: GoogleAccess },
): Promise<TrainFromEmailResult> {
  const { parser, added } = withNewFields(await getParser(db, { userId, parserId }), fields)
  const row = await parserEmailOrThrow(db, { userId, parserId, emailId })
  const { template, unmatched, refs } = await relearn(db, { userId, parser, messageId: row.gmailMessageId, fields, access })
  if (added.length > 0) {
    const original = await getParser(db, { userId, parserId })
    // The new fields' columns go at the end of the sheet's header (written now), then the parser is saved.
    const sheetColumns = await addFieldsToLayout(db, { userId, parser: original, fields: added, access })
    await updateParserEdit(db, userId, parserId, { extractionFields: parser.extractionFields, sheetColumns })
  }
  const saved = await updateParserTraining(db, { userId, parserId, template: template as unknown as Record<string, unknown>, trainingSamples: refs })
  if (!saved) throw new AppError('NOT_FOUND', 'Parser not found')
  const counts = await countParserEmailsByStatus(db, userId, parserId)
  const incomplete = counts.filter((c) => c.status === 'failed' || c.status === 'partial').reduce((sum, c) => sum + c.n, 0)
  return { parser: toParserView(saved), samples: refs.length + 1, unmatched, incomplete }
}
