import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export type ReceivedWebhook = { headers: IncomingHttpHeaders; body: string; path: string }

/**
 * A webhook receiver for tests: records every request and answers what `respond` says (200 by
 * default). Listens on 127.0.0.1, so the app must allow private targets to reach it.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = []
  let respond: (request: ReceivedWebhook) => { status: number; body?: string; headers?: Record<string, string> } = () => ({ status: 200, body: 'ok' })
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const entry = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), path: request.url ?? '/' }
      received.push(entry)
      const answer = respond(entry)
      response.writeHead(answer.status, answer.headers ?? { 'content-type': 'text/plain' })
      response.end(answer.body ?? '')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    respondWith(next: typeof respond) {
      respond = next
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>

/**
 * Verifies a request the way a receiver would, written from the Standard Webhooks specification
 * (not with the package that signs): HMAC-SHA256 over `id.timestamp.body` with the base64 key after
 * `whsec_`, compared with each `v1,` signature in the header.
 */
export function verifyStandardWebhook(secret: string, { headers, body }: Pick<ReceivedWebhook, 'headers' | 'body'>): boolean {
  const id = headers['webhook-id']
  const timestamp = headers['webhook-timestamp']
  const signatures = headers['webhook-signature']
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false
  if (!secret.startsWith('whsec_')) return false
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest()
  return signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',')
    if (version !== 'v1' || !value) return false
    const given = Buffer.from(value, 'base64')
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
}
