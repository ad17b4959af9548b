import { Hono } from 'hono'
import type { AppEnv } from '../../context'
import { requireSession } from '../../lib/session'
import { getAccount } from './account.service'

export const accountRoutes = new Hono<AppEnv>().use(requireSession).get('/', async (c) => {
  const account = await getAccount(c.var.db, { userId: c.var.user.id })
  return c.json({ account })
})
