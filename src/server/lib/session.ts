import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../context'
import { touchSession } from '../features/sessions/sessions.queries'
import { AppError } from './errors'

/** How stale a session's "last used" may get before a request moves it forward. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000

/**
 * Routes behind this see `c.var.user`; everything they query is scoped by that user's id. A
 * session validated a moment ago comes from the session cache (docs/decisions/018).
 */
export const requireSession = createMiddleware<AppEnv>(async (c, next) => {
  const { auth, sessionCache } = c.var.deps
  const key = sessionCache.keyOf(c.req.raw.headers)
  let result = sessionCache.get(key)
  if (!result) {
    const mark = sessionCache.mark()
    result = (await auth.api.getSession({ headers: c.req.raw.headers })) ?? undefined
    if (result) sessionCache.set(key, result, mark)
  }
  if (!result) throw new AppError('UNAUTHORIZED', 'Please sign in to continue.')
  c.set('user', result.user)
  c.set('session', result.session)
  if (Date.now() - new Date(result.session.updatedAt).getTime() > TOUCH_INTERVAL_MS) {
    const now = new Date()
    await touchSession(c.var.db, result.session.id, new Date(now.getTime() - TOUCH_INTERVAL_MS))
    sessionCache.touched(key, now)
  }
  await next()
})
