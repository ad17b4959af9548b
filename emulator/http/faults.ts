import type { Context, MiddlewareHandler } from 'hono'
import { mulberry32 } from '../prng'
import type { EmulatorEnv } from './context'
import { defaultErrorMessage, googleBadGatewayHtml, googleErrorBody } from './google-error'

/**
 * error: answer `status` without touching state. latency: only delay. drop: cut the connection
 * before processing. drop-after-write: process (the write lands), then cut the connection.
 * error-after-write: process, then answer `status` (default 500): the caller cannot tell it worked.
 */
export type FaultMode = 'error' | 'latency' | 'drop' | 'drop-after-write' | 'error-after-write'

export type FaultSpec = {
  /** Glob over the decoded path: `*` stays within one segment, `**` crosses segments. */
  pathPattern: string
  method?: string
  status?: number
  /** Share of matching requests that fail, 0..1 (default 1), drawn from a seeded generator. */
  rate?: number
  latencyMs?: number
  mode?: FaultMode
  /** Fire this many times, then retire. */
  count?: number
  /** The same as `count` (the name tests read best with: `{ nth: 2, times: 1 }`). */
  times?: number
  /** Let the first nth − 1 matching requests through: the nth is the first that may fire (1-based). */
  nth?: number
  body?: unknown
  headers?: Record<string, string>
  seed?: number
}

export type Fault = Required<Pick<FaultSpec, 'pathPattern' | 'rate' | 'latencyMs' | 'mode'>> &
  Omit<FaultSpec, 'pathPattern' | 'rate' | 'latencyMs' | 'mode'> & {
    id: string
    matched: number
    fired: number
  }

type ActiveFault = Fault & { regex: RegExp; random: () => number }

export function globToRegExp(pattern: string): RegExp {
  let source = ''
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index]!
    if (char === '*') {
      if (pattern[index + 1] === '*') {
        source += '.*'
        index += 1
      } else source += '[^/]*'
    } else source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${source}$`)
}

export function decodedPath(url: string): string {
  const { pathname } = new URL(url)
  try {
    return decodeURIComponent(pathname)
  } catch {
    return pathname
  }
}

export type FaultStore = ReturnType<typeof createFaultStore>

export function createFaultStore() {
  let faults: ActiveFault[] = []
  let nextId = 1

  function add(spec: FaultSpec): Fault {
    const mode: FaultMode = spec.mode ?? (spec.status !== undefined ? 'error' : spec.latencyMs ? 'latency' : 'error')
    const { times, ...rest } = spec
    const fault: ActiveFault = {
      ...rest,
      count: spec.count ?? times,
      id: `fault-${nextId++}`,
      mode,
      rate: spec.rate ?? 1,
      latencyMs: spec.latencyMs ?? 0,
      matched: 0,
      fired: 0,
      regex: globToRegExp(spec.pathPattern),
      random: mulberry32(spec.seed ?? 1),
    }
    faults.push(fault)
    return describe(fault)
  }

  function describe(fault: ActiveFault): Fault {
    const { regex: _regex, random: _random, ...rest } = fault
    return rest
  }

  /** The first fault that matches and fires for this request, counted. */
  function pick(method: string, path: string): Fault | undefined {
    for (const fault of faults) {
      if (fault.method && fault.method.toUpperCase() !== method.toUpperCase()) continue
      if (!fault.regex.test(path)) continue
      fault.matched += 1
      if (fault.nth !== undefined && fault.matched < fault.nth) continue
      if (fault.rate < 1 && fault.random() >= fault.rate) continue
      fault.fired += 1
      if (fault.count !== undefined && fault.fired >= fault.count) faults = faults.filter((entry) => entry !== fault)
      return describe(fault)
    }
    return undefined
  }

  return {
    add,
    pick,
    list: () => faults.map(describe),
    remove: (id: string) => {
      const before = faults.length
      faults = faults.filter((fault) => fault.id !== id)
      return faults.length !== before
    },
    clear: () => {
      faults = []
    },
  }
}

function faultResponse(c: Context, fault: Fault, path: string): Response {
  const status = fault.status ?? 500
  const headers: Record<string, string> = { ...fault.headers }
  if (fault.body !== undefined) {
    const isText = typeof fault.body === 'string'
    return new Response(isText ? (fault.body as string) : JSON.stringify(fault.body, null, 2), {
      status,
      headers: { 'Content-Type': isText ? 'text/plain; charset=UTF-8' : 'application/json; charset=UTF-8', ...headers },
    })
  }
  if (status === 502) {
    return new Response(googleBadGatewayHtml(), { status, headers: { 'Content-Type': 'text/html; charset=UTF-8', ...headers } })
  }
  if (path === '/token') {
    const error = status === 503 ? 'temporarily_unavailable' : status >= 500 ? 'server_error' : 'invalid_request'
    return c.json({ error, error_description: defaultErrorMessage(status) }, status as 500, headers)
  }
  return new Response(JSON.stringify(googleErrorBody({ code: status, message: defaultErrorMessage(status) }), null, 2), {
    status,
    headers: { 'Content-Type': 'application/json; charset=UTF-8', ...headers },
  })
}

/** Cuts the TCP connection under a request. False when there is none (in-process `app.request`). */
function dropConnection(c: Context<EmulatorEnv>): boolean {
  const socket = c.env?.incoming?.socket
  if (!socket) return false
  socket.destroy()
  return true
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export function faultInjection(store: FaultStore, onFault: (c: Context<EmulatorEnv>, fault: Fault, dropped: boolean) => void): MiddlewareHandler<EmulatorEnv> {
  return async (c, next) => {
    const path = decodedPath(c.req.url)
    if (path.startsWith('/_control')) return next()
    const fault = store.pick(c.req.method, path)
    if (!fault) return next()
    if (fault.latencyMs > 0) await wait(fault.latencyMs)
    switch (fault.mode) {
      case 'latency':
        onFault(c, fault, false)
        return next()
      case 'error':
        onFault(c, fault, false)
        return faultResponse(c, fault, path)
      case 'drop': {
        const dropped = dropConnection(c)
        onFault(c, fault, dropped)
        return faultResponse(c, { ...fault, status: fault.status ?? 500 }, path)
      }
      case 'drop-after-write':
      case 'error-after-write': {
        await next()
        const dropped = fault.mode === 'drop-after-write' && dropConnection(c)
        onFault(c, fault, dropped)
        c.res = faultResponse(c, { ...fault, status: fault.status ?? 500 }, path)
        return
      }
    }
  }
}
