import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { connectedAccounts, users } from '../../db/schema'
import { signUpAndIn, type HttpClient } from '../../testing/test-app'
import { connectGmail, deliverMail, useGoogleTestApp } from '../../testing/test-emulator'

const app = useGoogleTestApp()
let client: HttpClient
let n = 0
const INBOX = 'demo@mailrow.test'
const day = (d: number) => new Date(Date.UTC(2026, 10, d, 9, 0, 0))

beforeEach(async () => {
  client = await signUpAndIn(app.t, `gmail${++n}@example.com`)
  await connectGmail(app.google, client)
  await deliverMail(app.google, INBOX, { from: '"Acme Store" <Orders@Acme.test>', subject: 'Order #1001 confirmed', text: 'Total: $25.00', date: day(1), labels: ['Orders'] })
  await deliverMail(app.google, INBOX, { from: 'orders@acme.test', subject: 'Your ORDER #1002 has shipped', text: 'Tracking 1Z999', date: day(2), labels: ['Orders'] })
  await deliverMail(app.google, INBOX, { from: 'billing@cloud.test', subject: 'Invoice INV-77 is ready', html: '<p>Amount due <b>$99.00</b></p>', date: day(3), labels: ['Finance'] })
  await deliverMail(app.google, INBOX, { from: 'news@blog.test', subject: 'Weekly digest', text: 'Hello', date: day(4) })
})

async function connectionRow() {
  const rows = await app.t.db.select().from(connectedAccounts).innerJoin(users, eq(users.id, connectedAccounts.userId)).where(eq(users.email, `gmail${n}@example.com`))
  return rows[0]!.connected_accounts
}

const find = (filters: Record<string, string | null>) => client.post('/api/gmail/matching-emails', filters)
const subjects = (response: { json: { emails: Array<{ subject: string }> } }) => response.json.emails.map((e) => e.subject)

describe('POST /api/gmail/matching-emails', () => {
  it('matches From by sender address, whatever its case, newest first', async () => {
    const response = await find({ filterFrom: 'ORDERS@acme.test' })
    expect(response.status).toBe(200)
    expect(subjects(response)).toEqual(['Your ORDER #1002 has shipped', 'Order #1001 confirmed'])
    expect(response.json.emails[1]).toMatchObject({ from: 'Acme Store <Orders@Acme.test>', body: 'Total: $25.00', bodyHtml: null })
    expect(new Date(response.json.emails[1].date).toISOString()).toBe(day(1).toISOString())
  })

  it('matches Subject as a case-insensitive partial match', async () => {
    expect(subjects(await find({ filterSubject: 'order #100' }))).toEqual(['Your ORDER #1002 has shipped', 'Order #1001 confirmed'])
    expect(subjects(await find({ filterSubject: 'nvoice' }))).toEqual(['Invoice INV-77 is ready'])
  })

  it('matches Label by name', async () => {
    expect(subjects(await find({ filterLabel: 'finance' }))).toEqual(['Invoice INV-77 is ready'])
  })

  it('combines filters, and answers an empty list when nothing matches', async () => {
    expect(subjects(await find({ filterFrom: 'orders@acme.test', filterSubject: 'shipped' }))).toEqual(['Your ORDER #1002 has shipped'])
    const none = await find({ filterFrom: 'nobody@nowhere.test' })
    expect(none.status).toBe(200)
    expect(none.json.emails).toEqual([])
  })

  it('turns HTML-only mail into text and sanitises the HTML', async () => {
    await deliverMail(app.google, INBOX, {
      from: 'evil@phish.test',
      subject: 'Hostile',
      html: '<p onclick="x()">Hi<script>alert(1)</script></p><img src="https://track.test/p.gif"><a href="javascript:alert(1)">x</a><iframe src="https://evil.test"></iframe>',
    })
    const [email] = (await find({ filterFrom: 'evil@phish.test' })).json.emails
    expect(email.body).toContain('Hi')
    expect(email.bodyHtml).not.toMatch(/<script|onclick|javascript:|<iframe|\ssrc="https:/i)
    expect(email.bodyHtml).toContain('data-remote-src="https://track.test/p.gif"')
  })

  it('returns at most 20', async () => {
    for (let i = 0; i < 23; i++) await deliverMail(app.google, INBOX, { from: 'bulk@shop.test', subject: `Receipt ${i}`, text: 'x', date: day(5 + (i % 20)) })
    expect((await find({ filterFrom: 'bulk@shop.test' })).json.emails).toHaveLength(20)
  })

  it('validates the filters like the wizard does, and never takes the user from the body', async () => {
    const empty = await find({ filterFrom: ' ', filterSubject: '', filterLabel: null })
    expect(empty.status).toBe(400)
    expect(empty.json.error.message).toBe('Please set at least one filter (From, Subject, or Label)')
    const bad = await find({ filterFrom: 'not an email' })
    expect(bad.json.error.message).toBe('filterFrom: Please enter a valid email address')
    const other = await signUpAndIn(app.t, `nogmail${n}@example.com`)
    const response = await other.post('/api/gmail/matching-emails', { filterFrom: 'orders@acme.test', userId: 'someone-else' })
    expect(response.status).toBe(400)
    expect(response.json.error.message).toMatch(/Gmail is not connected/)
  })

  it('retries through injected 429 and 500 answers', async () => {
    await app.google.control('/faults', { body: { pathPattern: '/gmail/v1/users/*/messages/*', status: 429, count: 2 } })
    await app.google.control('/faults', { body: { pathPattern: '/gmail/v1/users/*/messages', status: 500, count: 1 } })
    expect(subjects(await find({ filterLabel: 'Finance' }))).toEqual(['Invoice INV-77 is ready'])
    // Each fault retires once it has fired its count: all of them were hit and survived.
    expect((await app.google.control('/faults')).json.faults).toEqual([])
  })

  it('refreshes an expired access token and keeps the new one', async () => {
    const before = await connectionRow()
    await app.google.control('/tokens/expire', { body: { email: INBOX } })
    expect(subjects(await find({ filterLabel: 'Finance' }))).toEqual(['Invoice INV-77 is ready'])
    const after = await connectionRow()
    expect(app.t.deps.box.decrypt(after.accessToken)).not.toBe(app.t.deps.box.decrypt(before.accessToken))
    expect(after.lastRefreshedAt.getTime()).toBeGreaterThan(before.lastRefreshedAt.getTime())
    expect(subjects(await find({ filterLabel: 'Finance' }))).toEqual(['Invoice INV-77 is ready'])
  })

  it('a revoked grant marks the connection as needing reconnect', async () => {
    await app.google.control(`/users/${INBOX}/revoke`, { body: {} })
    await app.google.control('/tokens/expire', { body: { email: INBOX } })
    const response = await find({ filterLabel: 'Finance' })
    expect(response.status).toBe(409)
    expect(response.json.error.code).toBe('GOOGLE_REAUTH_REQUIRED')
    const status = (await client.get('/api/connections/gmail')).json.connection
    expect(status).toMatchObject({ connected: false, needsReconnect: true })
    expect(status.reason).toMatch(/Reconnect/)
  })
})
