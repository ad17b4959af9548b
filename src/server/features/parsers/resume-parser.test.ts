import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { parsedEmails, parsers } from '../../db/schema'
import { INBOX, orderEmail, pipelineTestDeps, sheetRows, userWithOrderParser } from '../../testing/pipeline-fixtures'
import { signUpAndIn, type TestApp } from '../../testing/test-app'
import { deliverMail, useGoogleTestApp, type TestEmulator } from '../../testing/test-emulator'
import { runMailboxPass, type PipelineDeps } from '../pipeline/pipeline.service'

// One emulator and one app for the file, the emulator reset before each test.
const app = useGoogleTestApp()
let google: TestEmulator
let t: TestApp
let deps: PipelineDeps
let n = 0

beforeAll(() => {
  ;({ google, t } = app)
  deps = pipelineTestDeps(t)
})

/** The paused moment the tests set, so the mail around it is dated without looking at the clock. */
const PAUSED_AT = new Date('2026-11-10T12:00:00Z')

/**
 * A parser paused at PAUSED_AT, with one matching email from before the pause, two from while it
 * was paused and one from another sender. No pass runs meanwhile: the scheduler doesn't sync a
 * mailbox whose parsers are all paused, so the sync's cursor still points before that mail.
 */
async function pausedParserWithMail() {
  const setup = await userWithOrderParser(t, google, { email: `resume${++n}@example.com` })
  expect((await setup.client.send('PATCH', `/api/parsers/${setup.parser.id}`, { active: false })).json.parser.paused_at).not.toBeNull()
  await t.db.update(parsers).set({ pausedAt: PAUSED_AT }).where(eq(parsers.id, setup.parser.id))
  const mail = (k: number, date: Date) => {
    const { expected: _, ...order } = orderEmail(k)
    return { ...order, date }
  }
  const before = await deliverMail(google, INBOX, mail(1, new Date('2026-11-10T11:00:00Z')))
  const during = [await deliverMail(google, INBOX, mail(2, new Date('2026-11-10T13:00:00Z'))), await deliverMail(google, INBOX, mail(3, new Date('2026-11-11T09:00:00Z')))]
  await deliverMail(google, INBOX, { from: 'news@blog.test', subject: 'Weekly news', text: 'Nothing to parse', date: new Date('2026-11-10T14:00:00Z') })
  return { ...setup, before, during }
}

const ledgerIds = async (parserId: string) =>
  (await t.db.select({ id: parsedEmails.gmailMessageId }).from(parsedEmails).where(and(eq(parsedEmails.parserId, parserId)))).map((r) => r.id).sort()

describe('POST /api/parsers/:id/resume', () => {
  it('processes the mail that arrived while paused when asked to, and only that', async () => {
    const { client, userId, parser, spreadsheetId, during } = await pausedParserWithMail()
    expect(await ledgerIds(parser.id)).toEqual([])

    const resumed = await client.post(`/api/parsers/${parser.id}/resume`, { pausedMail: 'process' })
    expect(resumed.status).toBe(200)
    expect(resumed.json.queued).toBe(2)
    expect(resumed.json.parser).toMatchObject({ active: true, paused_at: null })
    expect(await ledgerIds(parser.id)).toEqual([...during].sort())

    await runMailboxPass(t.db, { userId, deps })
    const rows = await sheetRows(google, spreadsheetId)
    expect(rows.slice(1).map((row) => row[0])).toEqual(expect.arrayContaining(['1002', '1003']))
    expect(rows).toHaveLength(3)

    // New mail after Resume is taken as usual.
    const { expected: _, ...later } = orderEmail(4)
    const after = await deliverMail(google, INBOX, later)
    await runMailboxPass(t.db, { userId, deps })
    expect(await ledgerIds(parser.id)).toContain(after)
  })

  it('skips the mail that arrived while paused when asked to, and it never comes in later', async () => {
    const { client, userId, parser, spreadsheetId } = await pausedParserWithMail()
    const resumed = await client.post(`/api/parsers/${parser.id}/resume`, { pausedMail: 'skip' })
    expect(resumed.status).toBe(200)
    expect(resumed.json).toMatchObject({ queued: 0, parser: { active: true, paused_at: null } })
    await runMailboxPass(t.db, { userId, deps })
    expect(await ledgerIds(parser.id)).toEqual([])
    expect(await sheetRows(google, spreadsheetId)).toHaveLength(1)

    const { expected: _, ...later } = orderEmail(5)
    const after = await deliverMail(google, INBOX, later)
    await runMailboxPass(t.db, { userId, deps })
    expect(await ledgerIds(parser.id)).toEqual([after])
  })

  it('asks for a choice, and is the owner’s alone', async () => {
    const { client, parser } = await pausedParserWithMail()
    const missing = await client.post(`/api/parsers/${parser.id}/resume`, {})
    expect(missing.status).toBe(400)
    expect(missing.json.error.message).toContain('Choose whether to process the mail that arrived while paused')
    const stranger = await signUpAndIn(t, `stranger-resume${n}@example.com`)
    expect((await stranger.post(`/api/parsers/${parser.id}/resume`, { pausedMail: 'process' })).status).toBe(404)
    const [row] = await t.db.select({ active: parsers.active }).from(parsers).where(eq(parsers.id, parser.id))
    expect(row!.active).toBe(false)
  })
})
