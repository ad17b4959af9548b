import type { sheets_v4 } from '@googleapis/sheets'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { rawMessage, startTestEmulator, type TestEmulator } from '../testing/harness'

let t: TestEmulator
let sheets: sheets_v4.Sheets
let spreadsheetId: string

const appendRow = (value: string) =>
  sheets.spreadsheets.values.append({ spreadsheetId, range: 'Sheet1!A1', valueInputOption: 'RAW', requestBody: { values: [[value]] } })

async function columnA(): Promise<string[]> {
  const { body } = await t.control('GET', `/spreadsheets/${spreadsheetId}`)
  return body.sheets[0].values.map((row: string[]) => row[0])
}

beforeAll(async () => {
  t = await startTestEmulator()
})
afterAll(() => t.close())
beforeEach(async () => {
  await t.control('POST', '/reset')
  sheets = t.sheetsFor(await t.authorizedClient('demo@mailrow.test'))
  spreadsheetId = (await sheets.spreadsheets.create({ requestBody: { properties: { title: 'Faults' } } })).data.spreadsheetId!
})

describe('quotas', () => {
  it('answers the 61st Sheets write in a minute with Google’s 429, and the next minute works again', async () => {
    await t.control('POST', '/clock', { freeze: true })
    await t.control('POST', '/quotas', { enabled: true })
    // create() above ran before quotas were on; 60 writes fit in this minute.
    for (let index = 0; index < 60; index += 1) await appendRow(`row ${index}`)
    const error = await appendRow('one too many').catch((caught) => caught)
    expect(error.status).toBe(429)
    expect(error.response.data.error).toMatchObject({
      code: 429,
      status: 'RESOURCE_EXHAUSTED',
      message: expect.stringContaining("Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per user'"),
      errors: [{ reason: 'rateLimitExceeded', domain: 'global' }],
    })
    expect(error.response.data.error.details[0]).toMatchObject({ reason: 'RATE_LIMIT_EXCEEDED', metadata: { quota_limit_value: '60' } })
    // Reads have their own bucket.
    await sheets.spreadsheets.values.get({ spreadsheetId, range: 'A1' })
    await t.control('POST', '/clock', { advanceSeconds: 60 })
    await appendRow('next minute')
  })

  it('charges Gmail per-method quota units per user per second', async () => {
    await t.control('POST', '/clock', { freeze: true })
    await t.control('POST', '/quotas', { enabled: true, gmailUnitsPerSecond: 12 })
    const delivered = await t.deliver('demo@mailrow.test', rawMessage({ subject: 'Quota' }))
    const gmail = t.gmailFor(await t.authorizedClient('demo@mailrow.test'))
    await gmail.users.messages.get({ userId: 'me', id: delivered.id })
    await gmail.users.messages.get({ userId: 'me', id: delivered.id })
    const error = await gmail.users.messages.get({ userId: 'me', id: delivered.id }).catch((caught) => caught)
    expect(error.status).toBe(429)
    expect(error.response.data.error).toMatchObject({
      status: 'RESOURCE_EXHAUSTED',
      message: expect.stringMatching(/^User-rate limit exceeded\. {2}Retry after \d{4}-/),
      errors: [{ reason: 'rateLimitExceeded', domain: 'usageLimits' }],
    })
    // history.list costs 2 units: it still fits in the 2 left this second.
    await gmail.users.history.list({ userId: 'me', startHistoryId: delivered.historyId })
    await t.control('POST', '/clock', { advanceSeconds: 1 })
    await gmail.users.messages.get({ userId: 'me', id: delivered.id })
  })

  it('is off by default', async () => {
    await t.control('POST', '/clock', { freeze: true })
    for (let index = 0; index < 65; index += 1) await appendRow(`row ${index}`)
    expect(await columnA()).toHaveLength(65)
  })
})

describe('fault injection', () => {
  it('fails matching requests with a Google error body, then retires after count', async () => {
    const { body: fault } = await t.control('POST', '/faults', { pathPattern: '/v4/spreadsheets/*/values/*:append', status: 503, count: 1 })
    const error = await appendRow('first').catch((caught) => caught)
    expect(error.status).toBe(503)
    expect(error.response.data.error).toMatchObject({ code: 503, status: 'UNAVAILABLE', errors: [{ reason: 'backendError' }] })
    await appendRow('second')
    expect(await columnA()).toEqual(['second'])
    const { body } = await t.control('GET', '/requests?api=sheets.spreadsheets.values.append')
    expect(body.total).toBe(2)
    expect(body.requests[0]).toMatchObject({ status: 503, fault: fault.id })
  })

  it('fires on exactly the nth matching request when told nth and times', async () => {
    const { body: fault } = await t.control('POST', '/faults', { pathPattern: '/v4/spreadsheets/*/values/*:append', status: 503, nth: 2, times: 1 })
    const outcomes: string[] = []
    for (const word of ['one', 'two', 'three']) outcomes.push(await appendRow(word).then(() => 'ok', (error) => String(error.status)))
    expect(outcomes).toEqual(['ok', '503', 'ok'])
    expect(await columnA()).toEqual(['one', 'three'])
    const { body } = await t.control('GET', '/requests?api=sheets.spreadsheets.values.append')
    expect(body.requests.map((r: { fault?: string }) => r.fault ?? null)).toEqual([null, fault.id, null])
    expect((await t.control('GET', '/faults')).body.faults).toEqual([])
  })

  it('passes headers such as Retry-After, and answers 502 with Google’s HTML page', async () => {
    await t.control('POST', '/faults', { pathPattern: '/v4/**', status: 429, headers: { 'Retry-After': '7' }, count: 1 })
    const limited = await appendRow('x').catch((caught) => caught)
    expect(limited.status).toBe(429)
    expect(limited.response.headers.get('retry-after')).toBe('7')
    await t.control('POST', '/faults', { pathPattern: '/v4/**', status: 502, count: 1 })
    const gateway = await fetch(`${t.url}/v4/spreadsheets/${spreadsheetId}`)
    expect(gateway.status).toBe(502)
    expect(gateway.headers.get('content-type')).toContain('text/html')
    expect(await gateway.text()).toContain('Error 502 (Server Error)')
  })

  it('drop-after-write applies the append, then cuts the connection', async () => {
    await t.control('POST', '/faults', { pathPattern: '/v4/spreadsheets/*/values/*:append', method: 'POST', mode: 'drop-after-write', count: 1 })
    const error = await appendRow('ambiguous').catch((caught) => caught)
    expect(error).toBeInstanceOf(Error)
    expect(error.response).toBeUndefined()
    expect(await columnA()).toEqual(['ambiguous'])
    const { body } = await t.control('GET', '/requests?api=sheets.spreadsheets.values.append')
    expect(body.requests[0]).toMatchObject({ dropped: true })
  })

  it('error-after-write applies the append and answers 500', async () => {
    await t.control('POST', '/faults', { pathPattern: '/v4/spreadsheets/**', method: 'POST', mode: 'error-after-write', count: 1 })
    const error = await appendRow('written anyway').catch((caught) => caught)
    expect(error.status).toBe(500)
    expect(error.response.data.error.status).toBe('INTERNAL')
    expect(await columnA()).toEqual(['written anyway'])
  })

  it('drop cuts the connection before anything is written', async () => {
    await t.control('POST', '/faults', { pathPattern: '/v4/spreadsheets/*/values/*:append', mode: 'drop', count: 1 })
    const error = await appendRow('lost').catch((caught) => caught)
    expect(error.response).toBeUndefined()
    expect(await columnA()).toEqual([])
  })

  it('fires at the given rate from a seeded generator, and adds latency without failing', async () => {
    await t.control('POST', '/faults', { pathPattern: '/gmail/v1/users/*/profile', status: 500, rate: 0.5, seed: 7 })
    const gmail = t.gmailFor(await t.authorizedClient('demo@mailrow.test'))
    const outcomes: number[] = []
    for (let index = 0; index < 20; index += 1) {
      outcomes.push(await gmail.users.getProfile({ userId: 'me' }).then(() => 200, (error) => error.status))
    }
    const failures = outcomes.filter((status) => status === 500).length
    expect(failures).toBeGreaterThan(3)
    expect(failures).toBeLessThan(17)
    const { body } = await t.control('GET', '/faults')
    expect(body.faults[0]).toMatchObject({ matched: 20, fired: failures })

    await t.control('DELETE', '/faults')
    await t.control('POST', '/faults', { pathPattern: '/gmail/**', latencyMs: 20, count: 1 })
    expect((await gmail.users.getProfile({ userId: 'me' })).status).toBe(200)
  })

  it('applies to OAuth too, with an OAuth-shaped body on /token', async () => {
    // OAuth2Client itself retries /token on 5xx, so this asks the endpoint directly.
    await t.control('POST', '/faults', { pathPattern: '/token', status: 503, count: 1 })
    const response = await fetch(`${t.url}/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token' }) })
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ error: 'temporarily_unavailable' })
  })
})

describe('control API', () => {
  it('counts requests per path and per API method', async () => {
    await t.control('DELETE', '/requests')
    await appendRow('a')
    await appendRow('b')
    await sheets.spreadsheets.get({ spreadsheetId })
    const { body } = await t.control('GET', '/requests')
    expect(body.byApi).toEqual({ 'sheets.spreadsheets.values.append': 2, 'sheets.spreadsheets.get': 1 })
    expect(body.counts[`POST /v4/spreadsheets/${spreadsheetId}/values/Sheet1!A1:append`]).toBe(2)
    expect(body.requests[0]).toMatchObject({ email: 'demo@mailrow.test', status: 200 })
  })

  it('delivers raw mail with labels, lists mailboxes and resets', async () => {
    const delivered = await t.deliver('new@mailrow.test', rawMessage({ to: 'new@mailrow.test', subject: 'Hi' }), ['INBOX', 'Receipts'])
    expect(delivered.id).toMatch(/^[0-9a-f]{16}$/)
    expect(delivered.historyId).toMatch(/^\d+$/)
    const { body } = await t.control('GET', '/mailboxes/new@mailrow.test')
    expect(body.messages[0]).toMatchObject({ id: delivered.id, subject: 'Hi', labelIds: ['INBOX', 'Label_1'] })
    expect(body.labels).toEqual([{ id: 'Label_1', name: 'Receipts' }])
    const list = await t.control('GET', '/mailboxes')
    expect(list.body.mailboxes.map((mailbox: any) => mailbox.email)).toEqual(['demo@mailrow.test', 'other@mailrow.test', 'new@mailrow.test'])

    const empty = await fetch(`${t.url}/_control/mailboxes/new@mailrow.test/messages`, { method: 'POST', body: '' })
    expect(empty.status).toBe(400)

    await t.control('POST', '/reset')
    expect((await t.control('GET', '/mailboxes/new@mailrow.test')).status).toBe(404)
    expect((await t.control('GET', '/spreadsheets')).body.spreadsheets).toEqual([])
  })

  it('creates spreadsheet fixtures for a user', async () => {
    const { status, body } = await t.control('POST', '/spreadsheets', {
      owner: 'other@mailrow.test',
      title: 'Fixture',
      sheets: [{ title: 'Data', values: [['Order', 'Total'], ['1', '2']], frozenRowCount: 1 }],
    })
    expect(status).toBe(201)
    expect(body.sheets[0]).toMatchObject({ title: 'Data', frozenRowCount: 1, values: [['Order', 'Total'], ['1', '2']] })
    const other = t.sheetsFor(await t.authorizedClient('other@mailrow.test'))
    expect((await other.spreadsheets.values.get({ spreadsheetId: body.id, range: 'Data!A2:B2' })).data.values).toEqual([['1', '2']])
  })

  it('approves a consent request over HTTP for tests that skip the page', async () => {
    const client = t.oauthClient()
    const authUrl = client.generateAuthUrl({ scope: ['openid', 'email'], state: 'st', access_type: 'offline' })
    const { body } = await t.control('POST', '/oauth/consent', { authUrl, account: 'other@mailrow.test' })
    const location = new URL(body.location)
    expect(location.searchParams.get('state')).toBe('st')
    const { tokens } = await client.getToken(location.searchParams.get('code')!)
    const ticket = await client.verifyIdToken({ idToken: tokens.id_token!, audience: client._clientId! })
    expect(ticket.getPayload()!.email).toBe('other@mailrow.test')
  })

  it('rejects bad control input with a message', async () => {
    const { status, body } = await t.control('POST', '/faults', { status: 500 })
    expect(status).toBe(400)
    expect(body.error.message).toContain('pathPattern')
  })
})
