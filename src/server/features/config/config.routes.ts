import { Hono } from 'hono'
import type { PublicConfig } from '../../../shared/contracts/account'
import type { AppEnv } from '../../context'

export const configRoutes = new Hono<AppEnv>().get('/', (c) => {
  const { env, mailer } = c.var.deps
  const config: PublicConfig = {
    googleSignIn: Boolean(env.GOOGLE_CLIENT_ID),
    demoMode: env.DEMO_MODE,
    devOutbox: mailer.kind === 'outbox',
  }
  return c.json({ config })
})
