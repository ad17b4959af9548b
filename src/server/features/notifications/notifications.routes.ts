import { Hono } from 'hono'
import type { AppEnv } from '../../context'
import { requireSession } from '../../lib/session'
import { listNotifications } from './notifications.service'

export const notificationRoutes = new Hono<AppEnv>().use(requireSession).get('/', async (c) => {
  return c.json({ items: await listNotifications(c.var.db, { userId: c.var.user.id }) })
})
