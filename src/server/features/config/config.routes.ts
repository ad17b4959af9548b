import { Hono } from 'hono'
import type { PublicConfig } from '@shared/contracts/account'
import type { AppEnv } from '../../context'

export const configRoutes = new Hono<AppEnv>().get('/', (c) => {
  const { env, google } = c.var.deps
  const config: PublicConfig = {
    googleSignIn: Boolean(google),
    demoMode: Boolean(google?.isEmulator),
    devOutbox: env.MAIL_DELIVERY === 'outbox',
    canSendMail: env.MAIL_DELIVERY !== 'none',
  }
  return c.json({ config })
})
