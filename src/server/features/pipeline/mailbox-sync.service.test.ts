import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { connectedAccounts, parsedEmails } from '../../db/schema'
import { deliverOrders, injectFault, pipelineTestDeps, sheetRows, userWithOrderParser } from '../../testing/pipeline-fixtures'
import { type TestApp } from '../../testing/test-app'
import { useGoogleTestApp, type TestEmulator } from '../../testing/test-emulator'
import { runMailboxPass, type PipelineDeps } from './pipeline.service'

// One emulator and one app for the file, the emulator reset before each test.
const app = useGoogleTestApp()
let google: TestEmulator
let t: TestApp
let base: PipelineDeps
let n = 0

beforeAll(() => {
  ;({ google, t } = app)
  base = pipelineTestDeps(t)
})

/** Deps whose Google calls time out after `timeoutMs`, and whose clock reads `clock.now`. */
function depsWith({ timeoutMs, graceMs }: { timeoutMs?: number; graceMs?: number }) {
  const clock = { now: new Date() }
  const deps: PipelineDeps = {
    ...base,
    access: { ...base.access, google: { ...base.access.google, timeoutMs: timeoutMs ?? base.access.google.timeoutMs } },
    sync: { now: () => clock.now, stragglerGraceMs: graceMs },
  }
  return { deps, clock }
}

const downloads = async () => (await google.control('/requests?api=gmail.users.messages.get')).json.total as number
const writtenIds = async (spreadsheetId: string) => (await sheetRows(google, spreadsheetId)).slice(1).map((r) => r[6]!).sort()

describe('one slow Gmail answer delays only its own message', () => {
  it('a download that outlives the timeout is left for later; the other emails become rows in the same pass', async () => {
    const { userId, spreadsheetId } = await userWithOrderParser(t, google, { email: `slow${++n}@example.com` })
    const { deps, clock } = depsWith({ timeoutMs: 1_000 })
    const ids = await deliverOrders(google, 1, 5)
    await google.control('/requests', { method: 'DELETE' })
    const stall = await injectFault(google, { pathPattern: `/gmail/v1/users/*/messages/${ids[2]}`, mode: 'latency', latencyMs: 1_500, times: 1 })

    await runMailboxPass(t.db, { userId, deps })
    expect(await writtenIds(spreadsheetId)).toEqual(ids.filter((_, i) => i !== 2).sort())
    const [account] = await t.db.select().from(connectedAccounts).where(eq(connectedAccounts.userId, userId))
    expect(account!.syncBacklog.map((d) => d.id)).toEqual([ids[2]])

    // Not before its backoff; then once, and nothing else is downloaded again.
    await runMailboxPass(t.db, { userId, deps })
    expect(await writtenIds(spreadsheetId)).toHaveLength(4)
    clock.now = new Date(clock.now.getTime() + 60_000)
    await runMailboxPass(t.db, { userId, deps })
    expect(await writtenIds(spreadsheetId)).toEqual([...ids].sort())
    // The stalled request shows in the log once the emulator has answered it.
    await expect.poll(stall.fired, { timeout: 5_000 }).toBe(1)
    expect(await downloads()).toBe(6)
  })

  it('a straggler is given up once the other downloads are done, without waiting for its timeout', async () => {
    const { userId, spreadsheetId } = await userWithOrderParser(t, google, { email: `straggler${++n}@example.com` })
    const { deps, clock } = depsWith({ graceMs: 50 })
    const ids = await deliverOrders(google, 10, 4)
    const stall = await injectFault(google, { pathPattern: `/gmail/v1/users/*/messages/${ids[0]}`, mode: 'latency', latencyMs: 2_000, times: 1 })

    await runMailboxPass(t.db, { userId, deps })
    expect(await writtenIds(spreadsheetId)).toEqual(ids.slice(1).sort())
    await expect.poll(stall.fired, { timeout: 5_000 }).toBe(1)
    clock.now = new Date(clock.now.getTime() + 60_000)
    await runMailboxPass(t.db, { userId, deps })
    expect(await writtenIds(spreadsheetId)).toEqual([...ids].sort())
  })

  it('a message already in the ledger is not downloaded again when the history is read again', async () => {
    const { userId, spreadsheetId } = await userWithOrderParser(t, google, { email: `known${++n}@example.com` })
    const [account] = await t.db.select().from(connectedAccounts).where(eq(connectedAccounts.userId, userId))
    await deliverOrders(google, 20, 3)
    await runMailboxPass(t.db, { userId, deps: base })
    const before = await downloads()
    // A pass that died after the ledger insert but before moving the history position.
    await t.db.update(connectedAccounts).set({ historyId: account!.historyId }).where(eq(connectedAccounts.userId, userId))
    await runMailboxPass(t.db, { userId, deps: base })
    expect(await downloads()).toBe(before)
    expect(await writtenIds(spreadsheetId)).toHaveLength(3)
    expect(await t.db.select().from(parsedEmails).where(eq(parsedEmails.userId, userId))).toHaveLength(3)
  })
})
