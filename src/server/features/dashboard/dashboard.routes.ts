import { Hono } from 'hono'
import type { AppEnv } from '../../context'
import { requireSession } from '../../lib/session'
import { getDashboard } from './dashboard.service'

export const dashboardRoutes = new Hono<AppEnv>().use(requireSession).get('/', async (c) => {
  const dashboard = await getDashboard(c.var.db, { userId: c.var.user.id })
  return c.json({ dashboard })
})
