import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { authThrottles } from '../db/schema'

/**
 * Progressive delay per account: the first FREE_FAILURES wrong attempts cost nothing, then each
 * further attempt waits 1 s, 2 s, 4 s … up to MAX_DELAY_SECONDS after the previous one. It slows
 * a password-guesser spread over many addresses to a handful of guesses an hour, but never locks
 * anyone out: the wait is bounded, a known device has a counter of its own (auth.ts), and a
 * reset link always works.
 */
export const FREE_FAILURES = 5
export const MAX_DELAY_SECONDS = 300
/** A counter with no failure for this long starts again from zero. */
const FORGET_AFTER_SECONDS = 24 * 60 * 60

export type AttemptClaim = { allowed: true } | { allowed: false; retryAfterSeconds: number }

export function delaySeconds(failures: number): number {
  if (failures < FREE_FAILURES) return 0
  return Math.min(2 ** (failures - FREE_FAILURES), MAX_DELAY_SECONDS)
}

/**
 * Counts an attempt as failed before it is checked, in one atomic statement, so parallel
 * requests can't all slip through before the first failure is written. A success clears it.
 */
export async function claimAttempt(db: Db, key: string, now = new Date()): Promise<AttemptClaim> {
  const forgetBefore = new Date(now.getTime() - FORGET_AFTER_SECONDS * 1000).toISOString()
  const stamp = now.toISOString()
  const t = authThrottles
  const claimed = await db
    .insert(t)
    .values({ key, failures: 1, lastFailureAt: now })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures: sql`case when ${t.lastFailureAt} < ${forgetBefore}::timestamptz then 1 else ${t.failures} + 1 end`,
        lastFailureAt: now,
      },
      setWhere: sql`${t.failures} < ${FREE_FAILURES}
        or ${t.lastFailureAt} < ${forgetBefore}::timestamptz
        or ${t.lastFailureAt} + least(power(2, ${t.failures} - ${FREE_FAILURES}), ${MAX_DELAY_SECONDS}) * interval '1 second' <= ${stamp}::timestamptz`,
    })
    .returning({ failures: t.failures })
  if (claimed.length > 0) return { allowed: true }
  const [row] = await db.select().from(t).where(eq(t.key, key)).limit(1)
  const waitMs = row ? delaySeconds(row.failures) * 1000 - (now.getTime() - row.lastFailureAt.getTime()) : 1000
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) }
}

export async function clearFailures(db: Db, key: string) {
  await db.delete(authThrottles).where(eq(authThrottles.key, key))
}

export function tooManyAttemptsMessage(seconds: number): string {
  return `Too many attempts. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`
}
