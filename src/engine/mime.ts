import PostalMime from 'postal-mime'
import type { Address } from 'postal-mime'
import { parseMimeFast, type FastEmail } from './mime-fast'

/** An email after MIME decoding: what the extraction engine and the wizard read. */
export type NormalisedEmail = {
  subject: string
  from: string
  to: string[]
  /** ISO 8601 when the Date header parses, else the header as sent, else null. */
  date: string | null
  messageId: string | null
  text: string | null
  html: string | null
  attachments: EmailAttachment[]
  /** Problems that did not stop parsing (unknown charset, truncated multipart). */
  warnings: string[]
}

export type EmailAttachment = {
  filename: string | null
  mimeType: string
  size: number
  content: Uint8Array
}

export type MimeLimits = {
  /** Larger messages fail without being parsed. */
  maxMessageBytes: number
  /** Messages with more MIME parts than this fail (breadth is what makes hostile MIME slow). */
  maxParts: number
  /** Lines of 7bit/8bit body text: postal-mime keeps one chunk per such line, slow beyond tens of thousands. */
  maxPlainLines: number
}

export const DEFAULT_MIME_LIMITS: MimeLimits = {
  maxMessageBytes: 10 * 1024 * 1024,
  maxParts: 2_000,
  maxPlainLines: 30_000,
}

export type ParseEmailResult = { ok: true; email: NormalisedEmail } | { ok: false; reason: string }

const KNOWN_HEADERS = /^(from|to|cc|subject|date|message-id|mime-version|content-type|received|return-path|delivered-to|reply-to|sender|x-[a-z0-9-]+|dkim-signature|authentication-results|content-transfer-encoding|list-unsubscribe|arc-[a-z-]+|references|in-reply-to)$/i
const HEADER_LINE = /^([!-9;-~]+)[ \t]*:/
const CHARSET_PARAM = /charset\s*=\s*"?([^";\s]+)/i
const BOUNDARY_PARAM = /boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i

const HEADER_LIMIT = 256 * 1024

const charsetCache = new Map<string, boolean>()
function isKnownCharset(label: string): boolean {
  const key = label.toLowerCase()
  let known = charsetCache.get(key)
  if (known === undefined) {
    try {
      new TextDecoder(key)
      known = true
    } catch {
      known = /^(x-)?(utf-?8|us-ascii|ascii|7bit|8bit|binary)$/i.test(key)
    }
    if (charsetCache.size < 1000) charsetCache.set(key, known)
  }
  return known
}

function toBytes(raw: Uint8Array | string): Uint8Array {
  return typeof raw === 'string' ? new TextEncoder().encode(raw) : raw
}

function formatAddress(address: Address | undefined): string {
  if (!address) return ''
  if (address.group) return address.group.map((m) => formatAddress(m)).join(', ')
  return address.name ? `${address.name} <${address.address}>` : address.address
}

/** Where the top-level header block ends (after the first empty line, LF or CRLF), searched within `limit` bytes; -1 if not found. */
function headerEnd(buf: Buffer, limit: number): number {
  for (let lf = buf.indexOf(10); lf !== -1 && lf < limit; lf = buf.indexOf(10, lf + 1)) {
    if (buf[lf + 1] === 10) return lf + 1 < limit ? lf + 1 : -1
    if (buf[lf + 1] === 13 && buf[lf + 2] === 10) return lf + 2 < limit ? lf + 2 : -1
  }
  return -1
}

/** Rejects input that is not an RFC 822 message at all, before the MIME parser sees it. */
function checkLooksLikeEmail(buf: Buffer, end: number): string | null {
  if (buf.length === 0) return 'the message is empty'
  const head = buf.toString('latin1', 0, end === -1 ? Math.min(buf.length, HEADER_LIMIT) : end)
  if (head.includes('\u0000')) return 'not an RFC 822 message: binary data in the header'
  const lines = head.split(/\r?\n/)
  if (!HEADER_LINE.test(lines[0] ?? '') && !/^From /.test(lines[0] ?? '')) return 'not an RFC 822 message: it does not start with a header'
  let known = false
  for (const line of lines) {
    const m = HEADER_LINE.exec(line)
    if (m && KNOWN_HEADERS.test(m[1]!)) {
      known = true
      break
    }
  }
  if (!known) return 'not an RFC 822 message: no known header (From, Subject, Date, Content-Type…)'
  if (end === -1 && buf.length >= HEADER_LIMIT) return 'the header block is larger than 256 KB'
  return null
}

/**
 * One pass over the lines: the charsets named in header blocks (the message's and each part's, never
 * the bodies, where `charset=3DUTF-8` is quoted-printable HTML), the number of body lines that
 * are not base64 or quoted-printable, counted up to `stopAt`, and the lines after the first that
 * start with `--` (countBoundaryLines), up to `maxParts`. Part headers are recognised loosely
 * (after a `--` line, up to the blank line). It stops when either count passes its limit.
 */
function scanLines(buf: Buffer, stopAt: number, maxParts: number): { plainLines: number; boundaryLines: number; charsets: Set<string> } {
  const charsets = new Set<string>()
  let plainLines = 0
  let boundaryLines = 0
  let inHeaders = true
  let encoded = false
  let inContentType = false
  let pos = 0
  while (pos < buf.length && plainLines <= stopAt && boundaryLines <= maxParts) {
    let nl = buf.indexOf(10, pos)
    if (nl === -1) nl = buf.length
    const len = nl - pos - (buf[nl - 1] === 13 ? 1 : 0)
    const c = buf[pos]
    if (c === 45 && buf[pos + 1] === 45) {
      if (pos > 0) boundaryLines++
      inHeaders = true
      encoded = false
      inContentType = false
    } else if (inHeaders) {
      if (len <= 0) inHeaders = false
      else if (c === 32 || c === 9 ? inContentType : c === 67 || c === 99) {
        const line = buf.toString('latin1', pos, Math.min(nl, pos + 400))
        if (c !== 32 && c !== 9) {
          inContentType = /^content-type:/i.test(line)
          if (/^content-transfer-encoding:\s*(?:base64|quoted-printable)/i.test(line)) encoded = true
        }
        if (inContentType) {
          const m = CHARSET_PARAM.exec(line)
          if (m && charsets.size < 50) charsets.add(m[1]!)
        }
      } else {
        inContentType = false
      }
    } else if (!encoded) {
      plainLines++
    }
    pos = nl + 1
  }
  return { plainLines, boundaryLines, charsets }
}

/** Counts lines that start with `--` (but the first): an upper bound on the number of MIME parts. */
function countBoundaryLines(buf: Buffer, stopAt: number): number {
  let count = 0
  for (let i = buf.indexOf('\n--'); i !== -1 && count <= stopAt; i = buf.indexOf('\n--', i + 3)) count++
  return count
}

function findWarnings(buf: Buffer, headerEnd: number, charsets: Set<string>): string[] {
  const warnings: string[] = []
  for (const label of charsets) if (!isKnownCharset(label)) warnings.push(`unknown charset "${label.slice(0, 40)}"`)
  const top = /^content-type:[^\n]*(?:\n[ \t][^\n]*)*/im.exec(buf.toString('latin1', 0, headerEnd))
  if (top && /multipart\//i.test(top[0])) {
    const b = BOUNDARY_PARAM.exec(top[0])
    const boundary = b ? (b[1] ?? b[2]) : undefined
    // Searched from the end, where a closing boundary is.
    if (boundary && buf.lastIndexOf(`--${boundary}--`, undefined, 'latin1') === -1) warnings.push('the message looks truncated (its multipart has no closing boundary)')
  }
  return warnings
}

/** Text decoded as Latin-1 because its charset was unknown: recover it when the bytes are UTF-8. */
function recoverUtf8(text: string | undefined): string | undefined {
  if (!text || !/[\u0080-\u00ff]/.test(text) || /[\u0100-\uffff]/.test(text)) return text
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(text, (c) => c.charCodeAt(0)))
  } catch {
    return text
  }
}

/** What the MIME parser reports (postal-mime's Email, or the fast path's subset of it). */
type Parsed = Omit<FastEmail, 'attachments'> & {
  attachments: Array<{ filename: string | null; mimeType: string; content: ArrayBuffer | Uint8Array | string }>
}

/**
 * RFC 822 bytes → normalised email. Never throws: input that cannot be read gives a reason.
 * Common shapes take the synchronous fast path (./mime-fast); the rest goes to postal-mime.
 */
export async function parseEmail(raw: Uint8Array | string, limits: Partial<MimeLimits> = {}): Promise<ParseEmailResult> {
  return parseEmailWith(raw, limits, true)
}

/** parseEmail without the fast path: postal-mime for every message, the reference the fast path is tested against. */
export async function parseEmailWithPostalMime(raw: Uint8Array | string, limits: Partial<MimeLimits> = {}): Promise<ParseEmailResult> {
  return parseEmailWith(raw, limits, false)
}

async function parseEmailWith(raw: Uint8Array | string, limits: Partial<MimeLimits>, fastPath: boolean): Promise<ParseEmailResult> {
  const { maxMessageBytes, maxParts, maxPlainLines } = { ...DEFAULT_MIME_LIMITS, ...limits }
  const bytes = toBytes(raw)
  if (bytes.length > maxMessageBytes) {
    return { ok: false, reason: `the message is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; the limit is ${(maxMessageBytes / 1024 / 1024).toFixed(0)} MB` }
  }
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const end = headerEnd(buf, HEADER_LIMIT)
  const notEmail = checkLooksLikeEmail(buf, end)
  if (notEmail) return { ok: false, reason: notEmail }
  const { plainLines, boundaryLines, charsets } = scanLines(buf, maxPlainLines, maxParts)
  // When the scan stopped at the text-line limit, the part count is finished on its own.
  const parts = plainLines > maxPlainLines ? countBoundaryLines(buf, maxParts) : boundaryLines
  if (parts > maxParts) return { ok: false, reason: `the message has more than ${maxParts} MIME parts` }
  if (plainLines > maxPlainLines) return { ok: false, reason: `the message has more than ${maxPlainLines.toLocaleString('en-US')} lines of text` }
  const warnings = findWarnings(buf, end === -1 ? Math.min(buf.length, HEADER_LIMIT) : end, charsets)

  let parsed: Parsed | null = fastPath ? parseMimeFast(buf) : null
  if (!parsed) {
    try {
      // A view of a whole ArrayBuffer is passed as that buffer: postal-mime copies views, and only reads.
      const input = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? bytes.buffer : bytes
      parsed = await PostalMime.parse(input, { maxNestingDepth: 50, maxHeadersSize: 1024 * 1024, maxRfc822NestingDepth: 3 })
    } catch (error) {
      return { ok: false, reason: `malformed MIME: ${error instanceof Error ? error.message : String(error)}` }
    }
  }

  let { text, html } = parsed
  if (warnings.some((w) => w.startsWith('unknown charset'))) {
    text = recoverUtf8(text)
    html = recoverUtf8(html)
  }
  const attachments: EmailAttachment[] = parsed.attachments.map((a) => {
    const content =
      typeof a.content === 'string' ? new TextEncoder().encode(a.content) : a.content instanceof Uint8Array ? a.content : new Uint8Array(a.content)
    return { filename: a.filename, mimeType: a.mimeType, size: content.byteLength, content }
  })
  return {
    ok: true,
    email: {
      subject: parsed.subject ?? '',
      from: formatAddress(parsed.from),
      to: (parsed.to ?? []).map((a) => formatAddress(a)),
      date: parsed.date ?? null,
      messageId: parsed.messageId ?? null,
      text: text ?? null,
      html: html ?? null,
      attachments,
      warnings,
    },
  }
}
