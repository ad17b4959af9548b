import type { gmail_v1 } from '@googleapis/gmail'
import { parseEmail, type ParseEmailResult } from '../../../engine/mime'
import type { Db } from '../../db/client'
import { withUserGoogle, type GoogleAccess } from '../connections/connections.service'
import { findGmailConnectionByUser } from '../connections/connections.queries'
import { gmailApi } from '../google/google.client'
import { matchesFilters } from '../gmail/gmail-matcher'
import { insertPendingRows, listActiveParsersByUser, updateSyncState } from './pipeline.queries'

const PARALLEL_GETS = 8
/** A full re-sync (history too old) looks this far back before the last sync, at most this many messages. */
const RESYNC_OVERLAP_MS = 24 * 60 * 60 * 1000
const RESYNC_LIMIT = 500
/** Mail in these places is not something a notification parser should see. */
const IGNORED_LABELS = new Set(['DRAFT', 'SPAM', 'TRASH'])

/** Messages fetched (and MIME-parsed) during a sync, handed to processing so nothing is downloaded or parsed twice. */
export type RawCache = Map<string, { raw: Buffer; internalDate: number; parsed?: ParseEmailResult }>

type Call = <R>(request: () => Promise<R>) => Promise<R>

/** Messages added since `startHistoryId`, each with the id of the history record that added it. */
async function newMessageIds(gmail: gmail_v1.Gmail, call: Call, startHistoryId: string) {
  const ids = new Map<string, bigint>()
  let pageToken: string | undefined
  let historyId = startHistoryId
  do {
    const { data } = await call(() =>
      gmail.users.history.list({ userId: 'me', startHistoryId, historyTypes: ['messageAdded'], maxResults: 500, pageToken }),
    )
    for (const record of data.history ?? []) {
      for (const added of record.messagesAdded ?? []) {
        const id = added.message?.id
        if (id && !(added.message?.labelIds ?? []).some((l) => IGNORED_LABELS.has(l)) && !ids.has(id)) ids.set(id, BigInt(record.id ?? startHistoryId))
      }
    }
    if (data.historyId) historyId = data.historyId
    pageToken = data.nextPageToken ?? undefined
  } while (pageToken)
  return { ids: [...ids.keys()], recordIds: ids, historyId }
}

async function recentMessageIds(gmail: gmail_v1.Gmail, call: Call, since: Date) {
  const ids: string[] = []
  let pageToken: string | undefined
  const q = `after:${Math.floor(since.getTime() / 1000)}`
  do {
    const { data } = await call(() => gmail.users.messages.list({ userId: 'me', q, maxResults: 100, pageToken }))
    ids.push(...(data.messages ?? []).map((m) => m.id ?? '').filter(Boolean))
    pageToken = data.nextPageToken ?? undefined
  } while (pageToken && ids.length < RESYNC_LIMIT)
  return ids.slice(0, RESYNC_LIMIT)
}

/** Gmail's 404: a history id too old to list from, or a message deleted since. */
function isNotFound(error: unknown) {
  const e = error as { status?: number; response?: { status?: number } }
  return (e.response?.status ?? e.status) === 404
}

/**
 * Brings the ledger up to date with the mailbox: every message added since the last sync that
 * matches an active parser becomes a pending row. Uses Gmail's history (cheap), or a look-back
 * over recent mail when the history id has expired.
 */
export async function syncMailbox(db: Db, { userId, access, cache }: { userId: string; access: GoogleAccess; cache?: RawCache }) {
  const connection = await findGmailConnectionByUser(db, userId)
  if (!connection || connection.status !== 'connected') return { added: 0, scanned: 0 }
  const activeParsers = await listActiveParsersByUser(db, userId)

  return withUserGoogle(db, { userId, access, action: 'Syncing Gmail' }, async (auth, call) => {
    const gmail = gmailApi(access.google, auth)
    if (!connection.historyId || activeParsers.length === 0) {
      // Start (or, with nothing to parse, skip ahead) from now.
      const { data } = await call(() => gmail.users.getProfile({ userId: 'me' }))
      await updateSyncState(db, userId, { historyId: data.historyId ?? null, lastSyncedAt: new Date() })
      return { added: 0, scanned: 0 }
    }

    let found: { ids: string[]; recordIds?: Map<string, bigint>; historyId: string | null }
    try {
      found = await newMessageIds(gmail, call, connection.historyId)
    } catch (error) {
      if (!isNotFound(error)) throw error
      const since = new Date((connection.lastSyncedAt ?? connection.createdAt).getTime() - RESYNC_OVERLAP_MS)
      const { data } = await call(() => gmail.users.getProfile({ userId: 'me' }))
      found = { ids: await recentMessageIds(gmail, call, since), historyId: data.historyId ?? null }
    }
    if (found.ids.length === 0) {
      await updateSyncState(db, userId, { historyId: found.historyId, lastSyncedAt: new Date() })
      return { added: 0, scanned: 0 }
    }

    const labels = (await call(() => gmail.users.labels.list({ userId: 'me' }))).data.labels ?? []
    const labelName = new Map(labels.map((l) => [l.id ?? '', l.name ?? '']))
    let added = 0
    for (let i = 0; i < found.ids.length; i += PARALLEL_GETS) {
      const batch = found.ids.slice(i, i + PARALLEL_GETS)
      const messages = await Promise.all(
        batch.map(async (id) => {
          try {
            const { data } = await call(() => gmail.users.messages.get({ userId: 'me', id, format: 'raw' }))
            return data
          } catch (error) {
            // Deleted between the history record and now: nothing to parse.
            if (isNotFound(error)) return null
            throw error
          }
        }),
      )
      const pending = []
      for (const message of messages) {
        if (!message?.id || !message.raw) continue
        if ((message.labelIds ?? []).some((l) => IGNORED_LABELS.has(l))) continue
        const raw = Buffer.from(message.raw, 'base64url')
        const parsed = await parseEmail(raw)
        const headers = parsed.ok ? { from: parsed.email.from, subject: parsed.email.subject } : { from: '', subject: '' }
        const matchable = { ...headers, labelNames: (message.labelIds ?? []).map((id) => labelName.get(id) ?? id) }
        const receivedAt = new Date(Number(message.internalDate ?? Date.now()))
        const recordId = found.recordIds?.get(message.id)
        for (const parser of activeParsers) {
          // A parser takes mail added after its activation; older mail is historical parsing's job.
          const isOlder = recordId !== undefined && parser.startHistoryId ? recordId <= BigInt(parser.startHistoryId) : receivedAt < parser.createdAt
          if (isOlder) continue
          const filters = { filterFrom: parser.filterFrom, filterSubject: parser.filterSubject, filterLabel: parser.filterLabel }
          if (!matchesFilters(matchable, filters)) continue
          pending.push({ userId, parserId: parser.id, gmailMessageId: message.id, receivedAt, emailSubject: headers.subject, emailFrom: headers.from, source: 'sync' as const })
          cache?.set(message.id, { raw, internalDate: receivedAt.getTime(), parsed })
        }
      }
      added += await insertPendingRows(db, pending)
    }
    // Only after the rows are safely in the ledger does the sync move past these messages.
    await updateSyncState(db, userId, { historyId: found.historyId, lastSyncedAt: new Date() })
    return { added, scanned: found.ids.length }
  })
}
