import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../context'
import { AppError } from './errors'

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/** Deeper JSON than this is no input of ours (the deepest contract nests 4 levels). */
export const MAX_JSON_DEPTH = 32

/**
 * Cross-site requests can't change anything: a browser always sends Origin with a POST, PUT,
 * PATCH or DELETE, and it must be Mailrow's own. Without Origin (a non-browser client, which
 * carries no victim's cookie), Sec-Fetch-Site must not name another site. SameSite=Lax alone
 * let a cross-site form post through to routes that accept form bodies.
 */
export function requireSameOrigin(exempt: (path: string) => boolean) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (STATE_CHANGING.has(c.req.method) && !exempt(c.req.path)) {
      const origin = c.req.header('origin')
      const fetchSite = c.req.header('sec-fetch-site')
      const isSameOrigin =
        origin !== undefined ? origin === new URL(c.var.deps.env.APP_URL).origin : fetchSite === undefined || fetchSite === 'same-origin' || fetchSite === 'none'
      if (!isSameOrigin) throw new AppError('FORBIDDEN', 'Cross-site request refused')
    }
    await next()
  })
}

/** Signed-in answers must not be kept by the browser's or a proxy's cache. */
export const noStore = createMiddleware<AppEnv>(async (c, next) => {
  await next()
  if (!c.res.headers.has('cache-control')) c.res.headers.set('Cache-Control', 'no-store')
})

/**
 * Text the database can't store or that no one types: NUL and lone UTF-16 surrogates are
 * refused with 400 wherever they appear (path, query, JSON body), before any handler sees them.
 */
export const rejectUnsafeInput = createMiddleware<AppEnv>(async (c, next) => {
  const url = new URL(c.req.url)
  if (!isSafeText(decodeOrNull(url.pathname))) throw new AppError('VALIDATION', 'The address contains characters that are not allowed')
  for (const [key, value] of url.searchParams) {
    if (!isSafeText(key) || !isSafeText(value)) throw new AppError('VALIDATION', `${key}: contains characters that are not allowed`)
  }
  if (c.req.raw.body && /json/i.test(c.req.header('content-type') ?? '')) {
    const text = await c.req.raw.clone().text()
    let body: unknown
    try {
      body = text ? JSON.parse(text) : undefined
    } catch {
      throw new AppError('VALIDATION', 'Malformed JSON in request body')
    }
    const problem = findUnsafeValue(body)
    if (problem) throw new AppError('VALIDATION', problem)
  }
  await next()
})

function decodeOrNull(path: string): string | null {
  try {
    return decodeURIComponent(path)
  } catch {
    return null
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

function isSafeText(value: string | null): boolean {
  return value !== null && !value.includes('\u0000') && !LONE_SURROGATE.test(value)
}

/** Walks the parsed body without recursion (a 50,000-deep array must not blow the stack). */
function findUnsafeValue(root: unknown): string | undefined {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value: root, depth: 0, path: '' }]
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!
    if (depth > MAX_JSON_DEPTH) return 'Request body is nested too deeply'
    if (typeof value === 'string') {
      if (!isSafeText(value)) return `${path ? `${path}: ` : ''}contains characters that are not allowed`
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push({ value: item, depth: depth + 1, path: path ? `${path}.${index}` : String(index) }))
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (!isSafeText(key)) return 'A field name contains characters that are not allowed'
        stack.push({ value: item, depth: depth + 1, path: path ? `${path}.${key}` : key })
      }
    }
  }
  return undefined
}
