import { decodeWords } from 'postal-mime'

export type MimeHeader = { name: string; value: string }

/** One MIME entity: the message itself (partId "") or a part ("0", "1.2", ...). */
export type MimeNode = {
  partId: string
  mimeType: string
  filename: string
  headers: MimeHeader[]
  /** Content with the transfer encoding removed (empty for multipart containers). */
  body: Buffer
  parts: MimeNode[]
  isMultipart: boolean
}

type ParsedHeaderValue = { value: string; params: Map<string, string> }

/** RFC 822 text as delivered over SMTP: CRLF line ends. */
export function normalizeLineEndings(raw: Buffer): Buffer {
  const text = raw.toString('latin1')
  if (!/(^|[^\r])\n/.test(text) && !/\r(?!\n)/.test(text)) return raw
  return Buffer.from(text.replace(/\r\n|\r|\n/g, '\r\n'), 'latin1')
}

export function parseMimeTree(raw: Buffer): MimeNode {
  return parseEntity(raw.toString('latin1'), '', 0)
}

function parseEntity(entity: string, partId: string, depth: number): MimeNode {
  const { headerText, bodyText } = splitHeaderAndBody(entity)
  const headers = parseHeaders(headerText)
  const contentType = parseStructuredHeader(headerValue(headers, 'content-type') ?? 'text/plain')
  const disposition = parseStructuredHeader(headerValue(headers, 'content-disposition') ?? '')
  let mimeType = contentType.value.toLowerCase() || 'text/plain'
  if (!mimeType.includes('/')) mimeType = 'text/plain'
  const filename = disposition.params.get('filename') ?? contentType.params.get('name') ?? ''
  const boundary = contentType.params.get('boundary')

  if (mimeType.startsWith('multipart/') && boundary && depth < 50) {
    const pieces = splitMultipart(bodyText, boundary)
    const parts = pieces.map((piece, index) =>
      parseEntity(piece, partId === '' ? String(index) : `${partId}.${index}`, depth + 1),
    )
    return { partId, mimeType, filename: '', headers, body: Buffer.alloc(0), parts, isMultipart: true }
  }

  const encoding = (headerValue(headers, 'content-transfer-encoding') ?? '').trim().toLowerCase()
  return { partId, mimeType, filename, headers, body: decodeTransfer(bodyText, encoding), parts: [], isMultipart: false }
}

function splitHeaderAndBody(entity: string): { headerText: string; bodyText: string } {
  if (entity.startsWith('\r\n')) return { headerText: '', bodyText: entity.slice(2) }
  const crlf = entity.indexOf('\r\n\r\n')
  const lf = entity.indexOf('\n\n')
  if (crlf === -1 && lf === -1) return { headerText: entity, bodyText: '' }
  if (crlf !== -1 && (lf === -1 || crlf <= lf)) return { headerText: entity.slice(0, crlf), bodyText: entity.slice(crlf + 4) }
  return { headerText: entity.slice(0, lf), bodyText: entity.slice(lf + 2) }
}

function parseHeaders(headerText: string): MimeHeader[] {
  const unfolded = headerText.replace(/\r?\n(?=[ \t])/g, '')
  const headers: MimeHeader[] = []
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim()
    // Header bytes are read as UTF-8 (RFC 6532) and encoded words decoded, as Gmail shows them.
    const rawValue = Buffer.from(line.slice(colon + 1).replace(/^[ \t]+/, ''), 'latin1').toString('utf8')
    headers.push({ name, value: safeDecodeWords(rawValue.trimEnd()) })
  }
  return headers
}

function safeDecodeWords(value: string): string {
  if (!value.includes('=?')) return value
  try {
    return decodeWords(value)
  } catch {
    return value
  }
}

export function headerValue(headers: MimeHeader[], name: string): string | undefined {
  const lower = name.toLowerCase()
  return headers.find((header) => header.name.toLowerCase() === lower)?.value
}

function parseStructuredHeader(input: string): ParsedHeaderValue {
  const segments: string[] = []
  let current = ''
  let quoted = false
  for (let index = 0; index < input.length; index += 1) {
    const char = input[index]!
    if (char === '"' && input[index - 1] !== '\\') quoted = !quoted
    if (char === ';' && !quoted) {
      segments.push(current)
      current = ''
      continue
    }
    current += char
  }
  segments.push(current)
  const [value = '', ...rest] = segments
  const params = new Map<string, string>()
  const continuations = new Map<string, { index: number; value: string; encoded: boolean }[]>()
  for (const segment of rest) {
    const eq = segment.indexOf('=')
    if (eq === -1) continue
    const key = segment.slice(0, eq).trim().toLowerCase()
    let paramValue = segment.slice(eq + 1).trim()
    if (paramValue.startsWith('"') && paramValue.endsWith('"')) paramValue = paramValue.slice(1, -1).replace(/\\(.)/g, '$1')
    const continuation = /^(.+)\*(\d+)(\*?)$/.exec(key)
    if (continuation) {
      const list = continuations.get(continuation[1]!) ?? []
      list.push({ index: Number(continuation[2]), value: paramValue, encoded: continuation[3] === '*' })
      continuations.set(continuation[1]!, list)
      continue
    }
    if (key.endsWith('*')) {
      params.set(key.slice(0, -1), decodeRfc2231(paramValue))
      continue
    }
    params.set(key, safeDecodeWords(paramValue))
  }
  for (const [key, list] of continuations) {
    list.sort((a, b) => a.index - b.index)
    const joined = list.map((item) => item.value).join('')
    params.set(key, list.some((item) => item.encoded) ? decodeRfc2231(joined) : joined)
  }
  return { value: value.trim(), params }
}

function decodeRfc2231(value: string): string {
  const match = /^([^']*)'[^']*'(.*)$/.exec(value)
  const charset = match?.[1] || 'utf-8'
  const encoded = match ? match[2]! : value
  const bytes: number[] = []
  for (let index = 0; index < encoded.length; index += 1) {
    const char = encoded[index]!
    if (char === '%' && /^[0-9a-fA-F]{2}$/.test(encoded.slice(index + 1, index + 3))) {
      bytes.push(parseInt(encoded.slice(index + 1, index + 3), 16))
      index += 2
    } else {
      bytes.push(char.charCodeAt(0))
    }
  }
  try {
    return new TextDecoder(charset).decode(Uint8Array.from(bytes))
  } catch {
    return Buffer.from(bytes).toString('utf8')
  }
}

function splitMultipart(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`
  const parts: string[] = []
  const lines = body.split('\r\n')
  let current: string[] | null = null
  for (const line of lines) {
    const trimmed = line.trimEnd()
    if (trimmed === `${delimiter}--`) {
      if (current) parts.push(current.join('\r\n'))
      current = null
      break
    }
    if (trimmed === delimiter) {
      if (current) parts.push(current.join('\r\n'))
      current = []
      continue
    }
    current?.push(line)
  }
  if (current) parts.push(current.join('\r\n'))
  return parts
}

function decodeTransfer(body: string, encoding: string): Buffer {
  if (encoding === 'base64') return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64')
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body)
  return Buffer.from(body, 'latin1')
}

function decodeQuotedPrintable(body: string): Buffer {
  const text = body.replace(/[ \t]+(?=\r\n)/g, '').replace(/=\r\n/g, '')
  const bytes: number[] = []
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(text.slice(index + 1, index + 3))) {
      bytes.push(parseInt(text.slice(index + 1, index + 3), 16))
      index += 2
    } else {
      bytes.push(char.charCodeAt(0) & 0xff)
    }
  }
  return Buffer.from(bytes)
}

export function walkMime(node: MimeNode, visit: (node: MimeNode) => void) {
  visit(node)
  for (const part of node.parts) walkMime(part, visit)
}
