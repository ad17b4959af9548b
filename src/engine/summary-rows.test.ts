import { describe, expect, it } from 'vitest'
import { runParser, trainParser } from './extract'

const order = (items: Array<[string, number, string]>, tax: string, total: string) =>
  [
    'From: Northwind Outfitters <orders@northwind.test>',
    'Subject: Your order',
    'Content-Type: text/html; charset=utf-8',
    '',
    `<table><tr><th>Item</th><th>Qty</th><th>Price</th></tr>${items.map(([name, qty, price]) => `<tr><td>${name}</td><td>${qty}</td><td>${price}</td></tr>`).join('')}` +
      `<tr><td>Shipping</td><td></td><td>Free</td></tr><tr><td>Tax</td><td></td><td>${tax}</td></tr><tr><td>Total</td><td></td><td>${total}</td></tr></table>`,
  ].join('\r\n')

describe('summary rows under a line-item table', () => {
  it("reads 'Total | | $x' by its label, not as a column under the row above", async () => {
    const trained = await trainParser(order([['Daypack', 2, '$178.00'], ['Mug', 1, '$16.00']], '$16.01', '$210.01'), [{ name: 'Total', value: '$210.01' }])
    if (!trained.ok) throw new Error(trained.reason)
    const result = await runParser(trained.template, order([['Tent', 1, '$150.00'], ['Stove', 1, '$17.48']], '$13.82', '$181.30'))
    expect(result.fields.Total).toBe('$181.30')
  })
})
