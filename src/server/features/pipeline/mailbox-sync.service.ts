import type { gmail_v1 } from '@googleapis/gmail'
import { parseEmail, type ParseEmailResult } from '@engine/mime'
import type { Db } from '../../db/client'
import { withUserGoogle, type GoogleAccess } from '../connections/connections.service'
import { findGmailConnectionByUser } from '../connections/connections.queries'
import { gmailApi, isInvalidGrant } from '../google/google.client'
import { matchesFilters } from '../gmail/gmail-matcher'
import { matchableFromEmail } from '../gmail/gmail.service'
import { insertPendingRows, listActiveParsersByUser, listKnownMessageIds, updateSyncState, type ClaimedMailbox } from './pipeline.queries'

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

const MAX_BACKOFF_MS = 60 * 60 * 1000
/** Once every other download of a pass is done, a straggler gets this long before it is left to a later pass. */
const STRAGGLER_GRACE_MS = 2_000

export type SyncOptions = { now?: () => Date; stragglerGraceMs?: number }

/** Gmail said the grant is gone: no download can work until the user reconnects. */
function isFatal(error: unknown) {
  const e = error as { status?: number; response?: { status?: number } }
  const status = e.response?.status ?? e.status
  return isInvalidGrant(error) || status === 401
}

/**
 * Brings the ledger up to date with the mailbox: every message added since the last sync that
 * matches an active parser becomes a pending row. Uses Gmail's history (cheap), or a look-back
 * over recent mail when the history id has expired. A message already in the ledger is not
 * downloaded again; one whose download fails or stalls does not hold up the others: the sync moves
 * past it and keeps it in the mailbox's backlog, tried again in a later pass with backoff.
 */
export async function syncMailbox(
  db: Db,
  {
    userId,
    access,
    cache,
    options = {},
    claimed,
  }: { userId: string; access: GoogleAccess; cache?: RawCache; options?: SyncOptions; claimed?: ClaimedMailbox },
) {
  const now = options.now ?? (() => new Date())
  // The scheduler's claim already read the connection: an idle pass asks the database nothing more here.
  const connection = claimed ?? (await findGmailConnectionByUser(db, userId))
  if (!connection || connection.status !== 'connected') return { added: 0, scanned: 0, deferred: 0 }
  let activeParsers = claimed?.hasParsers === false ? [] : claimed ? undefined : await listActiveParsersByUser(db, userId)

  return withUserGoogle(db, { userId, access, action: 'Syncing Gmail', connection }, async (auth, call) => {
    const gmail = gmailApi(access.google, auth)
    const skipAhead = async () => {
      // Start (or, with nothing to parse, skip ahead) from now.
      const { data } = await call(() => gmail.users.getProfile({ userId: 'me' }))
      await updateSyncState(db, userId, { historyId: data.historyId ?? null, lastSyncedAt: now(), syncBacklog: [] })
      return { added: 0, scanned: 0, deferred: 0 }
    }
    if (!connection.historyId || activeParsers?.length === 0) return skipAhead()

    let found: { ids: string[]; recordIds?: Map<string, bigint>; historyId: string | null }
    try {
      found = await newMessageIds(gmail, call, connection.historyId)
    } catch (error) {
      if (!isNotFound(error)) throw error
      const since = new Date((connection.lastSyncedAt ?? connection.createdAt).getTime() - RESYNC_OVERLAP_MS)
      const { data } = await call(() => gmail.users.getProfile({ userId: 'me' }))
      found = { ids: await recentMessageIds(gmail, call, since), historyId: data.historyId ?? null }
    }
    const backlog = new Map(connection.syncBacklog.map((d) => [d.id, d]))
    const recordIds = new Map(found.recordIds ?? [])
    for (const deferred of backlog.values()) if (deferred.recordId && !recordIds.has(deferred.id)) recordIds.set(deferred.id, BigInt(deferred.recordId))
    const due = [...backlog.values()].filter((d) => new Date(d.retryAt) <= now()).map((d) => d.id)
    const candidates = [...new Set([...found.ids, ...due])]
    // Nothing new and the mailbox unchanged: nothing to store. (The look-back of a full re-sync starts
    // at lastSyncedAt, which is still right: nothing was added since.)
    if (candidates.length === 0 && found.historyId === connection.historyId) return { added: 0, scanned: 0, deferred: backlog.size }
    activeParsers ??= await listActiveParsersByUser(db, userId)
    if (activeParsers.length === 0) return skipAhead()
    const parsersNow = activeParsers
    // Already in the ledger: downloaded and matched before (a repeated history window, a retried pass).
    const known = new Set(await listKnownMessageIds(db, userId, candidates))
    for (const id of known) backlog.delete(id)
    // Added before every active parser started: no parser takes it, so it isn't worth a download.
    const starts = parsersNow.map((p) => (p.startHistoryId ? BigInt(p.startHistoryId) : null))
    const allStarted = starts.every((start) => start !== null) ? starts.reduce((a, b) => (a! < b! ? a : b)) : null
    const isBeforeEveryParser = (id: string) => allStarted !== null && recordIds.has(id) && recordIds.get(id)! <= allStarted!
    const wanted = candidates.filter((id) => !known.has(id) && !isBeforeEveryParser(id))
    if (wanted.length === 0) {
      await updateSyncState(db, userId, { historyId: found.historyId, lastSyncedAt: now(), syncBacklog: [...backlog.values()] })
      return { added: 0, scanned: 0, deferred: backlog.size }
    }

    const labels = (await call(() => gmail.users.labels.list({ userId: 'me' }))).data.labels ?? []
    const labelName = new Map(labels.map((l) => [l.id ?? '', l.name ?? '']))
    const pending: Parameters<typeof insertPendingRows>[1] = []

    async function fetchOne(id: string) {
      // One try per pass: a message that fails waits in the backlog instead of holding up the pass.
      const { data: message } = await gmail.users.messages.get({ userId: 'me', id, format: 'raw' })
      if (!message?.id || !message.raw) return
      if ((message.labelIds ?? []).some((l) => IGNORED_LABELS.has(l))) return
      const raw = Buffer.from(message.raw, 'base64url')
      const parsed = await parseEmail(raw)
      const headers = parsed.ok ? { from: parsed.email.from, subject: parsed.email.subject } : { from: '', subject: '' }
      const labelNames = (message.labelIds ?? []).map((l) => labelName.get(l) ?? l)
      const matchable = parsed.ok ? { ...matchableFromEmail(parsed.email), labelNames } : { ...headers, labelNames }
      const receivedAt = new Date(Number(message.internalDate ?? Date.now()))
      const recordId = recordIds.get(message.id)
      for (const parser of parsersNow) {
        // A parser takes mail added after its activation; older mail is historical parsing's job.
        const isOlder = recordId !== undefined && parser.startHistoryId ? recordId <= BigInt(parser.startHistoryId) : receivedAt < parser.createdAt
        if (isOlder) continue
        const filters = { filterFrom: parser.filterFrom, filterSubject: parser.filterSubject, filterLabel: parser.filterLabel }
        if (!matchesFilters(matchable, filters, parser.advancedFilters)) continue
        if (parser.advancedFilters?.gmailQuery && !(await gmailQueryMatches(gmail, call, parser.advancedFilters.gmailQuery, message.id, receivedAt))) continue
        pending.push({ userId, parserId: parser.id, gmailMessageId: message.id, receivedAt, emailSubject: headers.subject, emailFrom: headers.from, source: 'sync' as const })
        cache?.set(message.id, { raw, internalDate: receivedAt.getTime(), parsed })
      }
    }

    const failed = await downloadAll(wanted, fetchOne, options.stragglerGraceMs ?? STRAGGLER_GRACE_MS)
    for (const id of wanted) if (!failed.has(id)) backlog.delete(id)
    for (const [id, error] of failed) {
      if (isFatal(error)) throw error
      const attempts = (backlog.get(id)?.attempts ?? 0) + 1
      const delay = Math.min(MAX_BACKOFF_MS, 5_000 * 2 ** (attempts - 1)) * (0.5 + Math.random() / 2)
      backlog.set(id, { id, recordId: recordIds.get(id)?.toString(), attempts, retryAt: new Date(now().getTime() + delay).toISOString() })
    }
    const added = await insertPendingRows(db, pending)
    // Only after the rows (and the messages still to fetch) are safely stored does the sync move past these messages.
    await updateSyncState(db, userId, { historyId: found.historyId, lastSyncedAt: now(), syncBacklog: [...backlog.values()] })
    return { added, scanned: wanted.length, deferred: backlog.size }
  })
}

/**
 * A parser's own Gmail search, asked of Gmail for one message: the search narrowed to the second
 * the message arrived, and the message among the answers. Gmail reads its own query language; no
 * local imitation of it can be trusted to agree.
 */
async function gmailQueryMatches(gmail: gmail_v1.Gmail, call: <R>(request: () => Promise<R>) => Promise<R>, query: string, id: string, receivedAt: Date) {
  const second = Math.floor(receivedAt.getTime() / 1000)
  const { data } = await call(() => gmail.users.messages.list({ userId: 'me', q: `(${query}) after:${second - 1} before:${second + 1}`, maxResults: 500 }))
  return (data.messages ?? []).some((m) => m.id === id)
}

/**
 * Runs the downloads PARALLEL_GETS at a time; a slow one holds only its own slot. When all have
 * been started, stragglers get `graceMs` after the last other one finished, then count as failed
 * (their answer, should it come, is dropped). Returns the ids that failed, with their errors.
 */
async function downloadAll(ids: string[], fetchOne: (id: string) => Promise<void>, graceMs: number) {
  const failed = new Map<string, unknown>()
  const running = new Set<string>()
  let next = 0
  let timer: NodeJS.Timeout | undefined
  let giveUp: () => void = () => {}
  const gaveUp = new Promise<void>((resolve) => (giveUp = resolve))
  const slot = async () => {
    while (next < ids.length) {
      const id = ids[next++]!
      running.add(id)
      try {
        await fetchOne(id)
      } catch (error) {
        // Deleted between the history record and now: nothing to parse.
        if (!isNotFound(error)) failed.set(id, error)
      } finally {
        running.delete(id)
      }
      if (next >= ids.length && running.size > 0) {
        clearTimeout(timer)
        timer = setTimeout(giveUp, graceMs)
      }
    }
  }
  await Promise.race([Promise.all(Array.from({ length: Math.min(PARALLEL_GETS, ids.length) }, slot)), gaveUp])
  clearTimeout(timer)
  for (const id of running) failed.set(id, new Error('download still running after the others finished'))
  return failed
}
