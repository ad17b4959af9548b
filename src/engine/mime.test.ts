import { describe, expect, it } from 'vitest'
import { parseEmail } from './mime'
import { eml } from './testing/eml'

describe('parseEmail', () => {
  it('normalises headers, both bodies and attachments', async () => {
    const raw = eml({
      subject: '=?UTF-8?B?w5xiZXIgZGllIEJlc3RlbGx1bmc=?=',
      text: 'Total: $25.00',
      html: '<p>Total: <b>$25.00</b></p>',
      attachments: [{ filename: 'invoice.pdf', mimeType: 'application/pdf', content: new TextEncoder().encode('%PDF-1.4 test') }],
    })
    const result = await parseEmail(raw)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const { email } = result
    expect(email.subject).toBe('Über die Bestellung')
    expect(email.from).toBe('Sender <sender@example.com>')
    expect(email.to).toEqual(['you@example.com'])
    expect(email.date).toBe('2024-02-05T10:00:00.000Z')
    expect(email.messageId).toBe('<test@example.com>')
    expect(email.text?.trim()).toBe('Total: $25.00')
    expect(email.html).toContain('<b>$25.00</b>')
    expect(email.attachments).toMatchObject([{ filename: 'invoice.pdf', mimeType: 'application/pdf', size: 13 }])
    expect(new TextDecoder().decode(email.attachments[0]!.content)).toBe('%PDF-1.4 test')
    expect(email.warnings).toEqual([])
  })

  it('decodes quoted-printable and base64 bodies in their charsets', async () => {
    const qp = 'From: a@example.com\r\nSubject: x\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nCaf=E9 cr=E8me, total =\r\n=E2=82=AC5\r\n'
    const qpResult = await parseEmail(Buffer.from(qp, 'latin1'))
    expect(qpResult.ok && qpResult.email.text).toContain('Café crème, total â\u0082¬5')
    const b64 = `From: a@example.com\r\nSubject: x\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.from('<p>Zoë €5</p>').toString('base64')}\r\n`
    const b64Result = await parseEmail(b64)
    expect(b64Result.ok && b64Result.email.html).toBe('<p>Zoë €5</p>')
  })

  it('recovers UTF-8 text declared in an unknown charset, with a warning', async () => {
    const raw = Buffer.from('From: a@example.com\r\nSubject: x\r\nContent-Type: text/plain; charset=x-klingon\r\nContent-Transfer-Encoding: 8bit\r\n\r\nCafé total €5\r\n')
    const result = await parseEmail(raw)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.email.text?.trim()).toBe('Café total €5')
    expect(result.email.warnings).toEqual(['unknown charset "x-klingon"'])
  })

  it('reads charsets from MIME headers only, not from a quoted-printable <meta> in the body', async () => {
    const raw = 'From: a@example.com\r\nSubject: x\r\nContent-Type: text/html;\r\n charset="utf-8"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<meta content=3D"text/html; charset=3DUTF-8"><p>Caf=C3=A9</p>\r\n'
    const result = await parseEmail(raw)
    expect(result.ok && result.email.warnings).toEqual([])
    expect(result.ok && result.email.html).toContain('<p>Café</p>')
  })

  it('flags a multipart message that was cut off', async () => {
    const raw = 'From: a@example.com\r\nSubject: x\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nTotal: $5.00\r\n--b\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n\r\nPGI+SGVsbG88L2I+IFRvdGFs'
    const result = await parseEmail(raw)
    expect(result.ok && result.email.warnings).toEqual(['the message looks truncated (its multipart has no closing boundary)'])
  })

  it.each([
    ['empty input', '', 'the message is empty'],
    ['plain words', 'hello world, this is not an email', 'not an RFC 822 message: it does not start with a header'],
    ['a header-like line of nothing known', 'Foo: bar\r\n\r\nbody', 'not an RFC 822 message: no known header (From, Subject, Date, Content-Type…)'],
  ])('rejects %s with a reason', async (_, raw, reason) => {
    expect(await parseEmail(raw)).toEqual({ ok: false, reason })
  })

  it('rejects binary garbage', async () => {
    const garbage = new Uint8Array(64 * 1024)
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919 + 13) % 256
    const result = await parseEmail(garbage)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.reason).toMatch(/^not an RFC 822 message/)
  })

  it('rejects a 25 MB message without parsing it', async () => {
    const big = Buffer.alloc(25 * 1024 * 1024, 'a')
    expect(await parseEmail(big)).toEqual({ ok: false, reason: 'the message is 25.0 MB; the limit is 10 MB' })
  })

  it('rejects a message of thousands of MIME parts', async () => {
    const parts = Array.from({ length: 3000 }, (_, i) => `--b\r\nContent-Type: text/plain\r\n\r\npart ${i}\r\n`).join('')
    const result = await parseEmail(`From: a@example.com\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n${parts}--b--\r\n`)
    expect(result).toEqual({ ok: false, reason: 'the message has more than 2000 MIME parts' })
  })
})
