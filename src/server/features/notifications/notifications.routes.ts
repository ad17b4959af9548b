import { Hono } from 'hono'
import { markNotificationsSeenSchema } from '@shared/contracts/notifications'
import type { AppEnv } from '../../context'
import { requireSession } from '../../lib/session'
import { validate } from '../../lib/validate'
import { listNotifications, markNotificationsSeen } from './notifications.service'

export const notificationRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get('/', async (c) => {
    return c.json({ items: await listNotifications(c.var.db, { userId: c.var.user.id }) })
  })
  // Read state lives on the server, so another browser or device sees the same (issue 12).
  .post('/seen', validate('json', markNotificationsSeenSchema), async (c) => {
    await markNotificationsSeen(c.var.db, { userId: c.var.user.id, through: new Date(c.req.valid('json').through) })
    return c.body(null, 204)
  })
