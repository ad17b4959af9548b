import { BlockList, isIP } from 'node:net'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'
import type { AppEnv } from '../context'
import type { TrustProxy } from '../env'

/**
 * The caller's IP. Every proxy appends the address it received the request from to
 * X-Forwarded-For, so only the entries our own proxies added can be believed: walking from the
 * socket leftwards past the trusted proxies, the first address not added by one of them is the
 * client. Anything further left was written by the client and is ignored.
 */
export function getClientIp(c: Context<AppEnv>): string | undefined {
  const connectionIp = getConnectionIp(c)
  const { deps } = c.var
  if (deps.getClientIp) return deps.getClientIp(c.req.raw, connectionIp)
  return resolveClientIp({ connectionIp, forwardedFor: c.req.header('x-forwarded-for'), trustProxy: deps.env.TRUST_PROXY })
}

function getConnectionIp(c: Context<AppEnv>): string | undefined {
  try {
    return getConnInfo(c).remote.address
  } catch {
    return undefined // in-process requests (tests) have no socket
  }
}

export function resolveClientIp({
  connectionIp,
  forwardedFor,
  trustProxy,
}: {
  connectionIp: string | undefined
  forwardedFor: string | undefined
  trustProxy: TrustProxy
}): string | undefined {
  const socket = connectionIp ? normaliseIp(connectionIp) : undefined
  if (trustProxy.hops === 0 && trustProxy.addresses.length === 0) return socket
  // Nearest hop last: [client-written…, proxy-written…, socket].
  const chain = [
    ...(forwardedFor ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    ...(socket ? [socket] : []),
  ]
  if (trustProxy.hops > 0) {
    // The socket and the entries added by all but the outermost trusted proxy are proxies.
    const index = chain.length - 1 - trustProxy.hops
    const candidate = chain[Math.max(index, 0)]
    return validIp(candidate) ?? socket
  }
  const trusted = trustedAddresses(trustProxy.addresses)
  for (let i = chain.length - 1; i >= 0; i--) {
    const ip = validIp(chain[i])
    // A malformed entry can't be a proxy of ours: everything from here leftwards is the client's.
    if (!ip) return socket
    if (!isTrusted(trusted, ip) || i === 0) return ip
  }
  return socket
}

/** Whether the caller is on this machine: the resolved client address is a loopback one. */
export function isLoopback(ip: string | undefined): boolean {
  if (!ip) return false
  const normalised = normaliseIp(ip)
  return normalised === '::1' || normalised.startsWith('127.')
}

function normaliseIp(ip: string): string {
  const trimmed = ip.trim().replace(/^\[|\]$/g, '')
  return trimmed.toLowerCase().startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed
}

function validIp(entry: string | undefined): string | undefined {
  if (!entry) return undefined
  const ip = normaliseIp(entry)
  return isIP(ip) ? ip : undefined
}

const blockLists = new Map<string, BlockList>()
function trustedAddresses(addresses: string[]): BlockList {
  const key = addresses.join(',')
  let list = blockLists.get(key)
  if (!list) {
    list = new BlockList()
    for (const entry of addresses) {
      const [address, prefix] = entry.split('/') as [string, string | undefined]
      const type = isIP(address) === 6 ? 'ipv6' : 'ipv4'
      if (prefix === undefined) list.addAddress(address, type)
      else list.addSubnet(address, Number(prefix), type)
    }
    blockLists.set(key, list)
  }
  return list
}

function isTrusted(list: BlockList, ip: string): boolean {
  return list.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4')
}
