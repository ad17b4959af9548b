import type { AccountView } from '@shared/contracts/account'
import { toPlan } from '@shared/plans'
import type { Db } from '../../db/client'
import { verifyPassword } from '../../auth/password'
import { claimAttempt, clearFailures, tooManyAttemptsMessage } from '../../auth/throttle'
import { AppError } from '../../lib/errors'
import { getMonthlyUsage } from '../usage/usage.service'
import { deleteUserById, deleteUserTraces, findUserById, listSignInAccountsByUser } from './account.queries'

export async function getAccount(db: Db, { userId }: { userId: string }): Promise<AccountView> {
  const user = await findUserById(db, userId)
  if (!user) throw new AppError('NOT_FOUND', 'Account not found')
  const signIns = await listSignInAccountsByUser(db, userId)
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    plan: toPlan(user.plan),
    twoFactorEnabled: user.twoFactorEnabled,
    hasPassword: signIns.some((a) => a.providerId === 'credential' && Boolean(a.passwordHash)),
    signInMethods: signIns.map((a) => a.providerId),
    createdAt: user.createdAt.toISOString(),
    usage: await getMonthlyUsage(db, { userId }),
  }
}

/**
 * Erases the account and everything in it (parsers, ledger, sessions, connection, and the traces
 * outside the user's rows: outbox mail, pending tokens, queued jobs) after revoking Mailrow's
 * Google grant. Spreadsheets stay in the user's own Google Drive.
 */
export async function deleteAccount(
  db: Db,
  {
    userId,
    password,
    confirmEmail,
    revokeGoogle,
    endSubscription = async () => {},
  }: { userId: string; password?: string; confirmEmail?: string; revokeGoogle: () => Promise<void>; endSubscription?: () => Promise<void> },
) {
  const user = await findUserById(db, userId)
  if (!user) throw new AppError('NOT_FOUND', 'Account not found')
  const credential = (await listSignInAccountsByUser(db, userId)).find((a) => a.providerId === 'credential' && a.passwordHash)
  if (credential?.passwordHash) {
    // Throttled like sign-in, or a stolen session could test passwords here without limit.
    const throttleKey = `delete-account:${userId}`
    const claim = await claimAttempt(db, throttleKey)
    if (!claim.allowed) throw new AppError('RATE_LIMITED', tooManyAttemptsMessage(claim.retryAfterSeconds))
    if (!password || !(await verifyPassword({ hash: credential.passwordHash, password }))) {
      throw new AppError('FORBIDDEN', 'Incorrect password')
    }
    await clearFailures(db, throttleKey)
  } else if (confirmEmail !== user.email) {
    throw new AppError('VALIDATION', 'Type your email address to confirm')
  }
  // No more charges for an account that no longer exists.
  await endSubscription()
  await revokeGoogle()
  await db.transaction(async (tx) => {
    await deleteUserTraces(tx, { userId, email: user.email })
    await deleteUserById(tx, userId)
  })
}
