import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'
import type { AppEnv } from '../context'

/** The caller's IP: from the socket, or the first X-Forwarded-For hop behind a trusted proxy. */
export function getClientIp(c: Context<AppEnv>): string | undefined {
  let connectionIp: string | undefined
  try {
    connectionIp = getConnInfo(c).remote.address
  } catch {
    connectionIp = undefined // in-process requests (tests) have no socket
  }
  const { deps } = c.var
  if (deps.getClientIp) return deps.getClientIp(c.req.raw, connectionIp)
  if (deps.env.TRUST_PROXY) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  return connectionIp
}

export function isLoopback(ip: string | undefined): boolean {
  if (!ip) return false
  return ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.')
}
