import type { gmail_v1 } from '@googleapis/gmail'
import { htmlToText } from '@engine/html-to-text'
import { parseEmail, type NormalisedEmail } from '@engine/mime'
import { SUBMITTED_MESSAGE_PREFIX } from '@shared/contracts/api'
import { MATCHING_EMAILS_LIMIT, type EmailFilters, type FetchedEmail } from '@shared/contracts/gmail'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/errors'
import { withUserGoogle, type GoogleAccess } from '../connections/connections.service'
import { findSubmittedRaw } from '../pipeline/pipeline.queries'
import { gmailApi } from '../google/google.client'
import type { AdvancedFilters } from '@shared/contracts/parser-edit'
import { buildGmailQuery, matchesFilters, needsBody, type MatchableMessage } from './gmail-matcher'
import { sanitizeEmailHtml } from './sanitize-email-html'

/** How many recent messages a search looks at when Gmail's query can't narrow it enough. */
const SCAN_LIMIT = 300
const PAGE_SIZE = 100
const PARALLEL_GETS = 8

type Call = <R>(request: () => Promise<R>) => Promise<R>

/** A Gmail message as RFC 822 bytes: every source of mail ends up as these (ARCHITECTURE.md). */
export type RawMessage = { id: string; raw: Buffer; internalDate: number }

async function inBatches<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = []
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(run))))
  return results
}

const header = (headers: Array<{ name?: string | null; value?: string | null }> | undefined, name: string) =>
  headers?.find((h) => h.name?.toLowerCase() === name.toLowerCase())?.value ?? ''

/** Ids of the most recent messages that match, newest first. Gmail's search narrows; the local matcher decides. */
async function findMatching(gmail: gmail_v1.Gmail, call: Call, filters: EmailFilters, limit: number, advanced: AdvancedFilters | null = null): Promise<Array<{ id: string; internalDate: number }>> {
  const labels = (await call(() => gmail.users.labels.list({ userId: 'me' }))).data.labels ?? []
  const labelName = new Map(labels.map((l) => [l.id ?? '', l.name ?? '']))
  const q = buildGmailQuery(filters, advanced) || undefined
  // Filters on the body or attachments need the whole message; the others read two headers.
  const withBody = needsBody(advanced)
  const matched: Array<{ id: string; internalDate: number }> = []
  let pageToken: string | undefined
  for (let scanned = 0; matched.length < limit && scanned < SCAN_LIMIT; ) {
    const page = await call(() => gmail.users.messages.list({ userId: 'me', q, maxResults: PAGE_SIZE, pageToken }))
    const ids = (page.data.messages ?? []).map((m) => m.id).filter((id): id is string => Boolean(id))
    const metas = await inBatches(ids, PARALLEL_GETS, (id) =>
      call(() =>
        withBody
          ? gmail.users.messages.get({ userId: 'me', id, format: 'raw' })
          : gmail.users.messages.get({ userId: 'me', id, format: 'metadata', metadataHeaders: ['From', 'Subject'] }),
      ),
    )
    for (const { data } of metas) {
      const labelNames = (data.labelIds ?? []).map((id) => labelName.get(id) ?? id)
      const message: MatchableMessage = withBody
        ? { ...(await matchableFromRaw(Buffer.from(data.raw ?? '', 'base64url'))), labelNames }
        : { from: header(data.payload?.headers, 'From'), subject: header(data.payload?.headers, 'Subject'), labelNames }
      if (data.id && matchesFilters(message, filters, advanced)) matched.push({ id: data.id, internalDate: Number(data.internalDate ?? 0) })
    }
    scanned += ids.length
    pageToken = page.data.nextPageToken ?? undefined
    if (!pageToken) break
  }
  return matched.slice(0, limit)
}

/** What the matcher reads of a whole message: headers, the body as text, the attachment count. */
export async function matchableFromRaw(raw: Uint8Array): Promise<Omit<MatchableMessage, 'labelNames'>> {
  const parsed = await parseEmail(raw)
  if (!parsed.ok) return { from: '', subject: '', body: '', attachments: 0 }
  return matchableFromEmail(parsed.email)
}

export function matchableFromEmail(email: NormalisedEmail): Omit<MatchableMessage, 'labelNames'> {
  const html = !email.text?.trim() && email.html ? htmlToText(email.html) : null
  return { from: email.from, subject: email.subject, body: email.text?.trim() ? email.text : html?.ok ? html.text : '', attachments: email.attachments.length }
}

async function getRaw(gmail: gmail_v1.Gmail, call: Call, id: string): Promise<RawMessage> {
  const { data } = await call(() => gmail.users.messages.get({ userId: 'me', id, format: 'raw' }))
  return { id: data.id ?? id, raw: Buffer.from(data.raw ?? '', 'base64url'), internalDate: Number(data.internalDate ?? 0) }
}

/** The most recent matching messages as raw bytes (the live preview and backfill read these). */
export async function listMatchingRawMessages(
  db: Db,
  { userId, filters, advanced = null, access, limit = MATCHING_EMAILS_LIMIT }: { userId: string; filters: EmailFilters; advanced?: AdvancedFilters | null; access: GoogleAccess; limit?: number },
): Promise<RawMessage[]> {
  return withUserGoogle(db, { userId, access, action: 'Fetching emails' }, async (auth, call) => {
    const gmail = gmailApi(access.google, auth)
    const matches = await findMatching(gmail, call, filters, limit, advanced)
    return inBatches(matches, PARALLEL_GETS, ({ id }) => getRaw(gmail, call, id))
  })
}

/** Ids and arrival times of the most recent matching messages, newest first (no bodies: backfill). */
export async function listMatchingMessageIds(
  db: Db,
  { userId, filters, advanced = null, access, limit }: { userId: string; filters: EmailFilters; advanced?: AdvancedFilters | null; access: GoogleAccess; limit: number },
) {
  return withUserGoogle(db, { userId, access, action: 'Fetching emails' }, (auth, call) => findMatching(gmailApi(access.google, auth), call, filters, limit, advanced))
}

/** The mailbox's current historyId: where "new mail" starts. */
export async function currentHistoryId(db: Db, { userId, access }: { userId: string; access: GoogleAccess }) {
  return withUserGoogle(db, { userId, access, action: 'Reading the mailbox' }, async (auth, call) => {
    const { data } = await call(() => gmailApi(access.google, auth).users.getProfile({ userId: 'me' }))
    return data.historyId ?? null
  })
}

/** One message of the connected mailbox as raw bytes; 404 when it isn't there. */
export async function getRawMessage(db: Db, { userId, messageId, access }: { userId: string; messageId: string; access: GoogleAccess }): Promise<RawMessage> {
  // An email submitted through the REST API is ours, not Gmail's: the pipeline, the parser's page
  // and "Train on this email" read it the same way (docs/decisions/019).
  if (messageId.startsWith(SUBMITTED_MESSAGE_PREFIX)) {
    const submitted = await findSubmittedRaw(db, userId, messageId)
    if (!submitted) throw new AppError('NOT_FOUND', `No email with ID ${messageId} was submitted.`)
    return { id: messageId, raw: Buffer.from(submitted.raw, 'base64'), internalDate: submitted.createdAt.getTime() }
  }
  const action = 'Reading the email'
  try {
    return await withUserGoogle(db, { userId, access, action }, (auth, call) => getRaw(gmailApi(access.google, auth), call, messageId))
  } catch (error) {
    // Gmail answers 404 for an unknown id and 400 for one that can't be an id.
    if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'VALIDATION') && error.message.startsWith(action)) {
      throw new AppError('NOT_FOUND', `No email with ID ${messageId} in the connected Gmail account.`)
    }
    throw error
  }
}

/** Wizard step 3: the most recent emails matching the filters, newest first, ready to show. */
export async function listMatchingEmails(
  db: Db,
  { userId, filters, advanced = null, access, allowRemoteImages = false }: { userId: string; filters: EmailFilters; advanced?: AdvancedFilters | null; access: GoogleAccess; allowRemoteImages?: boolean },
): Promise<FetchedEmail[]> {
  const messages = await listMatchingRawMessages(db, { userId, filters, advanced, access })
  return Promise.all(messages.map((message) => toFetchedEmail(message, allowRemoteImages)))
}

/** One message ready to show and highlight (the parser page's 'Train on this email'). */
export async function getFetchedEmail(db: Db, { userId, messageId, access }: { userId: string; messageId: string; access: GoogleAccess }) {
  return toFetchedEmail(await getRawMessage(db, { userId, messageId, access }), false)
}

async function toFetchedEmail(message: RawMessage, allowRemoteImages: boolean): Promise<FetchedEmail> {
  const parsed = await parseEmail(message.raw)
  const fallbackDate = new Date(message.internalDate || 0).toISOString()
  if (!parsed.ok) {
    return { id: message.id, subject: '', from: '', date: fallbackDate, body: `This email could not be read: ${parsed.reason}`, bodyHtml: null }
  }
  const email = parsed.email
  const html = email.html ? htmlToText(email.html) : null
  const date = email.date && !Number.isNaN(Date.parse(email.date)) ? new Date(email.date).toISOString() : fallbackDate
  return {
    id: message.id,
    subject: email.subject,
    from: email.from,
    date,
    body: email.text?.trim() || (html?.ok ? html.text.trim() : ''),
    bodyHtml: email.html ? sanitizeEmailHtml(email.html, { allowRemoteImages }) : null,
  }
}
