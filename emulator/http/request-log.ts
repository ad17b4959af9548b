import type { MiddlewareHandler } from 'hono'
import type { Clock } from '../clock'
import type { EmulatorEnv } from './context'
import { decodedPath } from './faults'

export type LoggedRequest = {
  seq: number
  at: string
  method: string
  path: string
  query: string
  status: number
  api?: string
  email?: string
  fault?: string
  dropped?: boolean
}

const MAX_ENTRIES = 10_000

export type RequestLog = ReturnType<typeof createRequestLog>

export function createRequestLog(clock: Clock, nameRequest: (method: string, rawPathname: string) => string | undefined = () => undefined) {
  let entries: LoggedRequest[] = []
  let seq = 0
  const faultsByRequest = new WeakMap<Request, { id: string; dropped: boolean }>()

  const middleware: MiddlewareHandler<EmulatorEnv> = async (c, next) => {
    const url = new URL(c.req.url)
    const path = decodedPath(c.req.url)
    if (path.startsWith('/_control')) return next()
    const entry: LoggedRequest = { seq: ++seq, at: new Date(clock.now()).toISOString(), method: c.req.method, path, query: url.search, status: 0 }
    try {
      await next()
    } finally {
      entry.status = c.res.status
      const api = c.get('apiMethod')?.id ?? nameRequest(c.req.method, url.pathname)
      if (api) entry.api = api
      const principal = c.get('principal')
      if (principal) entry.email = principal.email
      const fault = faultsByRequest.get(c.req.raw)
      if (fault) {
        entry.fault = fault.id
        if (fault.dropped) entry.dropped = true
      }
      entries.push(entry)
      if (entries.length > MAX_ENTRIES) entries = entries.slice(-MAX_ENTRIES)
    }
  }

  return {
    middleware,
    noteFault: (request: Request, id: string, dropped: boolean) => faultsByRequest.set(request, { id, dropped }),
    query: (filter: { pathPrefix?: string; method?: string; api?: string; email?: string }) => {
      const selected = entries.filter(
        (entry) =>
          (!filter.pathPrefix || entry.path.startsWith(filter.pathPrefix)) &&
          (!filter.method || entry.method === filter.method.toUpperCase()) &&
          (!filter.api || entry.api === filter.api) &&
          (!filter.email || entry.email === filter.email.toLowerCase()),
      )
      const counts: Record<string, number> = {}
      const byApi: Record<string, number> = {}
      for (const entry of selected) {
        const key = `${entry.method} ${entry.path}`
        counts[key] = (counts[key] ?? 0) + 1
        if (entry.api) byApi[entry.api] = (byApi[entry.api] ?? 0) + 1
      }
      return { total: selected.length, counts, byApi, requests: selected }
    },
    clear: () => {
      entries = []
    },
  }
}
