import { describe, expect, it } from 'vitest'
import { AI_NOT_CONFIGURED, runParser, trainParser, type TrainedTemplate } from './extract'
import { eml } from './testing/eml'

const SAMPLE_HTML = `<h1>Order confirmed</h1><p>Hi Zo&euml;,</p>
<table><tr><td>Order number</td><td>#1001</td></tr><tr><td>Order date</td><td>February 5, 2024</td></tr>
<tr><td>Total</td><td><b>$25.00</b></td></tr><tr><td>Email</td><td>Zoe@Example.com</td></tr></table>`
const FIELDS = [
  { name: 'Customer', value: 'Zoë' },
  { name: 'Order', value: '1001' },
  { name: 'Date', value: 'February 5, 2024', type: 'date' as const },
  { name: 'Total', value: '$25.00', type: 'money' as const },
  { name: 'Email', value: 'Zoe@Example.com', type: 'email' as const },
]

async function trained(): Promise<TrainedTemplate> {
  const result = await trainParser(eml({ html: SAMPLE_HTML }), FIELDS)
  if (!result.ok) throw new Error(result.reason)
  // The server stores the template as JSON: extraction must work from the stored copy.
  return JSON.parse(JSON.stringify(result.template))
}

function target(values: { customer?: string; order?: string; date?: string; total?: string; email?: string }) {
  const row = (label: string, value?: string) => (value === undefined ? '' : `<tr><td>${label}</td><td>${value}</td></tr>`)
  return eml({
    html: `<h1>Order confirmed</h1><p>Hi ${values.customer ?? 'there'},</p><table>${row('Order number', values.order && `#${values.order}`)}${row('Order date', values.date)}${row('Total', values.total && `<b>${values.total}</b>`)}${row('Email', values.email)}</table>`,
  })
}

describe('runParser with the template parser', () => {
  it('succeeds with every field, its normalised cell, a confidence and the rule that matched', async () => {
    const template = await trained()
    const result = await runParser(template, target({ customer: "Siobhán O'Neill", order: '20394', date: 'December 25, 2024', total: '$12,345.67', email: 'SIO@example.ie' }))
    expect(result).toMatchObject({
      status: 'success',
      method: 'template',
      error: null,
      usage: null,
      fields: { Customer: "Siobhán O'Neill", Order: '20394', Date: 'December 25, 2024', Total: '$12,345.67', Email: 'SIO@example.ie' },
    })
    expect(result.details.Date).toMatchObject({ value: 'December 25, 2024', cell: '2024-12-25', rule: 'label:"order date"' })
    expect(result.details.Total).toMatchObject({ value: '$12,345.67', cell: 12345.67 })
    expect(result.details.Email!.cell).toBe('sio@example.ie')
    for (const detail of Object.values(result.details)) expect(detail.confidence).toBeGreaterThan(0.5)
  })

  it('is partial when some fields are missing, naming them', async () => {
    const result = await runParser(await trained(), target({ customer: 'Amy', order: '7', total: '$5.00' }))
    expect(result.status).toBe('partial')
    expect(result.fields).toMatchObject({ Date: null, Email: null, Total: '$5.00' })
    expect(result.details.Date).toEqual({ value: null, cell: null, confidence: 0, rule: 'none', reason: 'label "order date" not found' })
    expect(result.error).toBe('not found: Date (label "order date" not found), Email (label "email" not found)')
  })

  it('fails when no field is found', async () => {
    const result = await runParser(await trained(), eml({ text: 'Your newsletter for this week.' }))
    expect(result).toMatchObject({ status: 'failed', error: 'no field was found in this email' })
  })

  it('keeps the original text when a value does not read as its type', async () => {
    const sample = eml({ text: 'Shipping: $4.99\nTotal: $25.00' })
    const result = await trainParser(sample, [{ name: 'Shipping', value: '$4.99', type: 'money' }])
    if (!result.ok) throw new Error(result.reason)
    const unknown = await runParser(result.template, eml({ text: 'Shipping: to be confirmed\nTotal: $20.00' }))
    // A strong shape (money) rejects text that is not an amount rather than guess…
    expect(unknown.fields.Shipping).toBeNull()
    // …but a price of nothing is still the price.
    const free = await runParser(result.template, eml({ text: 'Shipping: Free\nTotal: $20.00' }))
    expect(free.fields.Shipping).toBe('Free')
    const textual = await trainParser(eml({ text: 'Shipping: Free\nTotal: $20.00' }), [{ name: 'Shipping', value: 'Free', type: 'money' }])
    if (!textual.ok) throw new Error(textual.reason)
    const paid = await runParser(textual.template, eml({ text: 'Shipping: Next week\nTotal: $25.00' }))
    expect(paid.details.Shipping).toMatchObject({ value: 'Next week', cell: 'Next week' })
    expect(paid.warnings).toContain('"Shipping": "Next week" does not read as money')
  })

  it('AI parser types without a provider deliver what the template found, and say why the rest is missing', async () => {
    const template = await trained()
    for (const parserType of ['smart_ai', 'full_ai'] as const) {
      const partial = await runParser(template, eml({ text: 'Thanks for your order!\nOrder number: #1001' }), { parserType })
      expect(partial).toMatchObject({ status: 'partial', method: 'template', error: AI_NOT_CONFIGURED, fields: { Order: '1001' } })
      expect(partial.details.Total).toMatchObject({ value: null, reason: AI_NOT_CONFIGURED })
    }
  })

  it('refuses a sample it cannot read, and fields that are not valid', async () => {
    expect(await trainParser('garbage', FIELDS)).toEqual({ ok: false, reason: 'the sample email cannot be read: not an RFC 822 message: it does not start with a header' })
    expect(await trainParser(eml({ html: SAMPLE_HTML }), [])).toEqual({ ok: false, reason: 'invalid fields: Please select at least one field to extract from emails.' })
    const unmatched = await trainParser(eml({ html: SAMPLE_HTML }), [...FIELDS, { name: 'Coupon', value: 'SPRING24' }])
    expect(unmatched.ok && unmatched.unmatched).toEqual(['Coupon'])
  })
})

describe('bad input gets a failed result with a reason, never a crash or a hang', () => {
  it('truncated MIME', async () => {
    const full = eml({ text: 'Thanks for your order!\nOrder number: #1001', html: SAMPLE_HTML })
    const result = await runParser(await trained(), full.slice(0, full.indexOf('Order number')))
    expect(result.status).toBe('failed')
    expect(result.error).toBe('no field was found in this email (the message looks truncated (its multipart has no closing boundary))')
  })

  it('malformed MIME structure', async () => {
    const nested = Array.from({ length: 60 }, (_, i) => `Content-Type: multipart/mixed; boundary=b${i}\r\n\r\n--b${i}\r\n`).join('')
    const result = await runParser(await trained(), `From: a@example.com\r\nSubject: x\r\n${nested}`)
    expect(result.status).toBe('failed')
    expect(result.error).toMatch(/^malformed MIME: /)
  })

  it('an unknown charset whose bytes are not text', async () => {
    const raw = Buffer.concat([
      Buffer.from('From: a@example.com\r\nSubject: x\r\nContent-Type: text/plain; charset=x-mac-klingon\r\nContent-Transfer-Encoding: 8bit\r\n\r\n'),
      Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0x0d, 0x0a]),
    ])
    const result = await runParser(await trained(), raw)
    expect(result.status).toBe('failed')
    expect(result.error).toBe('no field was found in this email (unknown charset "x-mac-klingon")')
  })

  it('a 25 MB message', async () => {
    const raw = Buffer.concat([Buffer.from('From: a@example.com\r\nSubject: big\r\nContent-Type: text/plain\r\n\r\n'), Buffer.alloc(25 * 1024 * 1024, 0x61)])
    const result = await runParser(await trained(), raw)
    expect(result).toMatchObject({ status: 'failed', error: 'the message is 25.0 MB; the limit is 10 MB' })
  })

  it('deeply nested HTML', async () => {
    const result = await runParser(await trained(), eml({ html: `${'<div><span>'.repeat(50_000)}Total $5.00` }))
    expect(result).toMatchObject({ status: 'failed', error: 'HTML is nested more than 1000 levels deep' })
  })

  it('hostile HTML: an unclosed comment, a megabyte attribute, entity floods and stray tags', async () => {
    const hostile = [
      `<p title="${'x'.repeat(1_000_000)}">a</p>`,
      '&amp;'.repeat(200_000),
      '</td></tr></table>'.repeat(20_000),
      `<table>${'<td>'.repeat(20_000)}`,
      '<!-- never closed',
    ].join('')
    const result = await runParser(await trained(), eml({ html: hostile }))
    expect(result.status).toBe('failed')
    expect(result.error).toBe('no field was found in this email')
  })

  it('hostile text: a megabyte line of labels, and ninety thousand short lines', async () => {
    const template = await trained()
    const oneLine = await runParser(template, eml({ text: 'Total: $1.00 Order number: x ('.repeat(35_000) }))
    expect(oneLine.status).toBe('partial')
    const manyLines = await runParser(template, eml({ text: 'Total: $1.00\nName: x (\n'.repeat(45_000) }))
    expect(manyLines).toMatchObject({ status: 'failed', error: 'the message has more than 30,000 lines of text' })
  })

  it('a hostile sample: training on a megabyte of repeated values still ends', async () => {
    const fields = [
      { name: 'Total', value: '$5.00' },
      { name: 'Name', value: 'Amy Lee' },
    ]
    for (const body of ['Total: $5.00 Name: Amy Lee (x) '.repeat(30_000), 'Total: $5.00\n'.repeat(20_000) + 'Name: Amy Lee']) {
      const trained = await trainParser(eml({ html: `<p>${body}</p>` }), fields)
      expect(trained.ok).toBe(true)
    }
  })

  it('binary garbage', async () => {
    const garbage = Buffer.alloc(2 * 1024 * 1024)
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 2654435761) >>> 24
    const result = await runParser(await trained(), garbage)
    expect(result.status).toBe('failed')
    expect(result.error).toMatch(/^not an RFC 822 message/)
  })

  it('an email without a body', async () => {
    const result = await runParser(await trained(), 'From: a@example.com\r\nSubject: only headers\r\n\r\n')
    expect(result).toMatchObject({ status: 'failed', error: 'the email has no readable body' })
  })
})
