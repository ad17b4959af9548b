import { describe, expect, it } from 'vitest'
import type { ExtractionField } from '../shared/contracts/extraction'
import { createLazyDocs, normalisePlainText } from './doc'
import { htmlToText } from './html-to-text'
import { extractField, learnTemplate, type Docs, type Template } from './template'

function docs(bodies: { html?: string; text?: string; subject?: string }): Docs {
  const sources: Record<string, () => string> = {}
  if (bodies.html !== undefined) {
    const r = htmlToText(bodies.html)
    if (!r.ok) throw new Error(r.reason)
    sources.html = () => r.text
  }
  if (bodies.text !== undefined) sources.text = () => normalisePlainText(bodies.text!)
  if (bodies.subject !== undefined) sources.subject = () => bodies.subject!
  return createLazyDocs(sources)
}

/** Learns from a sample, then extracts every field from each target. */
function run(sample: Parameters<typeof docs>[0], fields: ExtractionField[], ...targets: Array<Parameters<typeof docs>[0]>) {
  const template: Template = JSON.parse(JSON.stringify(learnTemplate(docs(sample), fields)))
  return targets.map((t) => {
    const d = docs(t)
    return Object.fromEntries(template.fields.map((f) => [f.name, extractField(f, d)?.value ?? null]))
  })
}

describe('template learner', () => {
  it('finds values by their labels when values change length and form', () => {
    const sample = { text: "Order number: 1001\nCustomer: Amy Lee\nTotal: $5.00\nDate: Feb 5, 2024" }
    const fields = [
      { name: 'Order', value: '1001' },
      { name: 'Customer', value: 'Amy Lee' },
      { name: 'Total', value: '$5.00' },
      { name: 'Date', value: 'Feb 5, 2024' },
    ]
    const [got] = run(sample, fields, { text: "Order number: 20394857\nCustomer: Zoë O'Brien-Łukasiewicz\nTotal: $12,345.67\nDate: Dec 25, 2024" })
    expect(got).toEqual({ Order: '20394857', Customer: "Zoë O'Brien-Łukasiewicz", Total: '$12,345.67', Date: 'Dec 25, 2024' })
  })

  it('learns from HTML and reads a plain-text email of the same sender', () => {
    const sample = { html: '<table><tr><td>Amount due</td><td><b>$25.00</b></td></tr><tr><td>Due date</td><td>Mar 8, 2024</td></tr></table>' }
    const fields = [
      { name: 'Amount', value: '$25.00' },
      { name: 'Due', value: 'Mar 8, 2024' },
    ]
    const [got] = run(sample, fields, { text: 'Amount due: $1,210.50\nDue date: Apr 12, 2024' })
    expect(got).toEqual({ Amount: '$1,210.50', Due: 'Apr 12, 2024' })
  })

  it('reads a label on the line above its value', () => {
    const sample = { html: '<p><b>Tracking number</b></p><p>1Z999AA10123456784</p><p><b>Carrier</b></p><p>UPS</p>' }
    const fields = [
      { name: 'Tracking', value: '1Z999AA10123456784' },
      { name: 'Carrier', value: 'UPS' },
    ]
    const [got] = run(sample, fields, { html: '<p><b>Tracking number</b></p><p>9400111899223100001234</p><p><b>Carrier</b></p><p>USPS Priority</p>' })
    expect(got).toEqual({ Tracking: '9400111899223100001234', Carrier: 'USPS Priority' })
  })

  it('takes every row of a line-item table under its header, and no summary row', () => {
    const table = (rows: string[][]) =>
      `<table><tr><th>Item</th><th>Qty</th><th>Price</th></tr>${rows.map((r) => `<tr><td>${r[0]}</td><td>${r[1]}</td><td>${r[2]}</td></tr>`).join('')}<tr><td colspan="2">Total</td><td>$9.00</td></tr></table>`
    const sample = { html: table([['Blue Widget', '2', '$4.00']]) }
    const fields = [
      { name: 'Item', value: 'Blue Widget' },
      { name: 'Price', value: '$4.00' },
      { name: 'Total', value: '$9.00' },
    ]
    const [got] = run(sample, fields, { html: table([['Crème Brûlée Torch', '1', '$30.00'], ["Kids' T-Shirt, Size 8", '3', '$1,050.00'], ['Desk Lamp', '1', '$5.00']]) })
    expect(got).toEqual({ Item: "Crème Brûlée Torch\nKids' T-Shirt, Size 8\nDesk Lamp", Price: '$30.00\n$1,050.00\n$5.00', Total: '$9.00' })
  })

  it('reads a list whose sample had one item, because it is marked as a list', () => {
    const sample = { text: 'Passengers:\n1. Zoë O\'Brien\n\nFlight: LH 123' }
    const [got] = run(sample, [{ name: 'Passengers', value: "Zoë O'Brien" }], { text: 'Passengers:\n1. Amy Lee\n2. José Álvarez\n3. Li Wei\n\nFlight: LH 9' })
    expect(got).toEqual({ Passengers: 'Amy Lee\nJosé Álvarez\nLi Wei' })
  })

  it('gives null for an optional line that is missing, not its neighbour', () => {
    const sample = { text: 'Subtotal: $20.00\nDiscount (SAVE10): -$2.00\nShipping: $5.00\nTotal: $23.00' }
    const fields = [
      { name: 'Discount', value: '-$2.00' },
      { name: 'Total', value: '$23.00' },
    ]
    const [got] = run(sample, fields, { text: 'Subtotal: $20.00\nShipping: $5.00\nTotal: $25.00' })
    expect(got).toEqual({ Discount: null, Total: '$25.00' })
  })

  it('tells apart labels that share a word', () => {
    const sample = { text: 'Order number: 112-4839201\nTracking number: 1Z999AA1' }
    const fields = [{ name: 'Tracking', value: '1Z999AA1' }]
    const [got] = run(sample, fields, { text: 'Order number: 998-1234567\nTracking number: 940011189922' })
    expect(got).toEqual({ Tracking: '940011189922' })
  })

  it('reads values inside a sentence', () => {
    const sample = { text: "A purchase of $45.20 was made on your card ending in 1234 at JOE'S PIZZA & GRILL on 03/04/2024." }
    const fields = [
      { name: 'Amount', value: '$45.20' },
      { name: 'Card', value: '1234' },
      { name: 'Merchant', value: "JOE'S PIZZA & GRILL" },
      { name: 'Date', value: '03/04/2024' },
    ]
    const [got] = run(sample, fields, { text: 'A purchase of $5.00 was made on your card ending in 9876 at STARBUCKS #1234 on 12/31/2024.' })
    expect(got).toEqual({ Amount: '$5.00', Card: '9876', Merchant: 'STARBUCKS #1234', Date: '12/31/2024' })
  })

  it('uses the highlight context when the value appears more than once', () => {
    const sample = { text: 'Subtotal: $10.00\nTotal: $10.00' }
    const [byContext] = run(sample, [{ name: 'Total', value: '$10.00', context: { before: 'Total:' } }], { text: 'Subtotal: $10.00\nTotal: $15.00' })
    const [byOccurrence] = run(sample, [{ name: 'Total', value: '$10.00', context: { occurrence: 1 } }], { text: 'Subtotal: $10.00\nTotal: $15.00' })
    expect(byContext).toEqual({ Total: '$15.00' })
    expect(byOccurrence).toEqual({ Total: '$15.00' })
  })

  it('reads a multi-line value up to the next label', () => {
    const sample = { text: 'Message:\nHi,\nplease call me.\nBudget: $5,000' }
    const [got] = run(sample, [{ name: 'Message', value: 'Hi,\nplease call me.' }], { text: 'Message:\nHello there,\nwe need 3 chairs.\nThanks!\nBudget: $10,000+' })
    expect(got).toEqual({ Message: 'Hello there,\nwe need 3 chairs.\nThanks!' })
  })

  it('falls back to a landmark for lines without a label, such as an address', () => {
    const sample = { text: "Ship to:\nZoë O'Brien\n12 Rue de la Paix\n75002 Paris\n\nThanks!" }
    const fields = [
      { name: 'Name', value: "Zoë O'Brien" },
      { name: 'Street', value: '12 Rue de la Paix' },
      { name: 'City', value: 'Paris' },
    ]
    const [got] = run(sample, fields, { text: 'Ship to:\nJean-Luc Déjà\n4 Main Street Apt 2\n69001 Lyon\n\nThanks!' })
    expect(got).toEqual({ Name: 'Jean-Luc Déjà', Street: '4 Main Street Apt 2', City: 'Lyon' })
  })

  it('uses the subject for values the body does not show', () => {
    const sample = { subject: 'Ticket #4821 opened', text: 'A new ticket was opened.' }
    const [got] = run(sample, [{ name: 'Ticket', value: '4821' }], { subject: 'Ticket #99120 opened', text: 'A new ticket was opened.' })
    expect(got).toEqual({ Ticket: '99120' })
  })

  it('leaves a field it cannot find in the sample without rules', () => {
    const template = learnTemplate(docs({ text: 'Total: $5.00' }), [{ name: 'Missing', value: 'not in the email' }])
    expect(template.fields[0]!.rules).toEqual({})
  })
})
