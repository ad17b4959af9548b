import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { createWebhookInputSchema, updateWebhookInputSchema } from '@shared/contracts/webhooks'
import type { AppEnv } from '../../context'
import { requireSession } from '../../lib/session'
import { validate } from '../../lib/validate'
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  redeliverWebhook,
  revealWebhookSecret,
  sendTestEvent,
  updateWebhook,
  webhookDepsOf,
} from './webhooks.service'

export const webhookIdParam = z.object({ id: z.string().max(64).describe('Webhook endpoint id') })
export const webhookDeliveryParam = webhookIdParam.extend({ deliveryId: z.string().max(64).describe('Delivery id') })
export const webhookDeliveriesQuery = z.object({
  before: z.iso.datetime({ error: 'before must be an ISO date-time' }).optional().describe("The previous page's nextBefore"),
})
const idParam = webhookIdParam
const deliveryParam = webhookDeliveryParam
const pageQuery = webhookDeliveriesQuery

/**
 * The webhook endpoints, for any authentication in front: `userIdOf` names the signed-in user.
 * The app mounts them behind the session cookie (`webhookRoutes`), REST API v1 behind its keys.
 */
export function createWebhookHandlers(userIdOf: (c: Context<AppEnv>) => string) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json({ webhooks: await listWebhooks(c.var.db, { userId: userIdOf(c) }) }))
    .post('/', validate('json', createWebhookInputSchema), async (c) => {
      const created = await createWebhook(c.var.db, webhookDepsOf(c.var.deps), { userId: userIdOf(c), input: c.req.valid('json') })
      return c.json({ webhook: created.endpoint, secret: created.secret }, 201)
    })
    .patch('/:id', validate('param', idParam), validate('json', updateWebhookInputSchema), async (c) => {
      const webhook = await updateWebhook(c.var.db, webhookDepsOf(c.var.deps), { userId: userIdOf(c), id: c.req.valid('param').id, input: c.req.valid('json') })
      return c.json({ webhook })
    })
    .delete('/:id', validate('param', idParam), async (c) => {
      await deleteWebhook(c.var.db, { userId: userIdOf(c), id: c.req.valid('param').id })
      return c.body(null, 204)
    })
    .get('/:id/secret', validate('param', idParam), async (c) => {
      const secret = await revealWebhookSecret(c.var.db, webhookDepsOf(c.var.deps), { userId: userIdOf(c), id: c.req.valid('param').id })
      return c.json({ secret })
    })
    .get('/:id/deliveries', validate('param', idParam), validate('query', pageQuery), async (c) => {
      const before = c.req.valid('query').before
      const page = await listWebhookDeliveries(c.var.db, {
        userId: userIdOf(c),
        endpointId: c.req.valid('param').id,
        before: before ? new Date(before) : undefined,
      })
      return c.json(page)
    })
    .post('/:id/test', validate('param', idParam), async (c) => {
      const delivery = await sendTestEvent(c.var.db, webhookDepsOf(c.var.deps), { userId: userIdOf(c), endpointId: c.req.valid('param').id })
      return c.json({ delivery })
    })
    .post('/:id/deliveries/:deliveryId/redeliver', validate('param', deliveryParam), async (c) => {
      const delivery = await redeliverWebhook(c.var.db, webhookDepsOf(c.var.deps), { userId: userIdOf(c), endpointId: c.req.valid('param').id, deliveryId: c.req.valid('param').deliveryId })
      return c.json({ delivery })
    })
}

/** Settings → Webhooks, with the session cookie. */
export const webhookRoutes = new Hono<AppEnv>().use(requireSession).route(
  '/',
  createWebhookHandlers((c) => c.var.user.id),
)
