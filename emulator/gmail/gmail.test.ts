import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { gmail_v1 } from '@googleapis/gmail'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawMessage, startTestEmulator, type TestEmulator } from '../testing/harness'
import { SCOPES } from '../oauth/scopes'

const DEMO = 'demo@mailrow.test'
const PDF = Buffer.from('%PDF-1.4\n% emulator test invoice\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')

let t: TestEmulator
let gmail: gmail_v1.Gmail
const ids: Record<string, string> = {}

function invoiceWithAttachment(): string {
  return [
    'From: Brightpath Billing <billing@brightpath.test>',
    `To: ${DEMO}`,
    'Subject: Invoice INV-7 from Brightpath',
    'Date: Tue, 12 Mar 2024 09:00:00 +0000',
    'Message-ID: <inv-7@brightpath.test>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="outer"',
    '',
    '--outer',
    'Content-Type: multipart/alternative; boundary="inner"',
    '',
    '--inner',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'Amount due: =E2=82=AC1,250.00',
    '--inner',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<p>Amount due: <b>€1,250.00</b></p>',
    '--inner--',
    '--outer',
    'Content-Type: application/pdf; name="invoice.pdf"',
    'Content-Disposition: attachment; filename="invoice.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    PDF.toString('base64'),
    '--outer--',
    '',
  ].join('\r\n')
}

beforeAll(async () => {
  t = await startTestEmulator()
  ids.amazon = (
    await t.deliver(
      DEMO,
      rawMessage({
        from: 'Amazon.com <auto-confirm@amazon.test>',
        subject: 'Your order #112-3344 has shipped',
        date: 'Sun, 10 Mar 2024 18:00:00 +0000',
        text: 'Your package with a Wireless Mouse is on the way.',
      }),
      ['INBOX', 'UNREAD', 'Online Orders'],
    )
  ).id
  ids.invoice = (await t.deliver(DEMO, invoiceWithAttachment(), ['INBOX', 'Finance'])).id
  ids.jane = (
    await t.deliver(
      DEMO,
      rawMessage({ from: 'Jane Doe <jane.doe@example.com>', subject: 'Lunch on Friday?', date: 'Thu, 14 Mar 2024 12:00:00 +0000', text: "It's been a while — let's catch up <soon>" }),
      ['INBOX'],
    )
  ).id
  ids.spam = (
    await t.deliver(DEMO, rawMessage({ from: 'Winner <win@spam.test>', subject: 'You won an invoice', date: 'Fri, 15 Mar 2024 08:00:00 +0000' }), ['SPAM'])
  ).id
  ids.cafe = (
    await t.deliver(
      DEMO,
      rawMessage({ from: '=?UTF-8?Q?Caf=C3=A9_Beans?= <hello@beans.test>', subject: '=?UTF-8?B?Q2Fmw6kgb3JkZXIg4piV?=', date: 'Wed, 13 Mar 2024 10:00:00 +0000', text: 'Thanks!' }),
      ['INBOX'],
    )
  ).id
  ids.other = (await t.deliver('other@mailrow.test', rawMessage({ to: 'other@mailrow.test', subject: 'For other only' }))).id
  gmail = t.gmailFor(await t.authorizedClient(DEMO))
})
afterAll(() => t.close())

async function search(q: string): Promise<string[]> {
  const response = await gmail.users.messages.list({ userId: 'me', q })
  return (response.data.messages ?? []).map((message) => message.id!)
}

describe('profile and labels', () => {
  it('reports the mailbox profile', async () => {
    const { data } = await gmail.users.getProfile({ userId: DEMO })
    expect(data).toMatchObject({ emailAddress: DEMO, messagesTotal: 5, threadsTotal: 5 })
    expect(data.historyId).toMatch(/^\d+$/)
  })

  it('lists system labels and user labels', async () => {
    const { data } = await gmail.users.labels.list({ userId: 'me' })
    const byName = new Map(data.labels!.map((label) => [label.name, label]))
    expect(byName.get('INBOX')).toMatchObject({ id: 'INBOX', type: 'system' })
    expect(byName.get('UNREAD')).toMatchObject({ id: 'UNREAD', type: 'system' })
    expect(byName.get('Online Orders')).toMatchObject({ type: 'user', id: expect.stringMatching(/^Label_\d+$/) })
    expect(byName.get('Finance')?.type).toBe('user')
  })
})

describe('messages.list q', () => {
  it('from: matches an address, its domain, a word of it, or the display name', async () => {
    expect(await search('from:auto-confirm@amazon.test')).toEqual([ids.amazon])
    expect(await search('from:amazon.test')).toEqual([ids.amazon])
    expect(await search('from:AMAZON')).toEqual([ids.amazon])
    expect(await search('from:"Jane Doe"')).toEqual([ids.jane])
    expect(await search('from:amaz')).toEqual([])
  })

  it('subject: matches whole words and quoted phrases, case-insensitively', async () => {
    expect(await search('subject:invoice')).toEqual([ids.invoice])
    expect(await search('subject:INVOICES')).toEqual([])
    expect(await search('subject:"order #112"')).toEqual([ids.amazon])
    expect(await search('subject:(lunch friday)')).toEqual([ids.jane])
    expect(await search('subject:café')).toEqual([ids.cafe])
  })

  it('label: matches system and user labels by name', async () => {
    expect(await search('label:online-orders')).toEqual([ids.amazon])
    expect(await search('label:Finance')).toEqual([ids.invoice])
    expect(await search('label:unread')).toEqual([ids.amazon])
    expect(await search('label:inbox')).toEqual([ids.jane, ids.cafe, ids.invoice, ids.amazon])
  })

  it('after:/before: take YYYY/MM/DD as Pacific midnight and epoch seconds as instants', async () => {
    expect(await search('after:2024/03/12 before:2024/03/14')).toEqual([ids.cafe, ids.invoice])
    expect(await search(`after:${Date.UTC(2024, 2, 13) / 1000}`)).toEqual([ids.jane, ids.cafe])
    expect(await search(`before:${Date.UTC(2024, 2, 11) / 1000}`)).toEqual([ids.amazon])
  })

  it('matches plain words and quoted phrases in the body', async () => {
    expect(await search('wireless')).toEqual([ids.amazon])
    expect(await search('"on the way"')).toEqual([ids.amazon])
    expect(await search('"the on way"')).toEqual([])
    expect(await search('1,250.00')).toEqual([ids.invoice])
  })

  it('combines terms with negation and OR, and finds attachments', async () => {
    expect(await search('label:inbox -from:amazon')).toEqual([ids.jane, ids.cafe, ids.invoice])
    expect(await search('from:jane OR from:amazon')).toEqual([ids.jane, ids.amazon])
    expect(await search('has:attachment')).toEqual([ids.invoice])
    expect(await search('is:unread')).toEqual([ids.amazon])
  })

  it('leaves spam and trash out unless asked for', async () => {
    expect(await search('subject:won')).toEqual([])
    expect(await search('in:spam')).toEqual([ids.spam])
    expect(await search('in:anywhere subject:invoice')).toEqual([ids.spam, ids.invoice])
    const { data } = await gmail.users.messages.list({ userId: 'me', q: 'subject:won', includeSpamTrash: true })
    expect(data.messages?.map((message) => message.id)).toEqual([ids.spam])
  })

  it('answers no match like Gmail: no messages field, resultSizeEstimate 0', async () => {
    const { data } = await gmail.users.messages.list({ userId: 'me', q: 'from:nobody@nowhere.test' })
    expect(data).toEqual({ resultSizeEstimate: 0 })
  })

  it('pages newest first with maxResults and pageToken', async () => {
    const first = await gmail.users.messages.list({ userId: 'me', labelIds: ['INBOX'], maxResults: 3 })
    expect(first.data.messages!.map((message) => message.id)).toEqual([ids.jane, ids.cafe, ids.invoice])
    expect(first.data.resultSizeEstimate).toBe(4)
    expect(first.data.nextPageToken).toBeTruthy()
    const second = await gmail.users.messages.list({ userId: 'me', labelIds: ['INBOX'], maxResults: 3, pageToken: first.data.nextPageToken! })
    expect(second.data.messages!.map((message) => message.id)).toEqual([ids.amazon])
    expect(second.data.nextPageToken).toBeUndefined()
  })
})

describe('messages.get', () => {
  it('format=raw returns the delivered RFC 822 as base64url, with Gmail trace headers on top', async () => {
    const { data } = await gmail.users.messages.get({ userId: 'me', id: ids.invoice!, format: 'raw' })
    expect(data.payload).toBeUndefined()
    const raw = Buffer.from(data.raw!, 'base64url').toString('utf8')
    expect(raw.startsWith(`Delivered-To: ${DEMO}\r\n`)).toBe(true)
    expect(raw.endsWith(invoiceWithAttachment())).toBe(true)
    expect(data).toMatchObject({ id: ids.invoice, threadId: ids.invoice, labelIds: ['INBOX', expect.stringMatching(/^Label_/)] })
    expect(Number(data.sizeEstimate)).toBe(Buffer.from(data.raw!, 'base64url').length)
  })

  it('format=full returns the Gmail payload tree with inline data and attachment ids', async () => {
    const { data } = await gmail.users.messages.get({ userId: 'me', id: ids.invoice! })
    const payload = data.payload!
    expect(payload).toMatchObject({ partId: '', mimeType: 'multipart/mixed', filename: '', body: { size: 0 } })
    expect(payload.headers!.find((header) => header.name === 'Subject')?.value).toBe('Invoice INV-7 from Brightpath')
    const [alternative, attachment] = payload.parts!
    expect(alternative).toMatchObject({ partId: '0', mimeType: 'multipart/alternative', body: { size: 0 } })
    const [text, html] = alternative!.parts!
    expect(text).toMatchObject({ partId: '0.0', mimeType: 'text/plain', filename: '' })
    expect(Buffer.from(text!.body!.data!, 'base64url').toString('utf8')).toBe('Amount due: €1,250.00')
    expect(text!.body!.size).toBe(Buffer.byteLength('Amount due: €1,250.00'))
    expect(html).toMatchObject({ partId: '0.1', mimeType: 'text/html' })
    expect(attachment).toMatchObject({ partId: '1', mimeType: 'application/pdf', filename: 'invoice.pdf', body: { size: PDF.length } })
    expect(attachment!.body!.data).toBeUndefined()
    expect(data.internalDate).toBe(String(Date.UTC(2024, 2, 12, 9)))
    expect(data.historyId).toMatch(/^\d+$/)

    const fetched = await gmail.users.messages.attachments.get({ userId: 'me', messageId: ids.invoice!, id: attachment!.body!.attachmentId! })
    expect(fetched.data.size).toBe(PDF.length)
    expect(Buffer.from(fetched.data.data!, 'base64url').equals(PDF)).toBe(true)
  })

  it('format=metadata returns only the asked-for headers', async () => {
    const { data } = await gmail.users.messages.get({ userId: 'me', id: ids.cafe!, format: 'metadata', metadataHeaders: ['Subject', 'From'] })
    expect(data.payload!.parts).toBeUndefined()
    expect(data.payload!.headers).toEqual([
      { name: 'From', value: 'Café Beans <hello@beans.test>' },
      { name: 'Subject', value: 'Café order ☕' },
    ])
    const minimal = await gmail.users.messages.get({ userId: 'me', id: ids.cafe!, format: 'minimal' })
    expect(minimal.data.payload).toBeUndefined()
    expect(minimal.data.labelIds).toEqual(['INBOX'])
  })

  it('escapes the snippet as Gmail does', async () => {
    const { data } = await gmail.users.messages.get({ userId: 'me', id: ids.jane!, format: 'minimal' })
    expect(data.snippet).toBe('It&#39;s been a while — let&#39;s catch up &lt;soon&gt;')
  })

  it('answers bad ids with 400, unknown ids with 404 and other users with 403', async () => {
    const invalid = await gmail.users.messages.get({ userId: 'me', id: 'not-an-id' }).catch((error) => error)
    expect(invalid.status).toBe(400)
    expect(invalid.response.data.error).toMatchObject({ code: 400, message: 'Invalid id value', status: 'INVALID_ARGUMENT' })
    const unknown = await gmail.users.messages.get({ userId: 'me', id: 'ffffffffffffffff' }).catch((error) => error)
    expect(unknown.status).toBe(404)
    expect(unknown.response.data.error).toEqual({
      code: 404,
      message: 'Requested entity was not found.',
      errors: [{ message: 'Requested entity was not found.', domain: 'global', reason: 'notFound' }],
      status: 'NOT_FOUND',
    })
    const delegated = await gmail.users.getProfile({ userId: 'other@mailrow.test' }).catch((error) => error)
    expect(delegated.status).toBe(403)
    expect(delegated.response.data.error.message).toBe(`Delegation denied for ${DEMO}`)
  })
})

describe('isolation between mailboxes', () => {
  it("never shows one user's mail to another user's token", async () => {
    const other = t.gmailFor(await t.authorizedClient('other@mailrow.test'))
    const { data } = await other.users.messages.list({ userId: 'me' })
    expect(data.messages!.map((message) => message.id)).toEqual([ids.other])
    const error = await other.users.messages.get({ userId: 'me', id: ids.invoice! }).catch((caught) => caught)
    expect(error.status).toBe(404)
  })
})

describe('scopes', () => {
  it('refuses Gmail to a token without a Gmail scope', async () => {
    const sheetsOnly = t.gmailFor(await t.authorizedClient(DEMO, [SCOPES.spreadsheets]))
    const error = await sheetsOnly.users.messages.list({ userId: 'me' }).catch((caught) => caught)
    expect(error.status).toBe(403)
    expect(error.response.data.error.errors[0].reason).toBe('insufficientPermissions')
  })

  it('limits gmail.metadata to headers and no search', async () => {
    const metadata = t.gmailFor(await t.authorizedClient(DEMO, [SCOPES.gmailMetadata]))
    const query = await metadata.users.messages.list({ userId: 'me', q: 'from:jane' }).catch((caught) => caught)
    expect(query.status).toBe(403)
    expect(query.response.data.error.message).toBe("Metadata scope does not support 'q' parameter")
    const full = await metadata.users.messages.get({ userId: 'me', id: ids.jane! }).catch((caught) => caught)
    expect(full.status).toBe(403)
    const headers = await metadata.users.messages.get({ userId: 'me', id: ids.jane!, format: 'metadata' })
    expect(headers.data.payload!.headers!.length).toBeGreaterThan(0)
  })
})

describe('history and watch', () => {
  it('lists messagesAdded since a historyId and 404s once that history is gone', async () => {
    const start = (await gmail.users.getProfile({ userId: 'me' })).data.historyId!
    const added = await t.deliver(DEMO, rawMessage({ subject: 'New order #9' }))
    const labelled = await t.control('POST', `/mailboxes/${DEMO}/messages/${ids.jane}/labels`, { add: ['STARRED'] })
    expect(labelled.status).toBe(200)

    const { data } = await gmail.users.history.list({ userId: 'me', startHistoryId: start, historyTypes: ['messageAdded'] })
    expect(data.history).toHaveLength(1)
    expect(data.history![0]).toMatchObject({
      messages: [{ id: added.id, threadId: added.threadId }],
      messagesAdded: [{ message: { id: added.id, threadId: added.threadId, labelIds: ['INBOX', 'UNREAD'] } }],
    })
    expect(Number(data.history![0]!.id)).toBeGreaterThan(Number(start))
    expect(Number(data.historyId)).toBeGreaterThan(Number(data.history![0]!.id))

    const all = await gmail.users.history.list({ userId: 'me', startHistoryId: start })
    expect(all.data.history!.map((record) => Object.keys(record).filter((key) => key !== 'id' && key !== 'messages'))).toEqual([
      ['messagesAdded'],
      ['labelsAdded'],
    ])
    const none = await gmail.users.history.list({ userId: 'me', startHistoryId: data.historyId! })
    expect(none.data.history).toBeUndefined()

    await t.control('POST', `/mailboxes/${DEMO}/history/expire`)
    const gone = await gmail.users.history.list({ userId: 'me', startHistoryId: start }).catch((error) => error)
    expect(gone.status).toBe(404)
    expect(gone.response.data.error.status).toBe('NOT_FOUND')
  })

  it('posts a Pub/Sub push notification when mail arrives after users.watch', async () => {
    const received: { body: any; headers: IncomingMessage['headers'] }[] = []
    const server: Server = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk) => (body += chunk))
      request.on('end', () => {
        received.push({ body: JSON.parse(body), headers: request.headers })
        response.writeHead(received.length === 1 ? 500 : 204).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const pushUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gmail/push`
    await t.control('POST', '/push', { url: pushUrl })

    const watch = await gmail.users.watch({ userId: 'me', requestBody: { topicName: 'projects/mailrow-test/topics/gmail', labelIds: ['INBOX'] } })
    expect(watch.data.historyId).toMatch(/^\d+$/)
    expect(Number(watch.data.expiration)).toBeGreaterThan(Date.now())

    const added = await t.deliver(DEMO, rawMessage({ subject: 'Pushed order' }))
    const { body } = await t.control('POST', '/push/flush')
    server.close()

    // The first attempt got a 500, so Pub/Sub-style retry delivered it again.
    expect(received).toHaveLength(2)
    expect(body.deliveries.at(-1)).toMatchObject({ status: 'delivered', attempts: 2, emailAddress: DEMO })
    const push = received[1]!.body
    expect(push.subscription).toBe('projects/mailrow-test/subscriptions/gmail-push')
    expect(push.message.messageId).toMatch(/^\d+$/)
    expect(push.message.publishTime).toMatch(/^\d{4}-\d\d-\d\dT/)
    const data = JSON.parse(Buffer.from(push.message.data, 'base64').toString('utf8'))
    expect(data.emailAddress).toBe(DEMO)
    const history = await gmail.users.history.list({ userId: 'me', startHistoryId: watch.data.historyId! })
    expect(history.data.history!.flatMap((record) => record.messagesAdded ?? []).map((item) => item.message!.id)).toEqual([added.id])
    expect(String(data.historyId)).toBe(history.data.history!.at(-1)!.id)

    await gmail.users.stop({ userId: 'me' })
    await t.control('POST', '/push', { url: null })
  })
})
