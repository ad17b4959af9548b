import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { BlockList, isIP, type LookupFunction } from 'node:net'

/**
 * Addresses a webhook may not reach unless the operator allows it (WEBHOOKS_ALLOW_PRIVATE): a URL
 * a user types must not become a way into the server's own network (cloud metadata at
 * 169.254.169.254, a database on 10.x, the app itself on 127.0.0.1).
 */
const blocked = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['64:ff9b::', 96], // NAT64 of an IPv4 address
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6')
}

/** True for private, loopback, link-local and other non-public addresses (IPv4, IPv6, IPv4-mapped IPv6). */
export function isPrivateAddress(address: string): boolean {
  const version = isIP(address)
  if (version === 4) return blocked.check(address, 'ipv4')
  if (version !== 6) return true
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return blocked.check(mapped[1]!, 'ipv4')
  // ::ffff:7f00:1 is 127.0.0.1 too.
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address)
  if (hexMapped) {
    const high = parseInt(hexMapped[1]!, 16)
    const low = parseInt(hexMapped[2]!, 16)
    return blocked.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4')
  }
  return blocked.check(address, 'ipv6')
}

export const PRIVATE_TARGET_MESSAGE =
  'This URL points to a private, loopback or link-local address. Webhooks can only be sent to public addresses.'

export class TargetRefusedError extends Error {
  constructor(message = PRIVATE_TARGET_MESSAGE) {
    super(message)
    this.name = 'TargetRefusedError'
  }
}

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL) {
  return url.hostname.replace(/^\[|\]$/g, '')
}

/**
 * Checks a URL's host as it resolves now (every address it resolves to must be public). Used when
 * an endpoint is saved; the send checks again at connect time, since DNS can change in between.
 */
export async function checkTarget(rawUrl: string, { allowPrivate }: { allowPrivate: boolean }): Promise<void> {
  if (allowPrivate) return
  const host = hostOf(new URL(rawUrl))
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw new TargetRefusedError()
    return
  }
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
  ).catch(() => {
    throw new TargetRefusedError(`The host ${host} could not be found.`)
  })
  if (addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address))) throw new TargetRefusedError()
}

/**
 * A DNS lookup for the HTTP client that refuses private answers: the address checked is the one
 * connected to, so a name that resolves to a public address when saved and to 127.0.0.1 later
 * (DNS rebinding) is still refused.
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 4)
    const list = addresses as LookupAddress[]
    if (list.length === 0 || list.some((a) => isPrivateAddress(a.address))) return callback(new TargetRefusedError(), '', 4)
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list)
    callback(null, list[0]!.address, list[0]!.family)
  })
}

export type PostResult = { statusCode: number | null; body: string; error: string | null; durationMs: number }

/** How much of a receiver's answer is read; the rest is dropped unread. */
const MAX_READ_BYTES = 64 * 1024

/**
 * POSTs a webhook. Redirects are not followed (a 3xx is a failed attempt: a redirect could point
 * anywhere, a private address included); the whole exchange is bounded by `timeoutMs`.
 */
export function postWebhook(
  rawUrl: string,
  { headers, body, timeoutMs, allowPrivate }: { headers: Record<string, string>; body: string; timeoutMs: number; allowPrivate: boolean },
): Promise<PostResult> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  return new Promise((resolve) => {
    let settled = false
    const finish = (result: Omit<PostResult, 'durationMs'>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ ...result, durationMs: elapsed() })
    }
    let url: URL
    try {
      url = new URL(rawUrl)
    } catch {
      return finish({ statusCode: null, body: '', error: 'The URL is not valid.' })
    }
    const host = hostOf(url)
    if (!allowPrivate && isIP(host) && isPrivateAddress(host)) return finish({ statusCode: null, body: '', error: PRIVATE_TARGET_MESSAGE })
    const client = url.protocol === 'https:' ? https : http
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body).toString(), 'user-agent': 'Mailrow-Webhooks/1' },
        lookup: allowPrivate ? undefined : guardedLookup,
        // A kept-alive socket would skip the lookup (and its check) on the next request.
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          if (size >= MAX_READ_BYTES) return
          chunks.push(chunk)
          size += chunk.length
          if (size >= MAX_READ_BYTES) response.destroy()
        })
        const done = () => {
          const status = response.statusCode ?? null
          const text = Buffer.concat(chunks).subarray(0, MAX_READ_BYTES).toString('utf8')
          const redirect = status !== null && status >= 300 && status < 400
          finish({
            statusCode: status,
            body: text,
            error: redirect ? `Redirects are not followed (HTTP ${status}${response.headers.location ? ` to ${response.headers.location}` : ''}).` : null,
          })
        }
        response.on('end', done)
        response.on('close', done)
        response.on('error', done)
      },
    )
    const timer = setTimeout(() => {
      request.destroy()
      finish({ statusCode: null, body: '', error: `No answer within ${timeoutMs / 1000} s.` })
    }, timeoutMs)
    request.on('error', (error) => {
      finish({ statusCode: null, body: '', error: error instanceof TargetRefusedError ? error.message : `Could not connect: ${error.message}` })
    })
    request.end(body)
  })
}
