import { desc } from 'drizzle-orm'
import { Hono, type Context } from 'hono'
import type { AppEnv } from '../../context'
import { devOutbox } from '../../db/schema'
import { AppError } from '../../lib/errors'
import { getClientIp, isLoopback } from '../../lib/client-ip'

const OUTBOX_LIMIT = 50

/**
 * The development outbox: mail that would have gone out over SMTP. It holds password-reset
 * links, so it exists only in a development or demo install without SMTP, and answers only
 * callers on this machine.
 */
export const devOutboxRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const { mailer, env } = c.var.deps
  if (env.MAIL_DELIVERY !== 'outbox' || mailer.kind !== 'outbox' || !isLocalCaller(c)) {
    throw new AppError('NOT_FOUND', 'Not found')
  }
  const rows = await c.var.db.select().from(devOutbox).orderBy(desc(devOutbox.createdAt)).limit(OUTBOX_LIMIT)
  return c.json({
    messages: rows.map((m) => ({ id: m.id, to: m.to, subject: m.subject, text: m.text, createdAt: m.createdAt.toISOString() })),
  })
})

/**
 * The resolved client is on the loopback interface. A forwarding header without TRUST_PROXY means
 * a proxy we were not told about sits in front (every caller would look local), so it is refused.
 */
function isLocalCaller(c: Context<AppEnv>): boolean {
  const { TRUST_PROXY } = c.var.deps.env
  const hasTrustedProxy = TRUST_PROXY.hops > 0 || TRUST_PROXY.addresses.length > 0
  const isForwarded = ['x-forwarded-for', 'forwarded', 'x-real-ip'].some((name) => c.req.header(name) !== undefined)
  if (isForwarded && !hasTrustedProxy) return false
  return isLoopback(getClientIp(c))
}
