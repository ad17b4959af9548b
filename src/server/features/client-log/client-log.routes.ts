import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../context'
import { validate } from '../../lib/validate'

const notFoundSchema = z.object({ path: z.string().max(2048) })

/** The SPA reports unknown routes here so they reach the server log (spec §2). */
export const clientLogRoutes = new Hono<AppEnv>().post('/not-found', validate('json', notFoundSchema), (c) => {
  c.var.logger.warn({ path: c.req.valid('json').path }, 'unknown route visited')
  return c.body(null, 204)
})
