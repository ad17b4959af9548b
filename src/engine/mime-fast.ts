import { addressParser, decodeWords } from 'postal-mime'
import type { Address } from 'postal-mime'

/**
 * A synchronous MIME parser for the shapes nearly every notification email has
 * (docs/decisions/011): one part, or a few levels of multipart, with 7bit, 8bit,
 * quoted-printable or base64 parts in UTF-8 or Windows-1252 (Latin-1, ASCII).
 *
 * It follows postal-mime 4's line rules (boundaries, header folding, decoders, how text parts are
 * joined) and gives the same result; anything it does not cover it declines with null, and
 * the caller parses with postal-mime. postal-mime awaits once per line, zero-fills a 100 KB
 * buffer per quoted-printable part and round-trips every part through a Blob, which made it half
 * of the engine's time; this reads the message in place, decodes into one reused buffer, and uses
 * postal-mime's own address and encoded-word decoders for the headers.
 */
export type FastEmail = {
  subject?: string
  from?: Address
  to?: Address[]
  date?: string
  messageId?: string
  text?: string
  html?: string
  attachments: FastAttachment[]
}

export type FastAttachment = { filename: string | null; mimeType: string; content: Uint8Array }

/** A structured header (Content-Type, Content-Disposition) with the parameters the engine reads. */
type Structured = { value: string; params: Map<string, string> }

type Encoding = 'plain' | 'quoted-printable' | 'base64'

type Part = {
  parent: Part | null
  depth: number
  state: 'header' | 'body' | 'finished'
  /** Byte range of the header lines. */
  headerStart: number
  headerEnd: number
  /** Byte range of the body lines (contiguous for a leaf; a multipart's body is never read). */
  bodyStart: number
  bodyEnd: number
  children: Part[]
  finalizedChildren: number
  contentType: Structured
  multipart: string | null
  disposition: string
  filename: string
  encoding: Encoding
  /** The message's own headers, in order (root only). */
  headers: Array<[key: string, value: string]> | null
}

type Boundary = { value: Uint8Array; part: Part }

/** Too deep for "a few levels": postal-mime decides. */
const MAX_DEPTH = 8
/** parseEmail's maxHeadersSize for postal-mime: over it, postal-mime fails the message. */
const MAX_HEADER_BYTES = 1024 * 1024

const utf8 = new TextDecoder('utf-8')
const windows1252 = new TextDecoder('windows-1252')
/** postal-mime decodes header lines keeping a leading BOM as a character. */
const headerDecoder = new TextDecoder('utf-8', { ignoreBOM: true })

/** The WHATWG labels of UTF-8 and Windows-1252 (which Latin-1 and ASCII labels mean), as postal-mime resolves them. */
const CHARSETS = new Map<string, TextDecoder>([
  ...['unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'utf-8', 'utf8', 'x-unicode20utf8'].map((l) => [l, utf8] as const),
  ...[
    'ansi_x3.4-1968', 'ascii', 'cp1252', 'cp819', 'csisolatin1', 'ibm819', 'iso-8859-1', 'iso-ir-100', 'iso8859-1', 'iso88591',
    'iso_8859-1', 'iso_8859-1:1987', 'l1', 'latin1', 'us-ascii', 'windows-1252', 'x-cp1252',
  ].map((l) => [l, windows1252] as const),
])

const TRANSFER_ENCODINGS = new Map<string, Encoding>([
  ['', 'plain'],
  ['7bit', 'plain'],
  ['8bit', 'plain'],
  ['binary', 'plain'],
  ['quoted-printable', 'quoted-printable'],
  ['base64', 'base64'],
])

/** Thrown to leave a message to postal-mime. */
class Decline extends Error {}

function decline(): never {
  throw new Decline()
}

function isWsp(c: number): boolean {
  return c === 32 || c === 9
}

/** Trims spaces and tabs only, as postal-mime does around names and values. */
function trimWsp(s: string): string {
  let start = 0
  let end = s.length
  while (start < end && isWsp(s.charCodeAt(start))) start++
  while (end > start && isWsp(s.charCodeAt(end - 1))) end--
  return start === 0 && end === s.length ? s : s.slice(start, end)
}

/**
 * `type/subtype; name=value; name="quoted value"`, as postal-mime reads it. Comments,
 * backslashes, RFC 2231 continuations and junk around quoted values decline.
 */
function parseStructured(str: string): Structured {
  if (str.includes('(') || str.includes('\\')) decline()
  const n = str.length
  const params = new Map<string, string>()
  const store = (name: string, value: string) => {
    if (name.includes('*') || name === '__proto__') decline()
    if (!params.has(name)) params.set(name, value)
  }
  const semi = str.indexOf(';')
  const head = semi < 0 ? str : str.slice(0, semi)
  if (head.includes('"')) decline()
  let pos = semi < 0 ? n : semi + 1
  while (pos < n) {
    const eq = str.indexOf('=', pos)
    const sc = str.indexOf(';', pos)
    if (eq < 0 || (sc >= 0 && sc < eq)) {
      // A name without a value.
      const end = sc < 0 ? n : sc
      const name = str.slice(pos, end).trim()
      if (name) store(name.toLowerCase(), '')
      pos = end + 1
      continue
    }
    const name = str.slice(pos, eq).trim().toLowerCase()
    let i = eq + 1
    while (i < n && isWsp(str.charCodeAt(i))) i++
    if (str.charCodeAt(i) === 34) {
      const close = str.indexOf('"', i + 1)
      if (close < 0) decline()
      let j = close + 1
      while (j < n && isWsp(str.charCodeAt(j))) j++
      if (j < n && str.charCodeAt(j) !== 59) decline()
      store(name, str.slice(i + 1, close))
      pos = j + 1
    } else {
      const end = sc < 0 ? n : sc
      const raw = str.slice(i, end)
      if (raw.includes('"')) decline()
      store(name, trimWsp(raw))
      pos = end + 1
    }
  }
  return { value: trimWsp(head).toLowerCase(), params }
}

/** A reused buffer that bodies are decoded into before they become text. */
let scratch = new Uint8Array(256 * 1024)
const SCRATCH_KEEP = 4 * 1024 * 1024

function scratchOf(size: number): Uint8Array {
  if (size <= scratch.length) return scratch
  const grown = new Uint8Array(Math.max(size, scratch.length * 2))
  if (grown.length <= SCRATCH_KEEP) scratch = grown
  return grown
}

/** The end of a line's content: a line is the bytes up to LF, less the CRs that end it. */
function contentEnd(buf: Uint8Array, start: number, nl: number): number {
  let end = nl
  while (end > start && buf[end - 1] === 13) end--
  return end
}

function lineEnd(buf: Uint8Array, from: number): number {
  const nl = buf.indexOf(10, from)
  return nl === -1 ? buf.length : nl
}

/** Whether only CRs stand between i and the end of its line (the LF, or the end of the body). */
function endsLine(buf: Uint8Array, i: number, end: number): boolean {
  while (i < end && buf[i] === 13) i++
  return i === end || buf[i] === 10
}

/**
 * Body lines each followed by LF (postal-mime's pass-through decoder): the CRs that end a line
 * are dropped, and a last line without LF gets one.
 */
function decodePlain(buf: Uint8Array, start: number, end: number, out: Uint8Array): number {
  let o = 0
  for (let i = start; i < end; i++) {
    const c = buf[i]!
    if (c !== 13 || !endsLine(buf, i, end)) out[o++] = c
  }
  if (buf[end - 1] !== 10) out[o++] = 10
  return o
}

const HEX = new Int8Array(256).fill(-1)
for (let i = 0; i < 10; i++) HEX[48 + i] = i
for (let i = 0; i < 6; i++) HEX[65 + i] = HEX[97 + i] = 10 + i
/** Bytes quoted-printable decoding stops at: `=`, LF, CR. */
const QP_SPECIAL = new Uint8Array(256)
QP_SPECIAL[61] = QP_SPECIAL[10] = QP_SPECIAL[13] = 1

/**
 * Quoted-printable as postal-mime's decoder reads it, line by line: `=XX` within a line is a byte,
 * a line ending in `=` is a soft break (no LF), anything else is kept as it is.
 */
function decodeQuotedPrintable(buf: Uint8Array, start: number, end: number, out: Uint8Array): number {
  let o = 0
  let softBreak = false
  let i = start
  while (i < end) {
    // Runs of literal bytes, the bulk of the body, in a tight loop.
    let c = buf[i]!
    while (QP_SPECIAL[c] === 0) {
      out[o++] = c
      if (++i === end) break
      c = buf[i]!
    }
    if (i === end) break
    if (c === 61) {
      const high = i + 2 < end ? HEX[buf[i + 1]!]! : -1
      const low = high < 0 ? -1 : HEX[buf[i + 2]!]!
      if (low >= 0) {
        out[o++] = (high << 4) | low
        i += 3
        continue
      }
      if (endsLine(buf, i + 1, end)) softBreak = true
      else out[o++] = c
    } else if (c === 10) {
      if (!softBreak) out[o++] = 10
      softBreak = false
    } else if (!endsLine(buf, i, end)) {
      out[o++] = c
    }
    i++
  }
  if (buf[end - 1] !== 10 && !softBreak) out[o++] = 10
  return o
}

const BASE64 = new Int8Array(256).fill(-1)
for (let i = 0; i < 64; i++) BASE64['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i

/**
 * Base64 as postal-mime decodes it: characters outside the alphabet are dropped, and every run of
 * `=` ends a unit whose last partial group gives what bytes it can (one stray character, none).
 */
function decodeBase64(buf: Uint8Array, start: number, end: number, out: Uint8Array): number {
  let o = 0
  let acc = 0
  let have = 0
  for (let i = start; i < end; i++) {
    const c = buf[i]!
    const v = BASE64[c]!
    if (v >= 0) {
      acc = (acc << 6) | v
      if (++have === 4) {
        out[o++] = (acc >> 16) & 255
        out[o++] = (acc >> 8) & 255
        out[o++] = acc & 255
        acc = 0
        have = 0
      }
    } else if (c === 61 && have > 0) {
      o = flushGroup(acc, have, out, o)
      acc = 0
      have = 0
    }
  }
  return have > 0 ? flushGroup(acc, have, out, o) : o
}

function flushGroup(acc: number, have: number, out: Uint8Array, o: number): number {
  if (have === 2) out[o++] = (acc >> 4) & 255
  else if (have === 3) {
    out[o++] = (acc >> 10) & 255
    out[o++] = (acc >> 2) & 255
  }
  return o
}

/** Decodes a leaf's body into the scratch buffer (or a larger one-off); returns the buffer and length. */
function decodeBody(buf: Uint8Array, part: Part): [Uint8Array, number] {
  if (part.bodyStart < 0) return [scratch, 0]
  const out = scratchOf(part.bodyEnd - part.bodyStart + 1)
  const decode = part.encoding === 'quoted-printable' ? decodeQuotedPrintable : part.encoding === 'base64' ? decodeBase64 : decodePlain
  return [out, decode(buf, part.bodyStart, part.bodyEnd, out)]
}

class Parser {
  readonly root: Part
  private current: Part
  private readonly boundaries: Boundary[] = []
  private headerBytes = 0

  constructor(private readonly buf: Uint8Array) {
    this.root = this.current = newPart(null, 0)
  }

  run() {
    const buf = this.buf
    const n = buf.length
    for (let pos = 0; pos < n; ) {
      const nl = lineEnd(buf, pos)
      const end = contentEnd(buf, pos, nl)
      const next = nl + 1
      if (!this.boundary(pos, end)) this.feed(this.current, pos, end, Math.min(next, n))
      pos = next
    }
    this.finalize(this.root)
  }

  /** A boundary line of an open multipart: the innermost that matches wins. */
  private boundary(start: number, end: number): boolean {
    const buf = this.buf
    const len = end - start
    if (this.boundaries.length === 0 || len <= 2 || buf[start] !== 45 || buf[start + 1] !== 45) return false
    for (let i = this.boundaries.length - 1; i >= 0; i--) {
      const { value, part } = this.boundaries[i]!
      const bl = value.length
      if (len < bl + 2) continue
      let matches = true
      for (let j = 0; j < bl; j++) {
        if (buf[start + 2 + j] !== value[j]) {
          matches = false
          break
        }
      }
      if (!matches) continue
      const terminator = len >= bl + 4 && buf[start + bl + 2] === 45 && buf[start + bl + 3] === 45
      let trailing = true
      for (let j = start + bl + (terminator ? 4 : 2); j < end; j++) {
        if (!isWsp(buf[j]!)) {
          trailing = false
          break
        }
      }
      if (!trailing) continue
      if (terminator) {
        this.finalize(part)
        this.current = part.parent ?? this.root
      } else {
        this.finalizeChildren(part)
        // A digest's parts default to message/rfc822.
        if (part.depth + 1 > MAX_DEPTH || part.multipart === 'digest') decline()
        const child = newPart(part, part.depth + 1)
        part.children.push(child)
        this.current = child
      }
      return true
    }
    return false
  }

  private feed(part: Part, start: number, end: number, next: number) {
    if (part.state === 'header') {
      if (end === start) {
        part.state = 'body'
        this.processHeaders(part)
        return
      }
      this.headerBytes += end - start
      if (this.headerBytes > MAX_HEADER_BYTES) decline()
      if (part.headerStart < 0) part.headerStart = start
      part.headerEnd = next
    } else if (part.state === 'body') {
      if (part.bodyStart < 0) part.bodyStart = start
      part.bodyEnd = next
    }
  }

  private finalize(part: Part) {
    if (part.state === 'finished') return
    if (part.state === 'header') this.processHeaders(part)
    for (let i = this.boundaries.length - 1; i >= 0; i--) {
      if (this.boundaries[i]!.part === part) {
        this.boundaries.splice(i, 1)
        break
      }
    }
    this.finalizeChildren(part)
    part.state = 'finished'
  }

  private finalizeChildren(part: Part) {
    while (part.finalizedChildren < part.children.length) this.finalize(part.children[part.finalizedChildren++]!)
  }

  private processHeaders(part: Part) {
    let contentType: string | null = null
    let transferEncoding: string | null = null
    let disposition: string | null = null
    if (part.headerStart >= 0) {
      const lines = headerDecoder.decode(this.buf.subarray(part.headerStart, part.headerEnd)).split('\n')
      if (lines[lines.length - 1] === '') lines.pop()
      const headers: Array<[string, string]> | null = part.parent ? null : []
      for (let i = 0; i < lines.length; ) {
        let line = stripCr(lines[i++]!)
        // Folded lines (SP or HTAB first) join the header above, their whitespace kept.
        while (i < lines.length && isWsp(lines[i]!.charCodeAt(0))) line += stripCr(lines[i++]!)
        const sep = line.indexOf(':')
        const key = trimWsp(sep < 0 ? line : line.slice(0, sep)).toLowerCase()
        const value = sep < 0 ? '' : trimWsp(line.includes('\r') ? line.slice(sep + 1).replace(/[\r\n]+/g, ' ') : line.slice(sep + 1))
        headers?.push([key, value])
        if (key === 'content-type') contentType ??= value
        else if (key === 'content-transfer-encoding') transferEncoding ??= value
        else if (key === 'content-disposition') disposition ??= value
      }
      part.headers = headers
    } else if (!part.parent) {
      part.headers = []
    }
    if (contentType !== null) part.contentType = parseStructured(contentType)
    const type = part.contentType.value
    if (type.startsWith('message/')) decline()
    part.multipart = type.startsWith('multipart/') ? type.slice(type.indexOf('/') + 1) : null
    const boundary = part.multipart ? part.contentType.params.get('boundary') : undefined
    if (boundary) {
      const value = new Uint8Array(boundary.length)
      for (let i = 0; i < boundary.length; i++) {
        const c = boundary.charCodeAt(i)
        if (c > 127) decline()
        value[i] = c
      }
      this.boundaries.push({ value, part })
    }
    if (disposition !== null) {
      const parsed = parseStructured(disposition)
      part.disposition = parsed.value
      part.filename = parsed.params.get('filename') ?? ''
    }
    if (transferEncoding !== null) {
      if (transferEncoding.includes('(')) decline()
      const token = /[\w-]+/.exec(transferEncoding.toLowerCase())?.[0] ?? ''
      part.encoding = TRANSFER_ENCODINGS.get(token) ?? decline()
    }
  }
}

function stripCr(line: string): string {
  let end = line.length
  while (end > 0 && line.charCodeAt(end - 1) === 13) end--
  return end === line.length ? line : line.slice(0, end)
}

function newPart(parent: Part | null, depth: number): Part {
  return {
    parent,
    depth,
    state: 'header',
    headerStart: -1,
    headerEnd: -1,
    bodyStart: -1,
    bodyEnd: -1,
    children: [],
    finalizedChildren: 0,
    contentType: { value: 'text/plain', params: new Map() },
    multipart: null,
    disposition: '',
    filename: '',
    encoding: 'plain',
    headers: null,
  }
}

type TextEntry = { plain: string[] | null; html: string[] | null }

const encoder = new TextEncoder()

/** A calendar invitation as postal-mime keeps it: its text in UTF-8, line ends as `\n`, ending in exactly one. */
function calendarText(bytes: Uint8Array, part: Part): Uint8Array {
  const decoder = CHARSETS.get((part.contentType.params.get('charset') || 'utf8').trim().toLowerCase()) ?? decline()
  const text = decoder.decode(bytes).replace(/\r?\n/g, '\n')
  let end = text.length
  while (end > 0 && text.charCodeAt(end - 1) === 0x0a) end--
  return encoder.encode(`${text.slice(0, end)}\n`)
}

/** Sorts the leaves into text and attachments as postal-mime does; text that it would convert between HTML and plain declines. */
function collect(buf: Uint8Array, root: Part): { text?: string; html?: string; attachments: FastAttachment[] } {
  const entries = new Map<Part, TextEntry>()
  const types: Array<'plain' | 'html'> = []
  const attachments: FastAttachment[] = []
  const visit = (part: Part, alternative: Part | null) => {
    if (!part.multipart) {
      const type = part.contentType.value
      if (part.disposition !== 'attachment' && (type === 'text/html' || type === 'text/plain')) {
        const kind = type === 'text/html' ? 'html' : 'plain'
        const params = part.contentType.params
        const decoder = CHARSETS.get((params.get('charset') || 'utf8').trim().toLowerCase()) ?? decline()
        if (/^flowed$/i.test(params.get('format') ?? '')) decline()
        const [bytes, length] = decodeBody(buf, part)
        const text = decoder.decode(bytes.subarray(0, length))
        const selector = alternative ?? part
        let entry = entries.get(selector)
        if (!entry) entries.set(selector, (entry = { plain: null, html: null }))
        ;(entry[kind] ??= []).push(text)
        if (!types.includes(kind)) types.push(kind)
      } else {
        const [bytes, length] = decodeBody(buf, part)
        const filename = part.filename || part.contentType.params.get('name') || null
        attachments.push({ filename: filename ? decodeWords(filename) : null, mimeType: type, content: type === 'text/calendar' || type === 'application/ics' ? calendarText(bytes.subarray(0, length), part) : bytes.slice(0, length) })
      }
    } else if (part.multipart === 'alternative') {
      alternative = part
    }
    for (const child of part.children) visit(child, alternative)
  }
  visit(root, null)
  const output: { plain: string[]; html: string[] } = { plain: [], html: [] }
  for (const entry of entries.values()) {
    for (const kind of types) {
      const own = entry[kind]
      if (!own) decline()
      for (const text of own) output[kind].push(text)
    }
  }
  const body: { text?: string; html?: string; attachments: FastAttachment[] } = { attachments }
  const text = output.plain.join('\n')
  const html = output.html.join('\n')
  if (text) body.text = text
  if (html) body.html = html
  return body
}

/** RFC 822 bytes → what postal-mime would report for them, or null when the message is not a shape this parser covers. */
export function parseMimeFast(buf: Uint8Array): FastEmail | null {
  try {
    const parser = new Parser(buf)
    parser.run()
    const headers = parser.root.headers ?? []
    const first = (key: string) => headers.find((h) => h[0] === key)?.[1]
    const email: FastEmail = { attachments: [] }
    const from = first('from')
    if (from) {
      const addresses = addressParser(from)
      if (addresses.length) email.from = addresses[0]
    }
    const to: Address[] = []
    for (const [key, value] of headers) {
      if (key === 'to' && value) for (const address of addressParser(value)) to.push(address)
    }
    if (to.length) email.to = to
    const subject = first('subject')
    if (subject) email.subject = decodeWords(subject)
    const messageId = first('message-id')
    if (messageId) email.messageId = decodeWords(messageId)
    const date = first('date')
    if (date !== undefined) {
      const parsed = new Date(date)
      email.date = Number.isNaN(parsed.getTime()) ? date : parsed.toISOString()
    }
    const body = collect(buf, parser.root)
    if (body.text !== undefined) email.text = body.text
    if (body.html !== undefined) email.html = body.html
    email.attachments = body.attachments
    return email
  } catch {
    // A shape it declines, or anything unexpected (a bug, a stack overflow on absurd input):
    // postal-mime's result, or its reason, is the reference. The tests check the shapes it must read.
    return null
  }
}
