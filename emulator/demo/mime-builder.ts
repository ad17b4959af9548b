import { createHash } from 'node:crypto'

export type MailAddress = { name?: string; address: string }

export type OutgoingAttachment = { filename: string; contentType: string; content: Buffer }

/** A message to serialise as RFC 822, the form every mail source ends up in. */
export type OutgoingMessage = {
  from: MailAddress
  to: MailAddress
  subject: string
  date: Date
  messageId: string
  text: string
  html?: string
  attachments?: OutgoingAttachment[]
  headers?: Record<string, string>
}

function needsEncoding(text: string): boolean {
  return /[^\x20-\x7e]/.test(text)
}

function encodeWord(text: string): string {
  return needsEncoding(text) ? `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=` : text
}

export function formatAddress(address: MailAddress): string {
  if (!address.name) return address.address
  const name = needsEncoding(address.name) ? encodeWord(address.name) : `"${address.name.replace(/(["\\])/g, '\\$1')}"`
  return `${name} <${address.address}>`
}

/** RFC 5322 date, e.g. "Tue, 05 Nov 2024 17:15:22 +0000". */
export function formatRfc2822Date(date: Date): string {
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${days[date.getUTCDay()]}, ${pad(date.getUTCDate())} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()} ${pad(
    date.getUTCHours(),
  )}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`
}

export function encodeQuotedPrintable(text: string): string {
  const lines = text.replace(/\r?\n/g, '\n').split('\n')
  return lines
    .map((line) => {
      let encoded = ''
      for (const byte of Buffer.from(line, 'utf8')) {
        const isPlain = (byte >= 33 && byte <= 126 && byte !== 61) || byte === 32 || byte === 9
        encoded += isPlain ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`
      }
      encoded = encoded.replace(/[ \t]$/, (char) => `=${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
      const out: string[] = []
      while (encoded.length > 76) {
        let cut = 75
        const escape = encoded.lastIndexOf('=', cut)
        if (escape > cut - 3) cut = escape
        out.push(`${encoded.slice(0, cut)}=`)
        encoded = encoded.slice(cut)
      }
      out.push(encoded)
      return out.join('\r\n')
    })
    .join('\r\n')
}

function base64Lines(content: Buffer): string {
  return (content.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n')
}

/** Deterministic per message and nesting level, so the demo mailbox is byte-for-byte reproducible. */
function boundaryFor(messageId: string, level: string): string {
  return `000000000000${createHash('sha256').update(`${messageId}:${level}`).digest('hex').slice(0, 24)}`
}

export function buildRfc822(message: OutgoingMessage): Buffer {
  const headers = [
    `From: ${formatAddress(message.from)}`,
    `To: ${formatAddress(message.to)}`,
    `Subject: ${encodeWord(message.subject)}`,
    `Date: ${formatRfc2822Date(message.date)}`,
    `Message-ID: <${message.messageId}>`,
    ...Object.entries(message.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    'MIME-Version: 1.0',
  ]
  const textPart = [
    'Content-Type: text/plain; charset="UTF-8"',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    encodeQuotedPrintable(message.text),
  ].join('\r\n')
  let body: { contentType: string; content: string }
  if (message.html) {
    const boundary = boundaryFor(message.messageId, 'alt')
    const htmlPart = [
      'Content-Type: text/html; charset="UTF-8"',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      encodeQuotedPrintable(message.html),
    ].join('\r\n')
    body = {
      contentType: `multipart/alternative; boundary="${boundary}"`,
      content: `--${boundary}\r\n${textPart}\r\n--${boundary}\r\n${htmlPart}\r\n--${boundary}--\r\n`,
    }
  } else {
    body = { contentType: 'text/plain; charset="UTF-8"', content: '' }
  }
  if (message.attachments?.length) {
    const boundary = boundaryFor(message.messageId, 'mixed')
    const inner = message.html ? `Content-Type: ${body.contentType}\r\n\r\n${body.content}` : textPart
    const attachments = message.attachments.map((attachment) =>
      [
        `Content-Type: ${attachment.contentType}; name="${attachment.filename}"`,
        `Content-Disposition: attachment; filename="${attachment.filename}"`,
        'Content-Transfer-Encoding: base64',
        '',
        base64Lines(attachment.content),
      ].join('\r\n'),
    )
    const content = [inner, ...attachments].map((part) => `--${boundary}\r\n${part}\r\n`).join('') + `--${boundary}--\r\n`
    return Buffer.from(`${headers.join('\r\n')}\r\nContent-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n${content}`, 'utf8')
  }
  if (!message.html) {
    return Buffer.from(`${headers.join('\r\n')}\r\n${textPart}\r\n`, 'utf8')
  }
  return Buffer.from(`${headers.join('\r\n')}\r\nContent-Type: ${body.contentType}\r\n\r\n${body.content}`, 'utf8')
}
