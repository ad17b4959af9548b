import { Hono } from 'hono'
import { z } from 'zod'
import { createApiKeyInputSchema } from '@shared/contracts/api'
import type { AppEnv } from '../../context'
import { requireSession } from '../../lib/session'
import { validate } from '../../lib/validate'
import { createApiKey, deleteApiKey, listApiKeys } from './api-keys.service'

/** Settings → API keys (signed in with a session; keys never manage keys). */
export const apiKeyRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get('/', async (c) => c.json({ apiKeys: await listApiKeys(c.var.db, { userId: c.var.user.id }) }))
  .post('/', validate('json', createApiKeyInputSchema), async (c) => {
    return c.json(await createApiKey(c.var.db, { userId: c.var.user.id, input: c.req.valid('json') }), 201)
  })
  .delete('/:id', validate('param', z.object({ id: z.uuid({ error: 'API key not found' }) })), async (c) => {
    await deleteApiKey(c.var.db, { userId: c.var.user.id, id: c.req.valid('param').id })
    return c.body(null, 204)
  })
