import { Hono } from 'hono'
import { deleteAccountInputSchema } from '@shared/contracts/account'
import type { AppEnv } from '../../context'
import { requireSession } from '../../lib/session'
import { validate } from '../../lib/validate'
import { endSubscriptionNow } from '../billing/billing.service'
import { disconnectGmail } from '../connections/connections.service'
import { deleteAccount, getAccount } from './account.service'

export const accountRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get('/', async (c) => {
    const account = await getAccount(c.var.db, { userId: c.var.user.id })
    return c.json({ account })
  })
  .post('/delete', validate('json', deleteAccountInputSchema), async (c) => {
    const { google, box, env, googleRetry } = c.var.deps
    const userId = c.var.user.id
    await deleteAccount(c.var.db, {
      userId,
      ...c.req.valid('json'),
      endSubscription: () => endSubscriptionNow(c.var.db, { userId, billing: c.var.deps.billing }),
      revokeGoogle: async () => {
        if (google) await disconnectGmail(c.var.db, { userId, access: { google, box, appUrl: env.APP_URL, retry: googleRetry } })
      },
    })
    c.var.deps.sessionCache.forgetUser(userId)
    return c.body(null, 204)
  })
