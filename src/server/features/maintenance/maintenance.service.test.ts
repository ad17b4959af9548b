import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../db/client'
import { parsedEmails, sessions, users } from '../../db/schema'
import { openTestDatabase } from '../../testing/test-database'
import { purgeExpiredData } from './maintenance.service'

let database: Database
beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(async () => {
  await database.close()
})

describe('purgeExpiredData', () => {
  it('deletes parsed emails older than 90 days and expired sessions, and keeps the rest', async () => {
    const { db } = database
    const now = new Date('2026-06-01T00:00:00Z')
    const day = 24 * 60 * 60 * 1000
    await db.insert(users).values({ id: 'u1', name: 'U', email: 'u1@example.com' })
    await db.insert(parsedEmails).values([
      { userId: 'u1', status: 'success', processedAt: new Date(now.getTime() - 91 * day), emailSubject: 'old' },
      { userId: 'u1', status: 'success', processedAt: new Date(now.getTime() - 89 * day), emailSubject: 'recent' },
    ])
    await db.insert(sessions).values([
      { id: 's1', token: 't1', userId: 'u1', expiresAt: new Date(now.getTime() - 1000) },
      { id: 's2', token: 't2', userId: 'u1', expiresAt: new Date(now.getTime() + day) },
    ])

    const result = await purgeExpiredData(db, now)

    expect(result).toMatchObject({ parsedEmails: 1, sessions: 1 })
    expect((await db.select().from(parsedEmails)).map((e) => e.emailSubject)).toEqual(['recent'])
    expect((await db.select().from(sessions)).map((s) => s.id)).toEqual(['s2'])
  })
})
