import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import PostalMime from 'postal-mime'
import { startTestEmulator, type TestEmulator } from '../testing/harness'
import { createDemoEmailGenerator, demoArrivalTimes, demoEmailToRfc822 } from './demo-emails'

describe('demo emails', () => {
  it('come from at least 8 senders, with text and HTML parts, the same for the same seed', async () => {
    const generate = (seed: number) => {
      const generator = createDemoEmailGenerator(seed)
      return Array.from({ length: 45 }, (_, index) => generator.next(new Date(Date.UTC(2026, 0, 1 + index))))
    }
    const emails = generate(42)
    expect(new Set(emails.map((email) => email.from.address)).size).toBeGreaterThanOrEqual(8)
    expect(new Set(emails.map((email) => email.kind))).toEqual(
      new Set(['online-order', 'invoice', 'web-lead', 'shipping-update', 'bank-alert', 'hotel-booking', 'restaurant-booking', 'payment-received', 'shop-order', 'support-ticket', 'flight-booking']),
    )
    expect(generate(42).map((email) => email.subject)).toEqual(emails.map((email) => email.subject))
    expect(generate(7).map((email) => email.subject)).not.toEqual(emails.map((email) => email.subject))

    const invoice = emails.find((email) => email.kind === 'invoice')!
    const parsed = await PostalMime.parse(demoEmailToRfc822(invoice, 'demo@mailrow.test', new Date(Date.UTC(2026, 0, 2)), 1))
    expect(parsed.subject).toBe(invoice.subject)
    expect(parsed.text).toContain('Amount due:')
    expect(parsed.html).toContain('<table')
    expect(parsed.attachments[0]).toMatchObject({ mimeType: 'text/csv', filename: expect.stringMatching(/^INV-\d{4}-\d{4}\.csv$/) })
  })

  it('arrive spread over recent weeks, before now', () => {
    const now = Date.UTC(2026, 5, 1)
    const times = demoArrivalTimes(45, now, 42).map((date) => date.getTime())
    expect(times.every((time) => time < now && time > now - 29 * 86_400_000)).toBe(true)
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(14 * 86_400_000)
  })
})

describe('demo mode', () => {
  let t: TestEmulator
  beforeAll(async () => {
    t = await startTestEmulator({ demo: true, demoIntervalMs: 0 })
  })
  afterAll(() => t.close())

  it('loads 45 notifications into the demo account and a few into the second account', async () => {
    const { body } = await t.control('GET', '/mailboxes')
    const counts = Object.fromEntries(body.mailboxes.map((mailbox: any) => [mailbox.email, mailbox.messagesTotal]))
    expect(counts).toEqual({ 'demo@mailrow.test': 45, 'other@mailrow.test': 5 })
    const gmail = t.gmailFor(await t.authorizedClient('demo@mailrow.test'))
    const { data } = await gmail.users.messages.list({ userId: 'me', q: 'from:harborbank.test newer_than:30d' })
    expect(data.resultSizeEstimate).toBeGreaterThanOrEqual(4)
    const invoices = await gmail.users.messages.list({ userId: 'me', q: 'from:brightpath.test has:attachment' })
    const invoice = await gmail.users.messages.get({ userId: 'me', id: invoices.data.messages![0]!.id! })
    expect(invoice.data.payload!.parts!.map((part) => [part.partId, part.mimeType])).toEqual([
      ['0', 'multipart/alternative'],
      ['1', 'text/csv'],
    ])
    expect(invoice.data.payload!.parts![1]!.body!.attachmentId).toBeTruthy()
    const labels = await gmail.users.labels.list({ userId: 'me' })
    expect(labels.data.labels!.filter((label) => label.type === 'user').map((label) => label.name).sort()).toEqual(['Finance', 'Leads', 'Orders', 'Travel'])
  })

  it('delivers another notification on demand and on its interval', async () => {
    const { status, body } = await t.control('POST', '/demo/deliver')
    expect(status).toBe(201)
    expect(body.labelIds).toContain('UNREAD')
    await t.control('POST', '/demo', { intervalMs: 5, running: true })
    // Wait on the condition, not on time: the mailbox grows by itself.
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const mailbox = await t.control('GET', '/mailboxes/demo@mailrow.test')
      if (mailbox.body.messagesTotal >= 48) break
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    await t.control('POST', '/demo', { running: false })
    expect((await t.control('GET', '/mailboxes/demo@mailrow.test')).body.messagesTotal).toBeGreaterThanOrEqual(48)
  })
})
