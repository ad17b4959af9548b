import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../context'
import type { GoogleAccess } from '../features/connections/connections.service'
import { AppError } from './errors'

/** Routes that talk to Google get `c.var.googleAccess`, or a clear 503 when Google isn't set up. */
export const requireGoogle = createMiddleware<AppEnv & { Variables: { googleAccess: GoogleAccess } }>(async (c, next) => {
  const { google, box, env, googleRetry } = c.var.deps
  if (!google) throw new AppError('UNAVAILABLE', 'Google is not configured on this server.')
  c.set('googleAccess', { google, box, appUrl: env.APP_URL, retry: googleRetry, pushTopic: env.GMAIL_PUSH_TOPIC })
  await next()
})
