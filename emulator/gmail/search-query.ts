/** What the `q` matcher needs to know about one message. */
export type SearchableMessage = {
  from: SearchAddress[]
  to: SearchAddress[]
  cc: SearchAddress[]
  bcc: SearchAddress[]
  deliveredTo: string
  subject: string
  body: string
  filenames: string[]
  labels: { id: string; name: string }[]
  internalDate: number
  sizeEstimate: number
  messageIdHeader: string
}

export type SearchAddress = { name: string; address: string }

type Term = { field: string | null; text: string; phrase: boolean }
type Node =
  | { type: 'and'; items: Node[] }
  | { type: 'or'; items: Node[] }
  | { type: 'not'; item: Node }
  | { type: 'term'; term: Term }

type Token =
  | { kind: 'word'; text: string }
  | { kind: 'phrase'; text: string }
  | { kind: 'open' | 'close' | 'openBrace' | 'closeBrace' | 'not' }

const FIELDS = new Set([
  'from', 'to', 'cc', 'bcc', 'deliveredto', 'subject', 'label', 'in', 'is', 'has', 'after', 'before', 'older', 'newer',
  'older_than', 'newer_than', 'filename', 'category', 'larger', 'smaller', 'size', 'rfc822msgid',
])

export type CompiledQuery = {
  matches: (message: SearchableMessage) => boolean
  /** True when the query asks for spam or trash (in:spam, in:trash, in:anywhere), which Gmail otherwise leaves out. */
  includesSpamTrash: boolean
}

/** Gmail search (`q`), the operators of https://support.google.com/mail/answer/7190 that Mailrow relies on. */
export function compileQuery(query: string, now: number): CompiledQuery {
  const node = parse(tokenize(query))
  const includesSpamTrash = /\bin:(spam|trash|anywhere)\b/i.test(query) || /\blabel:(spam|trash)\b/i.test(query)
  return { matches: (message) => evaluate(node, message, now), includesSpamTrash }
}

function tokenize(query: string): Token[] {
  const tokens: Token[] = []
  let index = 0
  while (index < query.length) {
    const char = query[index]!
    if (/\s/.test(char)) {
      index += 1
      continue
    }
    if (char === '(') tokens.push({ kind: 'open' })
    else if (char === ')') tokens.push({ kind: 'close' })
    else if (char === '{') tokens.push({ kind: 'openBrace' })
    else if (char === '}') tokens.push({ kind: 'closeBrace' })
    else if (char === '-' && index + 1 < query.length && !/[\s)]/.test(query[index + 1]!)) tokens.push({ kind: 'not' })
    else if (char === '"') {
      const end = query.indexOf('"', index + 1)
      const stop = end === -1 ? query.length : end
      tokens.push({ kind: 'phrase', text: query.slice(index + 1, stop) })
      index = stop + 1
      continue
    } else {
      let end = index
      while (end < query.length && !/[\s(){}"]/.test(query[end]!)) end += 1
      tokens.push({ kind: 'word', text: query.slice(index, end) })
      index = end
      continue
    }
    index += 1
  }
  return tokens
}

function parse(tokens: Token[]): Node {
  let position = 0
  const peek = () => tokens[position]

  const parseSequence = (closer: Token['kind'] | null): Node[] => {
    const items: Node[] = []
    while (position < tokens.length) {
      const token = peek()!
      if (token.kind === closer) {
        position += 1
        return items
      }
      if (token.kind === 'close' || token.kind === 'closeBrace') {
        position += 1
        continue
      }
      items.push(parseOr())
    }
    return items
  }

  const parseOr = (): Node => {
    const items = [parseUnary()]
    for (;;) {
      const token = peek()
      if (token?.kind === 'word' && token.text === 'OR') {
        position += 1
        if (position >= tokens.length) break
        items.push(parseUnary())
        continue
      }
      break
    }
    return items.length === 1 ? items[0]! : { type: 'or', items }
  }

  const parseUnary = (): Node => {
    if (peek()?.kind === 'not') {
      position += 1
      return { type: 'not', item: parseAtom() }
    }
    return parseAtom()
  }

  const groupedValue = (field: string): Node | null => {
    const token = peek()
    if (token?.kind === 'phrase') {
      position += 1
      return { type: 'term', term: { field, text: token.text, phrase: true } }
    }
    if (token?.kind === 'open' || token?.kind === 'openBrace') {
      position += 1
      const inner = parseSequence(token.kind === 'open' ? 'close' : 'closeBrace').map((item) => withField(item, field))
      return { type: token.kind === 'open' ? 'and' : 'or', items: inner }
    }
    return null
  }

  const parseAtom = (): Node => {
    const token = tokens[position++]
    if (!token) return { type: 'and', items: [] }
    switch (token.kind) {
      case 'open':
        return { type: 'and', items: parseSequence('close') }
      case 'openBrace':
        return { type: 'or', items: parseSequence('closeBrace') }
      case 'phrase':
        return { type: 'term', term: { field: null, text: token.text, phrase: true } }
      case 'word': {
        const colon = token.text.indexOf(':')
        const field = colon > 0 ? token.text.slice(0, colon).toLowerCase() : ''
        if (FIELDS.has(field)) {
          const rest = token.text.slice(colon + 1)
          if (rest === '') return groupedValue(field) ?? { type: 'and', items: [] }
          return { type: 'term', term: { field, text: rest, phrase: false } }
        }
        return { type: 'term', term: { field: null, text: token.text, phrase: false } }
      }
      default:
        return { type: 'and', items: [] }
    }
  }

  return { type: 'and', items: parseSequence(null) }
}

function withField(node: Node, field: string): Node {
  switch (node.type) {
    case 'term':
      return node.term.field === null ? { type: 'term', term: { ...node.term, field } } : node
    case 'not':
      return { type: 'not', item: withField(node.item, field) }
    default:
      return { type: node.type, items: node.items.map((item) => withField(item, field)) }
  }
}

function evaluate(node: Node, message: SearchableMessage, now: number): boolean {
  switch (node.type) {
    case 'and':
      return node.items.every((item) => evaluate(item, message, now))
    case 'or':
      return node.items.some((item) => evaluate(item, message, now))
    case 'not':
      return !evaluate(node.item, message, now)
    case 'term':
      return matchTerm(node.term, message, now)
  }
}

/** Gmail matches whole words, not substrings: "invoice" finds "Invoice #12" but not "invoices". */
export function searchTokens(text: string): string[] {
  return text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').match(/[\p{L}\p{N}]+/gu) ?? []
}

function containsSequence(haystack: string[], needle: string[]): boolean {
  if (needle.length === 0) return true
  outer: for (let start = 0; start + needle.length <= haystack.length; start += 1) {
    for (let offset = 0; offset < needle.length; offset += 1) {
      if (haystack[start + offset] !== needle[offset]) continue outer
    }
    return true
  }
  return false
}

function matchText(text: string, value: string): boolean {
  return containsSequence(searchTokens(text), searchTokens(value))
}

function matchAddresses(addresses: SearchAddress[], value: string): boolean {
  const wanted = value.trim().toLowerCase()
  if (!wanted) return true
  if (wanted.startsWith('@')) return addresses.some((entry) => entry.address.toLowerCase().endsWith(wanted))
  if (wanted.includes('@')) return addresses.some((entry) => entry.address.toLowerCase() === wanted)
  if (wanted === 'me') return false
  return addresses.some((entry) => matchText(`${entry.name} ${entry.address}`, wanted))
}

const SYSTEM_LABEL_ALIASES: Record<string, string> = {
  inbox: 'INBOX', unread: 'UNREAD', starred: 'STARRED', important: 'IMPORTANT', sent: 'SENT', draft: 'DRAFT',
  drafts: 'DRAFT', spam: 'SPAM', trash: 'TRASH', chats: 'CHAT', chat: 'CHAT',
}

function normalizeLabelName(name: string): string {
  return name.toLowerCase().replace(/[\s/&]+/g, '-')
}

function hasLabel(message: SearchableMessage, value: string): boolean {
  const wanted = normalizeLabelName(value)
  const system = SYSTEM_LABEL_ALIASES[wanted]
  return message.labels.some(
    (label) => label.id === system || normalizeLabelName(label.name) === wanted || label.id.toLowerCase() === wanted,
  )
}

function hasLabelId(message: SearchableMessage, id: string): boolean {
  return message.labels.some((label) => label.id === id)
}

function matchTerm(term: Term, message: SearchableMessage, now: number): boolean {
  const value = term.text
  switch (term.field) {
    case null: {
      const haystack = [
        message.subject,
        message.body,
        ...message.from.map((entry) => `${entry.name} ${entry.address}`),
        ...message.to.map((entry) => `${entry.name} ${entry.address}`),
        ...message.cc.map((entry) => `${entry.name} ${entry.address}`),
        ...message.filenames,
      ]
      return haystack.some((text) => matchText(text, value))
    }
    case 'from':
      return matchAddresses(message.from, value)
    case 'to':
      return matchAddresses([...message.to, ...message.cc, ...message.bcc], value)
    case 'cc':
      return matchAddresses(message.cc, value)
    case 'bcc':
      return matchAddresses(message.bcc, value)
    case 'deliveredto':
      return matchAddresses([{ name: '', address: message.deliveredTo }], value)
    case 'subject':
      return matchText(message.subject, value)
    case 'label':
      return hasLabel(message, value)
    case 'in': {
      const wanted = value.toLowerCase()
      if (wanted === 'anywhere') return true
      return hasLabel(message, wanted)
    }
    case 'is': {
      const wanted = value.toLowerCase()
      if (wanted === 'read') return !hasLabelId(message, 'UNREAD')
      if (wanted === 'unread' || wanted === 'starred' || wanted === 'important') return hasLabel(message, wanted)
      return false
    }
    case 'has': {
      const wanted = value.toLowerCase()
      if (wanted === 'attachment') return message.filenames.length > 0
      if (wanted === 'userlabels') return message.labels.some((label) => label.id.startsWith('Label_'))
      if (wanted === 'nouserlabels') return !message.labels.some((label) => label.id.startsWith('Label_'))
      return false
    }
    case 'after':
    case 'newer': {
      const time = parseSearchDate(value)
      return time !== null && message.internalDate >= time
    }
    case 'before':
    case 'older': {
      const time = parseSearchDate(value)
      return time !== null && message.internalDate < time
    }
    case 'newer_than': {
      const span = parseRelativeSpan(value)
      return span !== null && message.internalDate > now - span
    }
    case 'older_than': {
      const span = parseRelativeSpan(value)
      return span !== null && message.internalDate < now - span
    }
    case 'filename': {
      const wanted = value.toLowerCase()
      return message.filenames.some((name) => name.toLowerCase().endsWith(`.${wanted}`) || matchText(name, wanted))
    }
    case 'category': {
      const wanted = value.toLowerCase()
      const categories = message.labels.filter((label) => label.id.startsWith('CATEGORY_'))
      if (wanted === 'primary') return categories.every((label) => label.id === 'CATEGORY_PERSONAL')
      return categories.some((label) => label.id === `CATEGORY_${wanted.toUpperCase()}`)
    }
    case 'larger':
    case 'size': {
      const size = parseSize(value)
      return size !== null && message.sizeEstimate > size
    }
    case 'smaller': {
      const size = parseSize(value)
      return size !== null && message.sizeEstimate < size
    }
    case 'rfc822msgid':
      return message.messageIdHeader.replace(/^<|>$/g, '').toLowerCase() === value.replace(/^<|>$/g, '').toLowerCase()
    default:
      return matchText(`${message.subject} ${message.body}`, value)
  }
}

/**
 * after:/before: take YYYY/MM/DD (also YYYY-MM-DD and MM/DD/YYYY), read as midnight Pacific time as
 * the Gmail API documents, or epoch seconds for an exact instant.
 * https://developers.google.com/workspace/gmail/api/guides/filtering
 */
export function parseSearchDate(value: string): number | null {
  if (/^\d{9,}$/.test(value)) return Number(value) * 1000
  let match = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(value)
  let year: number, month: number, day: number
  if (match) {
    year = Number(match[1])
    month = Number(match[2])
    day = Number(match[3])
  } else {
    match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value)
    if (!match) return null
    month = Number(match[1])
    day = Number(match[2])
    year = Number(match[3])
  }
  if (month < 1 || month > 12 || day < 1 || day > 31) return null
  return pacificMidnight(year, month, day)
}

const pacificParts = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Los_Angeles',
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
})

function pacificMidnight(year: number, month: number, day: number): number {
  for (const offsetHours of [8, 7]) {
    const candidate = Date.UTC(year, month - 1, day, offsetHours)
    const parts = Object.fromEntries(pacificParts.formatToParts(candidate).map((part) => [part.type, part.value]))
    if (Number(parts.hour) === 0 && Number(parts.day) === day) return candidate
  }
  return Date.UTC(year, month - 1, day, 8)
}

function parseRelativeSpan(value: string): number | null {
  const match = /^(\d+)([dmyh])$/i.exec(value)
  if (!match) return null
  const amount = Number(match[1])
  const unitMs = { h: 3_600_000, d: 86_400_000, m: 30 * 86_400_000, y: 365 * 86_400_000 }[match[2]!.toLowerCase() as 'h' | 'd' | 'm' | 'y']
  return amount * unitMs
}

function parseSize(value: string): number | null {
  const match = /^(\d+)([km]?)$/i.exec(value)
  if (!match) return null
  const factor = { '': 1, k: 1024, m: 1024 * 1024 }[match[2]!.toLowerCase() as '' | 'k' | 'm']
  return Number(match[1]) * factor
}
