import { Hono } from 'hono'
import { z } from 'zod'
import { PLANS } from '@shared/plans'
import type { AppEnv } from '../../context'
import { AppError } from '../../lib/errors'
import { validate } from '../../lib/validate'
import { isAdminToken, setUserPlan } from './admin.service'

export const adminRoutes = new Hono<AppEnv>().post(
  '/plan',
  async (c, next) => {
    const token = c.req.header('authorization')?.replace(/^Bearer\s+/i, '')
    if (!isAdminToken(c.var.deps.appSecret, token)) throw new AppError('UNAUTHORIZED', 'Operator token required')
    await next()
  },
  validate('json', z.object({ email: z.email(), plan: z.enum(PLANS) })),
  async (c) => {
    const user = await setUserPlan(c.var.db, c.req.valid('json'))
    // Cached sessions carry the user (and its plan): an operator's change shows at once.
    c.var.deps.sessionCache.clear()
    return c.json({ user })
  },
)
