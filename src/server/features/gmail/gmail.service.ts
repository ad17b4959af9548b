import PostalMime from 'postal-mime'
import { MATCHING_EMAILS_LIMIT, type EmailFilters, type FetchedEmail } from '../../../shared/contracts/gmail'
import type { Db } from '../../db/client'
import { withUserGoogle, type GoogleAccess } from '../connections/connections.service'
import { gmailApi } from '../google/google.client'
import { buildGmailQuery, matchesFilters } from './gmail-matcher'
import { sanitizeEmailHtml } from './sanitize-email-html'

/** How many recent messages a search looks at when Gmail's query can't narrow it enough. */
const SCAN_LIMIT = 300
const PAGE_SIZE = 100
const PARALLEL_GETS = 8

async function inBatches<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = []
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(run))))
  return results
}

const header = (headers: Array<{ name?: string | null; value?: string | null }> | undefined, name: string) =>
  headers?.find((h) => h.name?.toLowerCase() === name.toLowerCase())?.value ?? ''

/**
 * Wizard step 3: the most recent emails matching the filters, newest first. Gmail's search
 * narrows; the local matcher (shared with the pipeline) decides.
 */
export async function listMatchingEmails(
  db: Db,
  { userId, filters, access, allowRemoteImages = false }: { userId: string; filters: EmailFilters; access: GoogleAccess; allowRemoteImages?: boolean },
): Promise<FetchedEmail[]> {
  return withUserGoogle(db, { userId, access, action: 'Fetching emails' }, async (auth, call) => {
    const gmail = gmailApi(access.google, auth)
    const labels = (await call(() => gmail.users.labels.list({ userId: 'me' }))).data.labels ?? []
    const labelName = new Map(labels.map((l) => [l.id ?? '', l.name ?? '']))
    const q = buildGmailQuery(filters) || undefined

    const matchedIds: string[] = []
    let pageToken: string | undefined
    for (let scanned = 0; matchedIds.length < MATCHING_EMAILS_LIMIT && scanned < SCAN_LIMIT; ) {
      const page = await call(() => gmail.users.messages.list({ userId: 'me', q, maxResults: PAGE_SIZE, pageToken }))
      const ids = (page.data.messages ?? []).map((m) => m.id).filter((id): id is string => Boolean(id))
      const metas = await inBatches(ids, PARALLEL_GETS, (id) =>
        call(() => gmail.users.messages.get({ userId: 'me', id, format: 'metadata', metadataHeaders: ['From', 'Subject'] })),
      )
      for (const { data } of metas) {
        const message = {
          from: header(data.payload?.headers, 'From'),
          subject: header(data.payload?.headers, 'Subject'),
          labelNames: (data.labelIds ?? []).map((id) => labelName.get(id) ?? id),
        }
        if (data.id && matchesFilters(message, filters)) matchedIds.push(data.id)
      }
      scanned += ids.length
      pageToken = page.data.nextPageToken ?? undefined
      if (!pageToken) break
    }

    const raws = await inBatches(matchedIds.slice(0, MATCHING_EMAILS_LIMIT), PARALLEL_GETS, (id) =>
      call(() => gmail.users.messages.get({ userId: 'me', id, format: 'raw' })),
    )
    return Promise.all(
      raws.map(async ({ data }) => toFetchedEmail(data.id ?? '', Buffer.from(data.raw ?? '', 'base64url'), Number(data.internalDate), allowRemoteImages)),
    )
  })
}

async function toFetchedEmail(id: string, raw: Buffer, internalDate: number, allowRemoteImages: boolean): Promise<FetchedEmail> {
  const email = await PostalMime.parse(raw)
  const from = email.from ? (email.from.name ? `${email.from.name} <${email.from.address ?? ''}>` : (email.from.address ?? '')) : ''
  const date = email.date && !Number.isNaN(Date.parse(email.date)) ? new Date(email.date) : new Date(internalDate || 0)
  return {
    id,
    subject: email.subject ?? '',
    from,
    date: date.toISOString(),
    body: email.text?.trim() || htmlToPlainText(email.html ?? ''),
    bodyHtml: email.html ? sanitizeEmailHtml(email.html, { allowRemoteImages }) : null,
  }
}

function htmlToPlainText(html: string): string {
  return html
    .replace(/<(script|style|head)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|tr|li|h\d)>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim()
}
