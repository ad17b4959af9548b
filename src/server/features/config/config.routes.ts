import { Hono } from 'hono'
import type { PublicConfig } from '../../../shared/contracts/account'
import type { AppEnv } from '../../context'

export const configRoutes = new Hono<AppEnv>().get('/', (c) => {
  const { mailer, google } = c.var.deps
  const config: PublicConfig = {
    googleSignIn: Boolean(google),
    demoMode: Boolean(google?.isEmulator),
    devOutbox: mailer.kind === 'outbox',
  }
  return c.json({ config })
})
