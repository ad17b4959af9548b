import { Hono } from 'hono'
import { z } from 'zod'
import { paths } from '@shared/paths'
import type { Context } from 'hono'
import type { SecurityEventType } from '@shared/contracts/security-log'
import type { AppEnv } from '../../context'
import { getClientIp } from '../../lib/client-ip'
import { recordSecurityEvent } from '../security-log/security-log.service'
import { AppError } from '../../lib/errors'
import { requireGoogle } from '../../lib/google-access'
import { requireSession } from '../../lib/session'
import { validate } from '../../lib/validate'
import { completeGmailConnection, disconnectGmail, getGmailConnectionStatus, GMAIL_RETURN_TO, gmailConnectionReturnTo, startGmailConnection } from './connections.service'

/** Reconnect from Settings (or the dashboard) comes back there, not to the wizard. */
const RETURN_PATHS = { wizard: paths.createParser, settings: paths.settings, dashboard: paths.dashboard } as const

const callbackQuerySchema = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(512).optional(),
})

export const connectionRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get('/gmail', async (c) => {
    const connection = await getGmailConnectionStatus(c.var.db, { userId: c.var.user.id })
    return c.json({ connection })
  })
  .post('/gmail/start', requireGoogle, validate('query', z.object({ returnTo: z.enum(GMAIL_RETURN_TO).optional() })), async (c) => {
    const result = await startGmailConnection(c.var.db, { userId: c.var.user.id, access: c.var.googleAccess, returnTo: c.req.valid('query').returnTo })
    return c.json(result)
  })
  // Google sends the browser back here; the page it started from picks up at ?step=gmail-callback.
  .get('/gmail/callback', requireGoogle, validate('query', callbackQuerySchema), async (c) => {
    const back = new URL(RETURN_PATHS[await gmailConnectionReturnTo(c.var.db, c.req.valid('query').state)], c.var.deps.env.APP_URL)
    back.searchParams.set('step', 'gmail-callback')
    try {
      const result = await completeGmailConnection(c.var.db, { userId: c.var.user.id, ...c.req.valid('query'), access: c.var.googleAccess })
      await logConnectionEvent(c, 'gmail_connected')
      if (result.missingScopes.length > 0) back.searchParams.set('missing', result.missingScopes.join(' '))
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      back.searchParams.set('error', error.message)
    }
    return c.redirect(back.pathname + back.search, 302)
  })
  .delete('/gmail', requireGoogle, async (c) => {
    await disconnectGmail(c.var.db, { userId: c.var.user.id, access: c.var.googleAccess })
    await logConnectionEvent(c, 'gmail_disconnected')
    return c.body(null, 204)
  })

function logConnectionEvent<E extends AppEnv>(c: Context<E>, type: SecurityEventType) {
  return recordSecurityEvent(c.var.db, c.var.deps.mailer, {
    userId: c.var.user.id,
    email: c.var.user.email,
    type,
    ip: getClientIp(c as unknown as Context<AppEnv>) ?? null,
    userAgent: c.req.header('user-agent') ?? null,
  })
}
