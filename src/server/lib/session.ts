import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../context'
import { AppError } from './errors'

/** Routes behind this see `c.var.user`; everything they query is scoped by that user's id. */
export const requireSession = createMiddleware<AppEnv>(async (c, next) => {
  const result = await c.var.deps.auth.api.getSession({ headers: c.req.raw.headers })
  if (!result) throw new AppError('UNAUTHORIZED', 'Please sign in to continue.')
  c.set('user', result.user)
  c.set('session', result.session)
  await next()
})
