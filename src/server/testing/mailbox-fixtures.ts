import { randomUUID } from 'node:crypto'
import type { Db } from '../db/client'
import { connectedAccounts, parsers, users } from '../db/schema'
import type { SecretBox } from '../lib/crypto'
import type { TestEmulator } from './test-emulator'

const CHUNK = 500

/**
 * `count` users, each with a connected Gmail account and an active parser, written straight to
 * the database (thousands in seconds, for scheduler tests and the scale benchmark). With an
 * emulator, each gets a mailbox there and real tokens; without, the tokens are placeholders.
 */
export async function seedConnectedMailboxes(
  db: Db,
  { count, prefix = 'box', google, box }: { count: number; prefix?: string; google?: TestEmulator; box?: SecretBox },
) {
  const seeded: { userId: string; email: string }[] = []
  for (let start = 0; start < count; start += CHUNK) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(CHUNK, count - start) }, async (_, i) => {
        const email = `${prefix}${start + i}@mailrow.test`
        let tokens = { access_token: 'placeholder', refresh_token: 'placeholder' }
        let historyId: string | null = '1'
        if (google && box) {
          await google.control('/mailboxes', { body: { email } })
          tokens = (await google.control('/tokens', { body: { email } })).json
          historyId = (await google.control(`/mailboxes/${encodeURIComponent(email)}`)).json.historyId
        }
        const seal = (value: string) => (box ? box.encrypt(value) : value)
        return { userId: randomUUID(), email, accessToken: seal(tokens.access_token), refreshToken: seal(tokens.refresh_token), historyId }
      }),
    )
    await db.insert(users).values(batch.map((b) => ({ id: b.userId, name: b.email, email: b.email, emailVerified: true })))
    await db.insert(connectedAccounts).values(
      batch.map((b) => ({
        userId: b.userId,
        accessToken: b.accessToken,
        refreshToken: b.refreshToken,
        accessTokenExpiresAt: new Date(Date.now() + 3_600_000),
        accountEmail: b.email,
        accountId: b.email,
        scopes: 'https://www.googleapis.com/auth/gmail.readonly',
        historyId: b.historyId,
      })),
    )
    await db.insert(parsers).values(
      batch.map((b) => ({ userId: b.userId, name: 'Orders', filterFrom: 'orders@acme.test', template: {}, startHistoryId: b.historyId })),
    )
    seeded.push(...batch.map(({ userId, email }) => ({ userId, email })))
  }
  return seeded
}
