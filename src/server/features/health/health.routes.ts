import { sql } from 'drizzle-orm'
import { Hono } from 'hono'
import type { AppEnv } from '../../context'

const DB_TIMEOUT_MS = 2000

export const healthRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const dbOk = await Promise.race([
    c.var.db.execute(sql`select 1`).then(
      () => true,
      () => false,
    ),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), DB_TIMEOUT_MS).unref()),
  ])
  if (dbOk) return c.json({ status: 'ok', db: 'ok' } as const, 200)
  return c.json({ status: 'error', db: 'unavailable' } as const, 503)
})
