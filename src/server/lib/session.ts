import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../context'
import { touchSession } from '../features/sessions/sessions.queries'
import { AppError } from './errors'

/** How stale a session's "last used" may get before a request moves it forward. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000

/** Routes behind this see `c.var.user`; everything they query is scoped by that user's id. */
export const requireSession = createMiddleware<AppEnv>(async (c, next) => {
  const result = await c.var.deps.auth.api.getSession({ headers: c.req.raw.headers })
  if (!result) throw new AppError('UNAUTHORIZED', 'Please sign in to continue.')
  c.set('user', result.user)
  c.set('session', result.session)
  if (Date.now() - new Date(result.session.updatedAt).getTime() > TOUCH_INTERVAL_MS) {
    await touchSession(c.var.db, result.session.id, new Date(Date.now() - TOUCH_INTERVAL_MS))
  }
  await next()
})
