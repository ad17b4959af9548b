import { desc } from 'drizzle-orm'
import { Hono } from 'hono'
import type { AppEnv } from '../../context'
import { devOutbox } from '../../db/schema'
import { AppError } from '../../lib/errors'
import { getClientIp, isLoopback } from '../../lib/client-ip'

const OUTBOX_LIMIT = 50

/**
 * The development outbox: mail that would have gone out over SMTP. It holds password-reset
 * links, so it exists only without SMTP and answers only callers on this machine.
 */
export const devOutboxRoutes = new Hono<AppEnv>().get('/', async (c) => {
  if (c.var.deps.mailer.kind !== 'outbox' || !isLoopback(getClientIp(c))) {
    throw new AppError('NOT_FOUND', 'Not found')
  }
  const rows = await c.var.db.select().from(devOutbox).orderBy(desc(devOutbox.createdAt)).limit(OUTBOX_LIMIT)
  return c.json({
    messages: rows.map((m) => ({ id: m.id, to: m.to, subject: m.subject, text: m.text, createdAt: m.createdAt.toISOString() })),
  })
})
