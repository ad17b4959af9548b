import PostalMime, { type Address, type Email } from 'postal-mime'
import type { Clock } from '../clock'
import { subjectForEmail } from '../ids'
import { htmlToText } from './html-text'
import { headerValue, normalizeLineEndings, parseMimeTree, walkMime, type MimeNode } from './mime-tree'
import type { SearchAddress, SearchableMessage } from './search-query'

export type Account = { email: string; name: string; sub: string }

export type StoredMessage = {
  id: string
  threadId: string
  seq: number
  internalDate: number
  labelIds: string[]
  historyId: number
  raw: Buffer
  tree: MimeNode
  snippet: string
  sizeEstimate: number
  from: SearchAddress[]
  to: SearchAddress[]
  cc: SearchAddress[]
  bcc: SearchAddress[]
  subject: string
  dateHeader: string | undefined
  text: string | undefined
  html: string | undefined
  bodyText: string
  filenames: string[]
  messageIdHeader: string
}

export type HistoryMessageRef = { id: string; threadId: string }
export type HistoryMessage = HistoryMessageRef & { labelIds: string[] }

/** One entry of users.history.list, in Gmail's shape. */
export type HistoryRecord = {
  id: number
  messages: HistoryMessageRef[]
  messagesAdded?: { message: HistoryMessage }[]
  messagesDeleted?: { message: HistoryMessage }[]
  labelsAdded?: { message: HistoryMessage; labelIds: string[] }[]
  labelsRemoved?: { message: HistoryMessage; labelIds: string[] }[]
}

export type Watch = {
  topicName: string
  labelIds: string[]
  labelFilterBehavior: 'include' | 'exclude'
  expiration: number
}

export type UserLabel = { id: string; name: string }

export type Mailbox = {
  account: Account
  messages: Map<string, StoredMessage>
  userLabels: Map<string, UserLabel>
  nextUserLabel: number
  historyId: number
  history: HistoryRecord[]
  /** Oldest startHistoryId still answered; older ones get 404 as at Gmail. */
  historyFloor: number
  watch: Watch | null
}

export type DeliverOptions = {
  labels?: string[]
  internalDate?: number
  /** Gmail uses the Date header for imported mail; received mail gets the arrival time. */
  internalDateSource?: 'receivedTime' | 'dateHeader'
}

export const SYSTEM_LABELS = [
  { id: 'CHAT', name: 'CHAT', messageListVisibility: 'hide', labelListVisibility: 'labelHide', type: 'system' },
  { id: 'SENT', name: 'SENT', type: 'system' },
  { id: 'INBOX', name: 'INBOX', type: 'system' },
  { id: 'IMPORTANT', name: 'IMPORTANT', messageListVisibility: 'hide', labelListVisibility: 'labelHide', type: 'system' },
  { id: 'TRASH', name: 'TRASH', messageListVisibility: 'hide', labelListVisibility: 'labelHide', type: 'system' },
  { id: 'DRAFT', name: 'DRAFT', type: 'system' },
  { id: 'SPAM', name: 'SPAM', messageListVisibility: 'hide', labelListVisibility: 'labelHide', type: 'system' },
  { id: 'CATEGORY_FORUMS', name: 'CATEGORY_FORUMS', type: 'system' },
  { id: 'CATEGORY_UPDATES', name: 'CATEGORY_UPDATES', type: 'system' },
  { id: 'CATEGORY_PERSONAL', name: 'CATEGORY_PERSONAL', type: 'system' },
  { id: 'CATEGORY_PROMOTIONS', name: 'CATEGORY_PROMOTIONS', type: 'system' },
  { id: 'CATEGORY_SOCIAL', name: 'CATEGORY_SOCIAL', type: 'system' },
  { id: 'STARRED', name: 'STARRED', type: 'system' },
  { id: 'UNREAD', name: 'UNREAD', type: 'system' },
] as const

const systemLabelIds = new Set<string>(SYSTEM_LABELS.map((label) => label.id))
const INITIAL_HISTORY_ID = 100_000

export type MailStore = ReturnType<typeof createMailStore>

export function createMailStore(options: {
  clock: Clock
  historyRetention: number
  onHistory: (mailbox: Mailbox, record: HistoryRecord) => void
}) {
  const { clock } = options
  const mailboxes = new Map<string, Mailbox>()
  let sequence = 0

  function addAccount(input: { email: string; name?: string }): Mailbox {
    const email = input.email.trim().toLowerCase()
    const existing = mailboxes.get(email)
    if (existing) return existing
    const mailbox: Mailbox = {
      account: { email, name: input.name ?? nameFromEmail(email), sub: subjectForEmail(email) },
      messages: new Map(),
      userLabels: new Map(),
      nextUserLabel: 1,
      historyId: INITIAL_HISTORY_ID,
      history: [],
      historyFloor: INITIAL_HISTORY_ID,
      watch: null,
    }
    mailboxes.set(email, mailbox)
    return mailbox
  }

  const find = (email: string) => mailboxes.get(email.trim().toLowerCase())

  // History ids grow with gaps, as Gmail's do, so nobody relies on them being contiguous.
  function bumpHistory(mailbox: Mailbox): number {
    mailbox.historyId += 1 + (sequence % 4)
    return mailbox.historyId
  }

  function record(mailbox: Mailbox, entry: Omit<HistoryRecord, 'id'>, historyId: number) {
    const full: HistoryRecord = { id: historyId, ...entry }
    mailbox.history.push(full)
    while (mailbox.history.length > options.historyRetention) {
      const dropped = mailbox.history.shift()!
      mailbox.historyFloor = dropped.id
    }
    options.onHistory(mailbox, full)
  }

  function resolveLabels(mailbox: Mailbox, labels: string[]): string[] {
    const ids: string[] = []
    for (const raw of labels) {
      const label = raw.trim()
      if (!label) continue
      const system = label.toUpperCase()
      let id: string | undefined
      if (systemLabelIds.has(system)) id = system
      else if (mailbox.userLabels.has(label)) id = label
      else {
        id = [...mailbox.userLabels.values()].find((entry) => entry.name.toLowerCase() === label.toLowerCase())?.id
        if (!id) {
          id = `Label_${mailbox.nextUserLabel++}`
          mailbox.userLabels.set(id, { id, name: label })
        }
      }
      if (!ids.includes(id)) ids.push(id)
    }
    return ids
  }

  async function deliver(email: string, input: Buffer, deliverOptions: DeliverOptions = {}): Promise<StoredMessage> {
    const mailbox = addAccount({ email })
    const normalized = normalizeLineEndings(input)
    const original = parseMimeTree(normalized)
    const dateHeader = headerValue(original.headers, 'date')
    const headerDate = dateHeader ? Date.parse(dateHeader) : NaN
    const internalDate =
      deliverOptions.internalDate ??
      (deliverOptions.internalDateSource !== 'receivedTime' && Number.isFinite(headerDate) ? headerDate : clock.now())
    // Taken before any await: concurrent deliveries must not share a sequence number.
    const seq = ++sequence
    // Gmail prepends its own trace headers; apps must read From/Subject, not the first header.
    const trace =
      `Delivered-To: ${mailbox.account.email}\r\n` +
      `Received: by 2002:a05:7300:e0c1:b0:mailrow with SMTP id emu${seq};\r\n` +
      `        ${new Date(Math.max(0, internalDate)).toUTCString().replace('GMT', '+0000')}\r\n`
    const raw = Buffer.concat([Buffer.from(trace, 'latin1'), normalized])
    const tree = parseMimeTree(raw)
    const parsed = await PostalMime.parse(raw).catch((): Email => ({ headers: [], headerLines: [], attachments: [] }))
    const html = parsed.html
    const text = parsed.text
    const bodyText = text?.trim() ? text : html ? htmlToText(html) : ''
    const filenames: string[] = []
    walkMime(tree, (node) => {
      if (!node.isMultipart && node.filename) filenames.push(node.filename)
    })

    const messageIdHeader = headerValue(tree.headers, 'message-id')?.trim() ?? ''
    const references = [
      ...(headerValue(tree.headers, 'in-reply-to') ?? '').split(/\s+/),
      ...(headerValue(tree.headers, 'references') ?? '').split(/\s+/),
    ].filter(Boolean)
    const thread = [...mailbox.messages.values()].find((message) => message.messageIdHeader && references.includes(message.messageIdHeader))

    const safeDate = Math.max(0, Math.round(internalDate))
    const id = ((BigInt(safeDate) << 20n) | BigInt(seq & 0xfffff)).toString(16).padStart(16, '0')
    const labelIds = resolveLabels(mailbox, deliverOptions.labels ?? ['INBOX', 'UNREAD'])
    const historyId = bumpHistory(mailbox)
    const message: StoredMessage = {
      id,
      threadId: thread?.threadId ?? id,
      seq,
      internalDate: safeDate,
      labelIds,
      historyId,
      raw,
      tree,
      snippet: makeSnippet(bodyText),
      sizeEstimate: raw.length,
      from: flattenAddresses(parsed.from ? [parsed.from] : []),
      to: flattenAddresses(parsed.to ?? []),
      cc: flattenAddresses(parsed.cc ?? []),
      bcc: flattenAddresses(parsed.bcc ?? []),
      subject: parsed.subject ?? '',
      dateHeader,
      text,
      html,
      bodyText,
      filenames,
      messageIdHeader,
    }
    mailbox.messages.set(id, message)
    const ref = { id, threadId: message.threadId }
    record(mailbox, { messages: [ref], messagesAdded: [{ message: { ...ref, labelIds: [...labelIds] } }] }, historyId)
    return message
  }

  function modifyLabels(mailbox: Mailbox, message: StoredMessage, add: string[], remove: string[]) {
    const addIds = resolveLabels(mailbox, add).filter((id) => !message.labelIds.includes(id))
    const removeIds = remove
      .map((label) => resolveExisting(mailbox, label))
      .filter((id): id is string => id !== undefined && message.labelIds.includes(id))
    if (!addIds.length && !removeIds.length) return message
    message.labelIds = [...message.labelIds.filter((id) => !removeIds.includes(id)), ...addIds]
    const historyId = bumpHistory(mailbox)
    message.historyId = historyId
    const ref = { id: message.id, threadId: message.threadId }
    const snapshot = { ...ref, labelIds: [...message.labelIds] }
    const entry: Omit<HistoryRecord, 'id'> = { messages: [ref] }
    if (addIds.length) entry.labelsAdded = [{ message: snapshot, labelIds: addIds }]
    if (removeIds.length) entry.labelsRemoved = [{ message: snapshot, labelIds: removeIds }]
    record(mailbox, entry, historyId)
    return message
  }

  function resolveExisting(mailbox: Mailbox, label: string): string | undefined {
    const system = label.toUpperCase()
    if (systemLabelIds.has(system)) return system
    if (mailbox.userLabels.has(label)) return label
    return [...mailbox.userLabels.values()].find((entry) => entry.name.toLowerCase() === label.toLowerCase())?.id
  }

  function deleteMessage(mailbox: Mailbox, message: StoredMessage) {
    mailbox.messages.delete(message.id)
    const historyId = bumpHistory(mailbox)
    const ref = { id: message.id, threadId: message.threadId }
    record(mailbox, { messages: [ref], messagesDeleted: [{ message: { ...ref, labelIds: [...message.labelIds] } }] }, historyId)
  }

  function expireHistory(mailbox: Mailbox) {
    mailbox.history = []
    mailbox.historyFloor = mailbox.historyId
  }

  function labelsOf(mailbox: Mailbox, message: StoredMessage) {
    return message.labelIds.map((id) => ({ id, name: mailbox.userLabels.get(id)?.name ?? id }))
  }

  function searchable(mailbox: Mailbox, message: StoredMessage): SearchableMessage {
    return {
      from: message.from,
      to: message.to,
      cc: message.cc,
      bcc: message.bcc,
      deliveredTo: mailbox.account.email,
      subject: message.subject,
      body: message.bodyText,
      filenames: message.filenames,
      labels: labelsOf(mailbox, message),
      internalDate: message.internalDate,
      sizeEstimate: message.sizeEstimate,
      messageIdHeader: message.messageIdHeader,
    }
  }

  /** Newest first, as Gmail lists. */
  function sortedMessages(mailbox: Mailbox): StoredMessage[] {
    return [...mailbox.messages.values()].sort((a, b) => b.internalDate - a.internalDate || b.seq - a.seq)
  }

  return {
    addAccount,
    find,
    list: () => [...mailboxes.values()],
    deliver,
    modifyLabels,
    deleteMessage,
    expireHistory,
    labelsOf,
    searchable,
    sortedMessages,
    threadCount: (mailbox: Mailbox) => new Set([...mailbox.messages.values()].map((message) => message.threadId)).size,
    clear: () => mailboxes.clear(),
  }
}

function flattenAddresses(list: Address[]): SearchAddress[] {
  const out: SearchAddress[] = []
  for (const entry of list) {
    if (entry.group) for (const member of entry.group) out.push({ name: member.name, address: member.address })
    else if (entry.address !== undefined) out.push({ name: entry.name, address: entry.address })
  }
  return out
}

function nameFromEmail(email: string): string {
  const local = email.split('@')[0] ?? email
  return local
    .split(/[._-]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ')
}

/** Gmail snippets: the start of the text, whitespace collapsed, HTML-escaped (&#39; and all). */
export function makeSnippet(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim()
  let cut = collapsed
  if (collapsed.length > 200) {
    cut = collapsed.slice(0, 200)
    const space = cut.lastIndexOf(' ')
    if (space > 150) cut = cut.slice(0, space)
  }
  return cut
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}
