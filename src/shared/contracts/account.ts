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

/** Longest profile name: a name travels in every session answer, so it stays small. */
export const MAX_NAME_LENGTH = 100

/** A profile name: 1 to 100 characters of text, no control characters. */
export const profileNameSchema = z
  .string({ error: 'Name must be text' })
  .trim()
  .min(1, { error: 'Name is required' })
  .max(MAX_NAME_LENGTH, { error: `Name must be at most ${MAX_NAME_LENGTH} characters` })
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), { error: 'Name contains characters that are not allowed' })

/** What a signed-in user may change about their profile (Better Auth's update-user). */
export const updateUserInputSchema = z.strictObject({
  name: profileNameSchema.optional(),
  image: z.url({ protocol: /^https$/ }).max(2048).nullable().optional(),
})

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
