import type { Plan } from '../plans'

import { z } from 'zod'

/** This calendar month's processed emails against the plan's allowance. */
export type UsageView = { month: string; used: number; limit: number }

/** What /settings shows about the signed-in user. */
export type AccountView = {
  id: string
  email: string
  name: string
  plan: Plan
  twoFactorEnabled: boolean
  hasPassword: boolean
  signInMethods: string[]
  createdAt: string
  usage: UsageView
}

/**
 * Deleting the account (GDPR erasure): the password when the account has one, otherwise the
 * account's email typed again.
 */
export const deleteAccountInputSchema = z.object({
  password: z.string().max(128).optional(),
  confirmEmail: z.string().trim().toLowerCase().max(255).optional(),
})

/** Public facts the front end needs before sign-in. */
export type PublicConfig = {
  googleSignIn: boolean
  demoMode: boolean
  devOutbox: boolean
  /** False on a production install without SMTP: reset and confirmation mail cannot be sent. */
  canSendMail: boolean
}
