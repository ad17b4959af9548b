import type { AccountView } from '../../../shared/contracts/account'
import { toPlan } from '../../../shared/plans'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/errors'
import { findUserById, listSignInAccountsByUser } from './account.queries'

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
    hasPassword: signIns.some((a) => a.providerId === 'credential' && Boolean(a.hasPassword)),
    signInMethods: signIns.map((a) => a.providerId),
    createdAt: user.createdAt.toISOString(),
  }
}
