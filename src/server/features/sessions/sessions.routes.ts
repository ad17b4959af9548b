import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../context'
import { requireSession } from '../../lib/session'
import { validate } from '../../lib/validate'
import { listSessions, revokeAllSessions, revokeOtherSessions, revokeSession } from './sessions.service'

const sessionParam = z.object({ id: z.string().min(1).max(128) })

export const sessionRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get('/', async (c) => {
    const sessions = await listSessions(c.var.db, { userId: c.var.user.id, currentSessionId: c.var.session.id })
    return c.json({ sessions })
  })
  .post('/revoke-others', async (c) => {
    await revokeOtherSessions(c.var.db, { userId: c.var.user.id, currentSessionId: c.var.session.id })
    c.var.deps.sessionCache.forgetUser(c.var.user.id)
    return c.body(null, 204)
  })
  .post('/revoke-all', async (c) => {
    await revokeAllSessions(c.var.db, { userId: c.var.user.id })
    c.var.deps.sessionCache.forgetUser(c.var.user.id)
    return c.body(null, 204)
  })
  .delete('/:id', validate('param', sessionParam), async (c) => {
    await revokeSession(c.var.db, { userId: c.var.user.id, sessionId: c.req.valid('param').id })
    // The revoked session may be cached in this process: the next request with it must be refused.
    c.var.deps.sessionCache.forgetUser(c.var.user.id)
    return c.body(null, 204)
  })
