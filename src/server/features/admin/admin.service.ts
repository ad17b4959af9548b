import { createHmac, timingSafeEqual } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Plan } from '@shared/plans'
import type { Db } from '../../db/client'
import { users } from '../../db/schema'
import { AppError } from '../../lib/errors'

/** The operator's token: derived from APP_SECRET, so only someone holding the secret can use it. */
export function adminToken(appSecret: string): string {
  return createHmac('sha256', appSecret).update('mailrow-admin-v1').digest('base64url')
}

export function isAdminToken(appSecret: string, presented: string | undefined): boolean {
  if (!presented) return false
  const expected = Buffer.from(adminToken(appSecret))
  const given = Buffer.from(presented)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * Without Stripe (billing off), an operator sets a user's plan (`npm run mailrow -- set-plan EMAIL PLAN`).
 * With Stripe it still works, as an override until the user's next subscription event.
 */
export async function setUserPlan(db: Db, { email, plan }: { email: string; plan: Plan }) {
  const rows = await db.update(users).set({ plan }).where(eq(users.email, email.trim().toLowerCase())).returning({ email: users.email, plan: users.plan })
  if (rows.length === 0) throw new AppError('NOT_FOUND', `No user with the email ${email}`)
  return rows[0]!
}
