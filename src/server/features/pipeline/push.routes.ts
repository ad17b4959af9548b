import { Hono } from 'hono'
import type { AppEnv } from '../../context'
import { AppError } from '../../lib/errors'
import { isPushToken, usersForPush } from './push.service'

/**
 * Gmail push (Pub/Sub push subscription → POST /api/gmail/push?token=…): a notification only
 * says "this mailbox changed", so it triggers the same sync the poller would, right away.
 */
export const pushRoutes = new Hono<AppEnv>().post('/', async (c) => {
  if (!isPushToken(c.var.deps.appSecret, c.req.query('token'))) throw new AppError('UNAUTHORIZED', 'Invalid push token')
  const body = await c.req.json().catch(() => null)
  for (const userId of await usersForPush(c.var.db, body)) await c.var.deps.requestSync?.(userId)
  // Pub/Sub redelivers anything but a 2xx; a notification for an unknown mailbox is still done.
  return c.body(null, 204)
})
