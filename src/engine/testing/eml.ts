/** Builds a small RFC 822 message for tests: HTML, text or both (multipart/alternative). */
export function eml(options: { subject?: string; html?: string; text?: string; headers?: string[]; attachments?: Array<{ filename: string; mimeType: string; content: Uint8Array }> }): string {
  const { subject = 'Test', html, text } = options
  const head = ['From: Sender <sender@example.com>', 'To: you@example.com', `Subject: ${subject}`, 'Date: Mon, 5 Feb 2024 10:00:00 +0000', 'Message-ID: <test@example.com>', 'MIME-Version: 1.0', ...(options.headers ?? [])]
  const part = (type: string, body: string) => `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${body}\r\n`
  const bodies: string[] = []
  if (text !== undefined) bodies.push(part('text/plain', text))
  if (html !== undefined) bodies.push(part('text/html', html))
  const attachments = options.attachments ?? []
  if (bodies.length === 1 && attachments.length === 0) return `${head.join('\r\n')}\r\n${bodies[0]}`
  const alt = bodies.map((b) => `--alt\r\n${b}`).join('') + '--alt--\r\n'
  if (attachments.length === 0) return `${head.join('\r\n')}\r\nContent-Type: multipart/alternative; boundary="alt"\r\n\r\n${alt}`
  const files = attachments
    .map(
      (a) =>
        `--mixed\r\nContent-Type: ${a.mimeType}; name="${a.filename}"\r\nContent-Disposition: attachment; filename="${a.filename}"\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.from(a.content).toString('base64').replace(/.{76}/g, '$&\r\n')}\r\n`,
    )
    .join('')
  return `${head.join('\r\n')}\r\nContent-Type: multipart/mixed; boundary="mixed"\r\n\r\n--mixed\r\nContent-Type: multipart/alternative; boundary="alt"\r\n\r\n${alt}${files}--mixed--\r\n`
}
