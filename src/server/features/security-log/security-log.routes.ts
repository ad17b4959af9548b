import { Hono } from 'hono'
import type { AppEnv } from '../../context'
import { requireSession } from '../../lib/session'
import { listSecurityLog } from './security-log.service'

export const securityLogRoutes = new Hono<AppEnv>().use(requireSession).get('/', async (c) => {
  const events = await listSecurityLog(c.var.db, { userId: c.var.user.id })
  return c.json({ events })
})
