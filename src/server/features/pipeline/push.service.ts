import { createHmac, timingSafeEqual } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { connectedAccounts } from '../../db/schema'
import { withUserGoogle, type GoogleAccess } from '../connections/connections.service'
import { gmailApi } from '../google/google.client'

/** The token in the push endpoint's URL, so only the operator's Pub/Sub subscription can call it. */
export function pushToken(appSecret: string): string {
  return createHmac('sha256', appSecret).update('mailrow-gmail-push-v1').digest('base64url')
}

export function isPushToken(appSecret: string, presented: string | undefined) {
  if (!presented) return false
  const expected = Buffer.from(pushToken(appSecret))
  const given = Buffer.from(presented)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** Users whose connected Gmail account a push notification is about. */
export async function usersForPush(db: Db, body: unknown): Promise<string[]> {
  const data = (body as { message?: { data?: string } } | null)?.message?.data
  if (typeof data !== 'string') return []
  let emailAddress: unknown
  try {
    emailAddress = (JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as { emailAddress?: unknown }).emailAddress
  } catch {
    return []
  }
  if (typeof emailAddress !== 'string') return []
  const rows = await db
    .select({ userId: connectedAccounts.userId })
    .from(connectedAccounts)
    .where(eq(connectedAccounts.accountEmail, emailAddress.toLowerCase()))
  return rows.map((r) => r.userId)
}

/** Asks Gmail to push notifications for the whole mailbox (mail filtered past the inbox too); a watch lasts 7 days, so it is renewed daily. */
export async function watchMailbox(db: Db, { userId, access, topicName }: { userId: string; access: GoogleAccess; topicName: string }) {
  return withUserGoogle(db, { userId, access, action: 'Starting Gmail push' }, async (auth, call) => {
    const { data } = await call(() =>
      gmailApi(access.google, auth).users.watch({ userId: 'me', requestBody: { topicName } }),
    )
    return { historyId: data.historyId ?? null, expiration: data.expiration ? new Date(Number(data.expiration)) : null }
  })
}

export async function listConnectedUsers(db: Db): Promise<string[]> {
  const rows = await db.select({ userId: connectedAccounts.userId }).from(connectedAccounts).where(eq(connectedAccounts.status, 'connected'))
  return rows.map((r) => r.userId)
}
