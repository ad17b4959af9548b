import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ExtractionField } from '../shared/contracts/extraction'
import { lineItemFields, renderEmail, runParser, trainParser, trainParserFromSamples } from './extract'
import { parseEmail, type NormalisedEmail } from './mime'
import { readByPlace } from './template'
import { buildDoc } from './doc'
import { linePattern } from './template/rules/pattern'
import { eml } from './testing/eml'

/**
 * The classes of mistakes the template learner made on senders it had never seen (issue 9),
 * each as a small sender: learned from one sample, then run on emails whose layout moves the
 * way real senders' emails do. A value is either right or absent with a reason; never wrong.
 */
async function learnAndRun(sample: string, fields: ExtractionField[], targets: string[]) {
  const trained = await trainParser(sample, fields)
  if (!trained.ok) throw new Error(trained.reason)
  expect(trained.unmatched).toEqual([])
  return Promise.all(targets.map((t) => runParser(trained.template, t)))
}

/** Learns from the sample, keeps only the one field's rules of `kind` in the text body, and runs it on the target. */
async function runWithRuleKind(sample: string, field: ExtractionField, kind: string, target: string) {
  const trained = await trainParser(sample, [field])
  if (!trained.ok) throw new Error(trained.reason)
  const learned = trained.template.fields[0]!
  learned.rules = { text: learned.rules.text!.filter((r) => r.kind === kind) }
  expect(learned.rules.text).toHaveLength(1)
  return runParser(trained.template, target)
}

const html = (body: string) => eml({ html: `<html><body>${body}</body></html>` })
const text = (body: string) => eml({ text: body })

describe('line items', () => {
  const receipt = (items: Array<[string, number, string]>, summary: Array<[string, string]>) =>
    html(
      `<p>Thanks for shopping with Fernwood.</p><table>` +
        items.map(([name, qty, price]) => `<tr><td><img src="cid:p" alt=""></td><td>${name}</td><td>×${qty}</td><td align="right">${price}</td></tr>`).join('') +
        summary.map(([label, value]) => `<tr><td></td><td colspan="2">${label}</td><td align="right">${value}</td></tr>`).join('') +
        `</table><p>Questions? Reply to this email.</p>`,
    )

  it('reads item rows without a header, with an image column and summary rows inside the table', async () => {
    const sample = receipt(
      [
        ['Linen Shirt', 2, '$80.00'],
        ['Canvas Tote', 1, '$25.00'],
      ],
      [
        ['Subtotal', '$105.00'],
        ['Shipping', '$5.00'],
        ['Total', '$110.00'],
      ],
    )
    const fields = [
      { name: 'Item', value: 'Linen Shirt' },
      { name: 'Price', value: '$80.00' },
      { name: 'Total', value: '$110.00' },
    ]
    const [one, five] = await learnAndRun(sample, fields, [
      receipt([['Wool Scarf', 1, '$45.00']], [
        ['Subtotal', '$45.00'],
        ['Shipping', '$5.00'],
        ['Total', '$50.00'],
      ]),
      receipt(
        [
          ['A', 1, '$1.00'],
          ['Bee Hat', 2, '$2.00'],
          ['Cap', 3, '$3.00'],
          ['Dune Socks', 4, '$4.00'],
          ['Eel Pin', 5, '$5.00'],
        ],
        [
          ['Subtotal', '$15.00'],
          ['Discount (WELCOME)', '-$1.50'],
          ['Shipping', '$5.00'],
          ['Total', '$18.50'],
        ],
      ),
    ])
    expect(one!.fields).toEqual({ Item: 'Wool Scarf', Price: '$45.00', Total: '$50.00' })
    expect(five!.fields).toEqual({ Item: 'A\nBee Hat\nCap\nDune Socks\nEel Pin', Price: '$1.00\n$2.00\n$3.00\n$4.00\n$5.00', Total: '$18.50' })
    expect(five!.items?.map((i) => i.Item!.value)).toEqual(['A', 'Bee Hat', 'Cap', 'Dune Socks', 'Eel Pin'])
  })

  it("reads an item's name without the variant lines under it, whether or not the sample's item had any", async () => {
    const order = (items: Array<[string, string[], number, string]>) =>
      html(
        `<h2>[Order #4411]</h2><table border="1"><thead><tr><th>Product</th><th>Quantity</th><th>Price</th></tr></thead><tbody>` +
          items
            .map(
              ([name, meta, qty, price]) =>
                `<tr><td>${name}${meta.length ? `<ul>${meta.map((m) => `<li><strong>${m.split(': ')[0]}:</strong> <p>${m.split(': ')[1]}</p></li>`).join('')}</ul>` : ''}</td><td>${qty}</td><td>${price}</td></tr>`,
            )
            .join('') +
          `</tbody><tfoot><tr><th colspan="2">Subtotal:</th><td>$9.00</td></tr><tr><th colspan="2">Total:</th><td>$9.00</td></tr></tfoot></table>`,
      )
    const fields = [
      { name: 'Product', value: 'Yoga Mat' },
      { name: 'Quantity', value: '2', context: { before: 'Yoga Mat' } },
    ]
    const [target] = await learnAndRun(order([['Yoga Mat', [], 2, '$4.00']]), fields, [
      order([
        ['Smart Plug', ['Size: L', 'Color: Black'], 1, '$1.00'],
        ['Desk Lamp', [], 3, '$3.00'],
        ['Wool Socks', ['Size: M'], 4, '$4.00'],
      ]),
    ])
    expect(target!.fields).toEqual({ Product: 'Smart Plug\nDesk Lamp\nWool Socks', Quantity: '1\n3\n4' })
    expect(target!.status).toBe('success')
  })

  it('reads items that are each their own table, "Name × 2" with or without a variant line', async () => {
    const order = (items: Array<[string, number, string, string]>) =>
      html(
        `<h3>Order summary</h3>` +
          items
            .map(([name, qty, variant, price]) => `<table><tr><td><img src="cid:p" width="60"></td><td><span>${name}&nbsp;&times;&nbsp;${qty}</span><br/>${variant ? `<span>${variant}</span><br/>` : ''}</td><td><p>${price}</p></td></tr></table>`)
            .join('') +
          `<table><tr><td>Subtotal</td><td>$9.00</td></tr><tr><td>Total</td><td>$9.00 USD</td></tr></table>`,
      )
    const fields = [
      { name: 'Item', value: 'Garden Hose' },
      { name: 'Item Price', value: '$14.34' },
    ]
    const [target] = await learnAndRun(
      order([
        ['Garden Hose', 3, '', '$14.34'],
        ['Desk Chair', 2, 'Oak', '$240.00'],
      ]),
      fields,
      [
        order([
          ['Wool Socks', 1, 'Medium / Blue', '$7.00'],
          ['Lamp', 2, '', '$30.00'],
          ['Plug', 1, 'One size', '$2.00'],
        ]),
      ],
    )
    expect(target!.fields).toEqual({ Item: 'Wool Socks\nLamp\nPlug', 'Item Price': '$7.00\n$30.00\n$2.00' })
  })

  it('reads items laid out as blocks of lines when some items have a line the others do not', async () => {
    type Item = { name: string; seller: string; used: boolean; qty: number; price: string }
    const order = (items: Item[]) =>
      text(
        `Order # 112-0000000-0000000\n\n` +
          items.map((i) => [i.name, `Sold by: ${i.seller}`, ...(i.used ? ['Condition: Used - Like New'] : []), `Quantity: ${i.qty}`, i.price].join('\n')).join('\n') +
          `\n\nOrder Total: $99.00`,
      )
    const fields = [
      { name: 'Item', value: 'Screwdriver Set' },
      { name: 'Seller', value: 'Initech' },
      { name: 'Quantity', value: '1', context: { before: 'Quantity: ' } },
      { name: 'Price', value: '$4.05' },
    ]
    const sample = order([
      { name: 'Screwdriver Set', seller: 'Initech', used: true, qty: 1, price: '$4.05' },
      { name: 'Smart Plug', seller: 'Acme Corp', used: false, qty: 2, price: '$30.66' },
    ])
    const [three] = await learnAndRun(sample, fields, [
      order([
        { name: 'Desk Lamp', seller: 'Zeta Labs', used: false, qty: 3, price: '$12.00' },
        { name: 'Wool Socks', seller: 'Blue Fern', used: true, qty: 1, price: '$7.50' },
        { name: 'Garden Hose', seller: 'Initech', used: false, qty: 2, price: '$25.00' },
      ]),
    ])
    expect(three!.fields).toEqual({ Item: 'Desk Lamp\nWool Socks\nGarden Hose', Seller: 'Zeta Labs\nBlue Fern\nInitech', Quantity: '3\n1\n2', Price: '$12.00\n$7.50\n$25.00' })
    expect(three!.status).toBe('success')
  })

  it("skips an item's modifier rows ('+ Extra cheese', with or without a price) and reads the items after them", async () => {
    const receipt = (items: Array<[string, number, string, Array<[string, string]>]>) =>
      html(
        `<p>Blue Door Café</p><table>` +
          items
            .map(([name, qty, price, mods]) => `<tr><td>${name} × ${qty}</td><td>${price}</td></tr>` + mods.map(([m, p]) => `<tr><td>+ ${m}</td><td>${p}</td></tr>`).join(''))
            .join('') +
          `<tr><td>Subtotal</td><td>$50.00</td></tr><tr><td>Total</td><td>$54.00</td></tr></table>`,
      )
    const fields = [
      { name: 'Item', value: 'Classic Burger' },
      { name: 'Item Price', value: '$24.00' },
    ]
    const [got] = await learnAndRun(
      receipt([
        ['Classic Burger', 2, '$24.00', [['Extra cheese', '$2.00']]],
        ['Flat White', 1, '$4.50', []],
      ]),
      fields,
      [
        receipt([
          ['Veggie Bowl', 1, '$12.00', [['No onions', '']]],
          ['Caesar Salad', 2, '$22.00', [['Add bacon', '$3.00'], ['Gluten-free bun', '']]],
          ['Brownie', 1, '$5.00', []],
        ]),
      ],
    )
    expect(got!.fields).toEqual({ Item: 'Veggie Bowl\nCaesar Salad\nBrownie', 'Item Price': '$12.00\n$22.00\n$5.00' })
  })

  it("reads a value on an item's sub-line (SKU under the name, options after it), and calls a list with items missing it partial", async () => {
    const order = (items: Array<[string, string, string[], number]>) =>
      html(
        `<h1>Your Order #000012</h1><table><thead><tr><th>Items</th><th>Qty</th><th>Price</th></tr></thead>` +
          items
            .map(([name, sku, options, qty]) => `<tbody><tr><td><p>${name}</p>${sku ? `<p>SKU: ${sku}</p>` : ''}${options.length ? `<dl>${options.map((o) => `<dt>${o.split(':')[0]}</dt><dd>${o.split(':')[1]}</dd>`).join('')}</dl>` : ''}</td><td>${qty}</td><td>$10.00</td></tr></tbody>`)
            .join('') +
          `<tfoot><tr><th colspan="2">Grand Total</th><td>$30.00</td></tr></tfoot></table>`,
      )
    const fields = [
      { name: 'Product', value: 'Joust Bag' },
      { name: 'SKU', value: 'MB3' },
    ]
    const [withOptions, withoutSku] = await learnAndRun(
      order([
        ['Joust Bag', 'MB3', [], 1],
        ['Hero Hoodie', 'MH07-M-Blue', ['Size:M', 'Color:Blue'], 2],
      ]),
      fields,
      [
        order([
          ['Strive Tote', 'MB4-L-Red', ['Size:L', 'Color:Red'], 1],
          ['Yoga Strap', 'WT2', [], 3],
        ]),
        order([
          ['Strive Tote', 'MB4', [], 1],
          ['Travel Mug', '', [], 1],
        ]),
      ],
    )
    expect(withOptions!.fields).toEqual({ Product: 'Strive Tote\nYoga Strap', SKU: 'MB4-L-Red\nWT2' })
    expect(withOptions!.status).toBe('success')
    expect(withoutSku!.fields.SKU?.trim()).toBe('MB4')
    expect(withoutSku!.status).toBe('partial')
    expect(withoutSku!.details.SKU!.reason).toBe('1 of 2 items have no value')
  })

  it('reads the items after a section heading row inside the items table', async () => {
    const order = (items: Array<[string, number]>, sectionAt = -1) =>
      html(
        `<p>Your order S00042 has been confirmed.</p><table><tr><th>Products</th><th>Quantity</th><th>Amount</th></tr>` +
          items.map(([name, qty], k) => `${k === sectionAt ? '<tr><td colspan="3"><strong>Optional Products</strong></td></tr>' : ''}<tr><td>${name}</td><td>${qty}.00 Units</td><td>$${qty}0.00</td></tr>`).join('') +
          `</table><table><tr><td>Untaxed Amount</td><td>$90.00</td></tr><tr><td>Total</td><td>$99.00</td></tr></table>`,
      )
    const [got] = await learnAndRun(
      order([
        ['Desk Lamp', 2],
        ['Office Chair', 1],
      ]),
      [{ name: 'Product', value: 'Desk Lamp' }],
      [
        order(
          [
            ['Desk Lamp', 2],
            ['Monitor Arm', 1],
            ['Cable Tray', 3],
          ],
          1,
        ),
      ],
    )
    expect(got!.fields.Product).toBe('Desk Lamp\nMonitor Arm\nCable Tray')
  })

  it('keeps reading items when a column only some items fill (a discount) is filled or empty', async () => {
    const order = (items: Array<[string, string, string]>) =>
      html(
        `<h2>Order confirmation WO-1</h2><table><tr><th>Description</th><th>Qty</th><th>Discount</th><th>Total</th></tr>` +
          items.map(([name, discount, total]) => `<tr><td>${name}</td><td>2</td><td>${discount}</td><td>${total}</td></tr>`).join('') +
          `</table><table><tr><td>Net</td><td>£90.00</td></tr><tr><td>Total</td><td>£108.00</td></tr></table>`,
      )
    const fields = [
      { name: 'Description', value: 'Desk Lamp' },
      { name: 'Line Total', value: '£20.00' },
    ]
    const [got] = await learnAndRun(
      order([
        ['Desk Lamp', '', '£20.00'],
        ['Office Chair', '', '£30.00'],
      ]),
      fields,
      [
        order([
          ['Monitor Arm', '-10%', '£18.00'],
          ['Cable Tray', '', '£12.00'],
          ['Foot Rest', '-5%', '£9.50'],
        ]),
      ],
    )
    expect(got!.fields).toEqual({ Description: 'Monitor Arm\nCable Tray\nFoot Rest', 'Line Total': '£18.00\n£12.00\n£9.50' })
  })

  it('reads rows whose last cell is empty (a frequent-flyer number only some passengers have)', async () => {
    const receipt = (rows: Array<[string, string, string]>) =>
      html(
        `<p>Booking reference: QX7RTA</p><table><tr><th>Passenger</th><th>E-ticket number</th><th>Frequent flyer</th></tr>` +
          rows.map(([name, ticket, ff]) => `<tr><td>${name}</td><td>${ticket}</td><td>${ff}</td></tr>`).join('') +
          // A two-cell row in the same table whose second cell is an amount, not a ticket's text.
          `<tr><td>Fare</td><td>GBP 554.00</td></tr></table><p>Total: GBP 699.56</p>`,
      )
    const [got] = await learnAndRun(
      receipt([
        ['SMITH/TOM MR', '125-2345678901', 'BA 12345678'],
        ['LEE/ANA MRS', '125-2345678902', ''],
      ]),
      [
        { name: 'Passenger', value: 'SMITH/TOM MR' },
        { name: 'Ticket', value: '125-2345678901' },
      ],
      [
        receipt([
          ['WEI/LI MS', '125-9000000001', ''],
          ['KHAN/YUSUF MR', '125-9000000002', 'AF 87654321'],
          ['OBRIEN/AMY MISS', '125-9000000003', ''],
        ]),
      ],
    )
    expect(got!.fields).toEqual({ Passenger: 'WEI/LI MS\nKHAN/YUSUF MR\nOBRIEN/AMY MISS', Ticket: '125-9000000001\n125-9000000002\n125-9000000003' })
  })

  it("reads items as a padded row with the item's name on the line under it, from the right occurrence of a small quantity", async () => {
    // Shopware's text mail: `1  SW10484.4  4  299,15 €  1.196,60 €`, then the name indented. The
    // quantity 4 is also the part after the dot of the article number, which is not it.
    const order = (items: Array<[string, string, number, string]>) =>
      text(
        ['Informationen zu Ihrer Bestellung:', '', 'Pos. Art.Nr.              Menge  Preis        Summe']
          .concat(items.flatMap(([sku, name, qty, sum], i) => [`${String(i + 1).padEnd(5)}${sku.padEnd(21)}${String(qty).padEnd(7)}${'9,99 €'.padEnd(13)}${sum}`, `     ${name}`, '']))
          .concat(['Versandkosten: 3,90 €', 'Gesamtkosten Brutto: 99,00 €'])
          .join('\n'),
      )
    const [got] = await learnAndRun(
      order([
        ['SW10484.4', 'Screwdriver Set', 4, '39,96 €'],
        ['SW10081', 'Desk Lamp', 3, '29,97 €'],
        ['SW10064.4', 'Garden Hose 25 ft', 1, '9,99 €'],
      ]),
      [
        { name: 'Art.Nr.', value: 'SW10484.4' },
        { name: 'Name', value: 'Screwdriver Set' },
        { name: 'Menge', value: '4' },
        { name: 'Summe', value: '39,96 €' },
      ],
      [
        order([
          ['SW10897', 'Wool Socks (3 pairs)', 2, '19,98 €'],
          ['SW10569.10', 'Espresso Beans 1 kg', 6, '59,94 €'],
          ['SW10009', "Kids' T-Shirt, Size 8", 1, '9,99 €'],
        ]),
      ],
    )
    expect(got!.fields).toEqual({
      'Art.Nr.': 'SW10897\nSW10569.10\nSW10009',
      Name: "Wool Socks (3 pairs)\nEspresso Beans 1 kg\nKids' T-Shirt, Size 8",
      Menge: '2\n6\n1',
      Summe: '19,98 €\n59,94 €\n9,99 €',
    })
  })

  describe('from a sample with one item', () => {
    it('reads every item line of an email with more, and the one of an email with one', async () => {
      const order = (items: Array<[string, number, string]>) =>
        text(
          ['Order Summary [R123456789]', '='.repeat(40)]
            .concat(items.map(([name, qty, price]) => `${name} (SKU-${name.length}) ${qty} @ ${price} = ${price}`))
            .concat(['='.repeat(40), 'Subtotal: $99.00', 'Order Total: $104.00', '', 'Thanks for your business.'])
            .join('\n'),
        )
      const [three, one] = await learnAndRun(order([['Ruby Tote', 1, '$15.99']]), [{ name: 'Item', value: 'Ruby Tote' }, { name: 'Total', value: '$104.00' }], [
        order([
          ['Spree Bag', 2, '$22.99'],
          ['Rails Mug', 1, '$9.99'],
          ['Apache Cap', 3, '$12.00'],
        ]),
        order([['Spree Bag', 2, '$22.99']]),
      ])
      expect(three!.fields).toEqual({ Item: 'Spree Bag\nRails Mug\nApache Cap', Total: '$104.00' })
      expect(three!.status).toBe('success')
      expect(one!.fields.Item).toBe('Spree Bag')
    })

    it('reads the rows of an items table without a header, whose one row in the sample sits over summary rows of its shape', async () => {
      const invoice = (items: Array<[string, string]>, tax: string) =>
        text(
          ['Invoice INV-4002', 'Billing period: Aug 1, 2025 - Aug 31, 2025', '']
            .concat(items.map(([name, amount]) => `${name}\t${amount}`))
            .concat(['', 'Subtotal:\t$738.11', 'Promotional credit:\t-$10.00', `Tax Quebec QST 9.975%:\t${tax}`, 'Total:\t$800.74'])
            .join('\n'),
        )
      const fields = [
        { name: 'Item', value: 'Pro plan (monthly)' },
        { name: 'Amount', value: '$738.11' },
        { name: 'Tax', value: '$72.63' },
      ]
      const [got] = await learnAndRun(invoice([['Pro plan (monthly)', '$738.11']], '$72.63'), fields, [
        invoice(
          [
            ['Team plan – annual', '$700.00'],
            ['Custom domain', '$38.11'],
          ],
          '$70.01',
        ),
      ])
      expect(got!.fields).toEqual({ Item: 'Team plan – annual\nCustom domain', Amount: '$700.00\n$38.11', Tax: '$70.01' })
    })

    it("reads each of an email's sentences of the form the sample showed once, and says it was not the sample's layout", async () => {
      const digest = (invoices: Array<[string, string, string]>) =>
        html(
          `<p>Hi Mary,</p><p>You have ${invoices.length} overdue invoices.</p>` +
            invoices.map(([id, who, amount]) => `<p>Invoice ${id} to ${who} for ${amount} was due on Jul 8, 2024 (31 days ago).</p><p>View invoice · Send reminder</p>`).join('') +
            `<p>You're getting this weekly summary because you're an admin.</p>`,
        )
      const fields = [
        { name: 'Invoice', value: 'INV-0273' },
        { name: 'Customer', value: "Priya O'Connor" },
        { name: 'Amount', value: '$187.79' },
      ]
      const [three, one] = await learnAndRun(digest([['INV-0273', "Priya O'Connor", '$187.79']]), fields, [
        digest([
          ['INV-0122', 'Siobhán García', '$332.00'],
          ['INV-0123', 'Café Olé Ltd.', '$12.50'],
          ['INV-0130', 'Initech', '$1,000.00'],
        ]),
        digest([['INV-0201', 'Bob Stone', '$9.99']]),
      ])
      expect(three!.fields).toEqual({ Invoice: 'INV-0122\nINV-0123\nINV-0130', Customer: 'Siobhán García\nCafé Olé Ltd.\nInitech', Amount: '$332.00\n$12.50\n$1,000.00' })
      // Read, but not as the sample showed it: the user is asked to look.
      expect(three!.status).toBe('partial')
      expect(three!.details.Invoice!.reason).toBe('the sample showed one such line, this email 3')
      expect(one!.fields).toEqual({ Invoice: 'INV-0201', Customer: 'Bob Stone', Amount: '$9.99' })
      expect(one!.status).toBe('success')
    })

    it('reads items whose price has a discount under it, where the one item of the sample had none', async () => {
      const order = (items: Array<[string, string, string]>) =>
        html(
          `<p>Order ID OD239223804030744036</p><p>${items.length} items in this order</p>` +
            items
              .map(([name, price, off]) => `<table><tr><td><img src="cid:p"></td><td><a href="#">${name}</a><p>Seller: RetailNet</p><p>Qty: 1</p></td><td><b>${price}</b>${off ? `<p><s>₹99,999</s> ${off}</p>` : ''}</td></tr></table>`)
              .join('') +
            `<table><tr><td>Amount Paid</td><td>₹542</td></tr></table><p>Payment mode: UPI</p>`,
        )
      const fields = [
        { name: 'Product', value: 'Tata Tea Gold Tea Pouch (1 kg)' },
        { name: 'Price', value: '₹539' },
      ]
      const [got] = await learnAndRun(order([['Tata Tea Gold Tea Pouch (1 kg)', '₹539', '']]), fields, [
        order([
          ['Redmi Note 13 5G (Arctic White, 128 GB)', '₹17,699', '29% off'],
          ['boAt Rockerz 450', '₹1,299', ''],
          ['Campus OXYFIT Running Shoes', '₹959', '52% off'],
        ]),
      ])
      expect(got!.fields).toEqual({ Product: 'Redmi Note 13 5G (Arctic White, 128 GB)\nboAt Rockerz 450\nCampus OXYFIT Running Shoes', Price: '₹17,699\n₹1,299\n₹959' })
    })

    it('reads a sentence that starts with a name and holds other values as the values it holds', async () => {
      const invite = (who: string, team: string) => text(`Hi,\n\n${who} (ana@example.com) invited you to join ${team} as Admin.\n\nAccept the invitation: https://app.example.com/i/1`)
      const [got] = await learnAndRun(invite('Ana Ruiz', 'Zeta Labs'), [{ name: 'Inviter', value: 'Ana Ruiz' }, { name: 'Team', value: 'Zeta Labs' }], [invite('Bob Stone', "Granny's Kitchen")])
      expect(got!.fields).toEqual({ Inviter: 'Bob Stone', Team: "Granny's Kitchen" })
    })

    it('reads blocks of a name over labelled lines and a price line, with labelled lines the sample did not have', async () => {
      const order = (items: Array<[string, string[], number, string]>) =>
        text(
          ['Order # 747-7705434-7244589', '']
            .concat(items.flatMap(([name, extra, qty, price]) => [name, `Sold by: ${name.length > 10 ? 'Peña Hermanos S.A.' : 'Blue Fern'}`, ...extra, `Quantity: ${qty}`, price]))
            .concat(['', 'Order Total: $99.00', 'This email was sent from a notification-only address.'])
            .join('\n'),
        )
      const fields = [
        { name: 'Item', value: 'Bamboo Toothbrush' },
        { name: 'Seller', value: 'Peña Hermanos S.A.' },
        { name: 'Quantity', value: '2' },
        { name: 'Price', value: '$4.09' },
      ]
      const [got] = await learnAndRun(order([['Bamboo Toothbrush', [], 2, '$4.09']]), fields, [
        order([
          ['Smart Plug', ['Condition: Used - Like New'], 1, '$300.66'],
          ['Desk Lamp', [], 3, '$12.00'],
          ['Chef Knife', ['Gift wrap: Yes', 'Condition: New'], 1, '$45.50'],
        ]),
      ])
      expect(got!.fields).toEqual({ Item: 'Smart Plug\nDesk Lamp\nChef Knife', Seller: 'Blue Fern\nBlue Fern\nBlue Fern', Quantity: '1\n3\n1', Price: '$300.66\n$12.00\n$45.50' })
    })

    it('reads the rows of an items table whose one row in the sample had a line under it, past such lines and an old price struck through', async () => {
      const order = (items: Array<[number, string, string, boolean]>) =>
        html(
          `<p>Order SO-2024-79930</p><table><tr><th>Qty</th><th>Item</th><th>Unit price</th><th>Amount</th></tr>` +
            items.map(([qty, name, price, late]) => `<tr><td>${qty}</td><td>${name}</td><td>${price}</td><td>€99.00</td></tr>${late ? '<tr><td colspan="4">Backordered – ships separately</td></tr>' : ''}`).join('') +
            `<tr><td></td><td>Net</td><td></td><td>€112.86</td></tr><tr><td></td><td>Total</td><td></td><td>€191.42</td></tr></table><p>Questions? Reply to this email.</p>`,
        )
      const [got] = await learnAndRun(order([[22, 'Garden Hose', '€5.13', true]]), [{ name: 'Item', value: 'Garden Hose' }, { name: 'Qty', value: '22' }], [
        order([
          [20, 'Linen Napkins', '€6.20', true],
          [21, 'Wool Socks', '<s>€444.58</s> €355.66', false],
          [13, 'Notebook A5', '€76.15', true],
        ]),
      ])
      expect(got!.fields).toEqual({ Item: 'Linen Napkins\nWool Socks\nNotebook A5', Qty: '20\n21\n13' })
    })

    it("reads a payslip's earnings rows, not the deductions under their own heading after a blank line", async () => {
      const slip = (earnings: Array<[string, string]>) =>
        text(
          ['Net pay', '$319.80', '', 'Earnings', '']
            .concat(earnings.map(([name, amount]) => `${name}\t${amount}`))
            .concat(['', 'Deductions', '', '401(k)\t$20.50', '', 'Taxes', '', 'Federal & state withholding\t$69.70', '', 'View full pay stub'])
            .join('\n'),
        )
      const fields = [
        { name: 'Earning', value: 'Regular hours' },
        { name: '401(k)', value: '$20.50' },
      ]
      const [got] = await learnAndRun(slip([['Regular hours', '$410.00']]), fields, [
        slip([
          ['Regular hours', '$737.44'],
          ['PTO', '$548.88'],
        ]),
      ])
      expect(got!.fields).toEqual({ Earning: 'Regular hours\nPTO', '401(k)': '$20.50' })
    })

    it('reads blocks of labelled lines between drawn rules, one block per item', async () => {
      const rule = '-'.repeat(40)
      const order = (items: Array<[string, number, string]>) =>
        text(
          ['【ご注文内容】', '注文番号：774906-62057852', '', rule]
            .concat(items.flatMap(([name, qty, sum]) => [`商品名：${name}`, '単価：1,295円（税込）', `数量：${qty}`, `小計：${sum}`, rule]))
            .concat(['商品合計：3,885円', '合計：4,435円'])
            .join('\n'),
        )
      const fields = [
        { name: 'Item', value: '南部鉄器 急須 0.6L' },
        { name: 'Quantity', value: '3' },
        { name: 'Line Total', value: '3,885円' },
      ]
      const [got] = await learnAndRun(order([['南部鉄器 急須 0.6L', 3, '3,885円']]), fields, [
        order([
          ['北海道 昆布 200g', 2, '1,200円'],
          ['京都 抹茶ラテ 10本入', 1, '980円'],
        ]),
      ])
      expect(got!.fields).toEqual({ Item: '北海道 昆布 200g\n京都 抹茶ラテ 10本入', Quantity: '2\n1', 'Line Total': '1,200円\n980円' })
    })

    it("reads passenger rows under a header from a sample whose one row has an empty last cell, and does not offer items per row for it", async () => {
      const receipt = (rows: Array<[string, string, string]>) =>
        html(
          `<p>Booking reference: QX7RTA</p><table><tr><th>Passenger</th><th>E-ticket number</th><th>Frequent flyer</th></tr>` +
            rows.map(([name, ticket, ff]) => `<tr><td>${name}</td><td>${ticket}</td><td>${ff}</td></tr>`).join('') +
            `</table><h2>Flights</h2><p>BA 117 London - New York</p>`,
        )
      const fields = [
        { name: 'Passenger', value: 'SMITH/TOM MR' },
        { name: 'Ticket', value: '125-2345678901' },
      ]
      const trained = await trainParser(receipt([['SMITH/TOM MR', '125-2345678901', '']]), fields)
      if (!trained.ok) throw new Error(trained.reason)
      expect(lineItemFields(trained.template)).toEqual([])
      const got = await runParser(
        trained.template,
        receipt([
          ['WEI/LI MS', '125-9000000001', 'AF 87654321'],
          ['KHAN/YUSUF MR', '125-9000000002', ''],
        ]),
      )
      expect(got.fields).toEqual({ Passenger: 'WEI/LI MS\nKHAN/YUSUF MR', Ticket: '125-9000000001\n125-9000000002' })
    })
  })

  it("reads the items when the line above them in the sample was data nobody highlighted (the event's venue)", async () => {
    const order = (venue: string, tickets: Array<[string, number, string]>) =>
      html(
        `<h1>You're going to Jazz Night!</h1><p>Order #4131631</p><p><strong>Monday, October 9</strong><br/>${venue}</p><table>` +
          tickets.map(([name, qty, price]) => `<tr><td>${name} × ${qty}</td><td>${price}</td></tr>`).join('') +
          `<tr><td>Total</td><td>$351.82</td></tr></table><p>Purchased by Ana Ruiz</p>`,
      )
    const fields = [
      { name: 'Ticket', value: 'Balcony – Row C' },
      { name: 'Price', value: '$26.55' },
    ]
    const [got] = await learnAndRun(order('Civic Hall, Kraków', [['Balcony – Row C', 5, '$26.55'], ['Early Bird', 3, '$300.00']]), fields, [
      order('The Blue Room, Portland', [['Student', 6, '$8.46'], ['VIP', 2, '$2.98'], ['Table for 4', 5, '$25.70']]),
    ])
    expect(got!.fields).toEqual({ Ticket: 'Student\nVIP\nTable for 4', Price: '$8.46\n$2.98\n$25.70' })
  })

  it('reads items as a name line over a price line, a name with a colon in it too', async () => {
    const invoice = (items: Array<[string, string]>) =>
      html(`<p>Dear Ana,</p><p>Here's your invoice!</p><p><strong>Invoice 1264</strong></p>` + items.map(([name, amount]) => `<p>${name}<br/>${amount}</p>`).join('') + `<p>Peña Hermanos S.A. · 12 Market St</p>`)
    const fields = [
      { name: 'Service', value: 'Onboarding workshop' },
      { name: 'Amount', value: '$5.07' },
    ]
    const [got] = await learnAndRun(invoice([['Onboarding workshop', '$5.07'], ['API overage: 12,400 calls', '$1,399.17']]), fields, [
      invoice([['Team plan – annual', '$1,839.51'], ['Consulting, 2.5 h', '$20.00'], ['SMS credits: 1,000', '$2,413.12']]),
    ])
    expect(got!.fields).toEqual({ Service: 'Team plan – annual\nConsulting, 2.5 h\nSMS credits: 1,000', Amount: '$1,839.51\n$20.00\n$2,413.12' })
  })

  it('does not take a note over a labelled line for an item, so an email without the note has no gift message', async () => {
    const order = (gift: string | null, who: string) =>
      text(`Thanks for your order!\n\nOrder #1042\n\nDesk Lamp × 2 — $40.00\nTotal: $40.00\n\n${gift ? `Gift message:\n${gift}\n` : 'Arrives Friday\n'}Ships to: ${who}\n\nQuestions? Reply to this email.`)
    const [got] = await learnAndRun(order('Happy birthday, love from us all', 'Ana Ruiz'), [{ name: 'Gift Message', value: 'Happy birthday, love from us all' }, { name: 'Ship To', value: 'Ana Ruiz' }], [order(null, 'Bob Stone')])
    expect(got!.fields).toEqual({ 'Gift Message': null, 'Ship To': 'Bob Stone' })
    expect(got!.status).toBe('partial')
  })

  it('does not take a sentence with a time in it for a labelled line under a note', async () => {
    const booking = (remark: string | null) =>
      text(`Booking NL408692817\n\nGuest: Ana Ruiz\n\n${remark ? `Your remarks:\n${remark}\n` : 'See you soon!\n'}Check in from 15:00, check out until 11:00. Free cancellation up to 24 hours before arrival.\n\nHelp Center · Privacy`)
    const [got] = await learnAndRun(booking('Late arrival, around midnight'), [{ name: 'Remarks', value: 'Late arrival, around midnight' }, { name: 'Guest', value: 'Ana Ruiz' }], [booking(null)])
    expect(got!.fields).toEqual({ Remarks: null, Guest: 'Ana Ruiz' })
  })

  it("reads the column headed like the field when the sample's first item shows the same amount twice (quantity 1)", async () => {
    const invoice = (items: Array<[string, number, string, string]>) =>
      html(
        `<p>Factura F2025-6267</p><table><tr><th>Concepto</th><th>Cant.</th><th>Precio</th><th>IVA</th><th>Importe</th></tr>` +
          items.map(([name, qty, price, total]) => `<tr><td>${name}</td><td>${qty}</td><td>${price}</td><td>21 %</td><td>${total}</td></tr>`).join('') +
          `</table><p>Total: 2.753,13 €</p>`,
      )
    const [got] = await learnAndRun(invoice([['Desk Lamp', 1, '978,05 €', '978,05 €'], ['Wool Socks', 2, '726,57 €', '1.453,14 €']]), [{ name: 'Importe', value: '978,05 €' }], [
      invoice([['Garden Hose', 20, '7,88 €', '157,60 €'], ['Smart Plug', 3, '10,00 €', '30,00 €']]),
    ])
    expect(got!.fields).toEqual({ Importe: '157,60 €\n30,00 €' })
  })

  it("reads an item row whose amount cell goes on with a note ('$38.43 Excl. Tax: $35.50') like the sample's rows of a bare amount", async () => {
    const order = (items: Array<[string, string, string, number]>) =>
      html(
        `<p>Thanks for your Order #1042</p><table><tr><th>SKU</th><th>Name</th><th>Price</th><th>Qty</th></tr>` +
          items.map(([sku, name, price, qty]) => `<tr><td>${sku}</td><td>${name}</td><td>${price}</td><td>${qty}</td></tr>`).join('') +
          `</table><p>Subtotal $675.79</p>`,
      )
    const [got] = await learnAndRun(
      order([
        ['SP-003-variant-2-9', 'Winter Gloves', '$28.99', 1],
        ['SP-002', 'Winter Scarf', '$23.00', 2],
      ]),
      [
        { name: 'SKU', value: 'SP-003-variant-2-9' },
        { name: 'Price', value: '$28.99' },
      ],
      [
        order([
          ['SP-015-variant-27', 'Rain Boots', '$38.43 <span>Excl. Tax: $35.50</span>', 4],
          ['BT-750-variant-3', 'Water Bottle', '$22.19 <span>Excl. Tax: $20.50</span>', 3],
        ]),
      ],
    )
    expect(got!.fields).toEqual({ SKU: 'SP-015-variant-27\nBT-750-variant-3', Price: '$38.43\n$22.19' })
  })

  it("reads a product named like a summary row ('Gift Card – Digital') with its price and quantity as an item, and ends at the summary rows", async () => {
    const receipt = (items: Array<[string, string, number, string]>) =>
      html(
        `<p>Order Number: 63914</p><table><tr><th>Name</th><th>Price</th><th>Quantity</th><th>Total</th></tr>` +
          items.map(([name, price, qty, total]) => `<tr><td>${name}</td><td>${price}</td><td>${qty}</td><td>${total}</td></tr>`).join('') +
          `<tr><td></td><td>Sub-Total:</td><td></td><td>$339.81</td></tr><tr><td></td><td>Gift card (1335-GC-5989):</td><td></td><td>-$10.00</td></tr><tr><td></td><td>Order Total:</td><td></td><td>$329.81</td></tr></table>`,
      )
    const [got] = await learnAndRun(
      receipt([
        ['Organic Cotton T-Shirt', '$20.50', 2, '$41.00'],
        ['Chef’s Knife 8"', '$62.99', 2, '$125.98'],
      ]),
      [
        { name: 'Product', value: 'Organic Cotton T-Shirt' },
        { name: 'Quantity', value: '2', context: { after: '$41.00' } },
      ],
      [
        receipt([
          ['Garden Hose 25 ft', '$40.95', 3, '$122.85'],
          ['Gift Card – Digital', '$25.00', 1, '$25.00'],
          ['Yoga Mat & Strap', '$33.00', 1, '$33.00'],
        ]),
      ],
    )
    expect(got!.fields).toEqual({ Product: 'Garden Hose 25 ft\nGift Card – Digital\nYoga Mat & Strap', Quantity: '3\n1\n1' })
  })

  it('reads the column headed like the field from a one-item sample whose amount is also the subtotal row under it', async () => {
    const invoice = (items: Array<[string, string, number, string]>, subtotal: string) =>
      html(
        `<p>Invoice INV-82332</p><table><tr><th>Item</th><th>Unit Cost</th><th>Quantity</th><th>Line Total</th></tr>` +
          items.map(([name, cost, qty, total]) => `<tr><td>${name}</td><td>${cost}</td><td>${qty}</td><td>${total}</td></tr>`).join('') +
          `<tr><td>Subtotal</td><td></td><td></td><td>${subtotal}</td></tr></table><p>View Invoice</p>`,
      )
    const [got] = await learnAndRun(invoice([['SEO Audit', '€373.00', 1, '€373.00']], '€373.00'), [{ name: 'Line Total', value: '€373.00' }], [
      invoice(
        [
          ['Logo design', '€151.00', 3, '€453.00'],
          ['Hosting', '€29.00', 1, '€29.00'],
        ],
        '€482.00',
      ),
    ])
    expect(got!.fields).toEqual({ 'Line Total': '€453.00\n€29.00' })
  })

  it('keeps reading rows past a note line between two of them, with numbers or many words in it', async () => {
    const schedule = (shifts: Array<[string, string, string, string?]>) =>
      html(
        `<p>Your schedule is ready</p><table><tr><th>Day</th><th>Time</th><th>Position</th><th>Location</th></tr>` +
          shifts.map(([day, time, position, note]) => `<tr><td>${day}</td><td>${time}</td><td>${position}</td><td>Eastgate Mall</td></tr>${note ? `<tr><td colspan="4">Note: ${note}</td></tr>` : ''}`).join('') +
          `</table><p>Total: 23.75 hrs</p>`,
      )
    const [got] = await learnAndRun(
      schedule([
        ['Mon, Mar 9', '7:15 AM – 10:15 AM', 'Deli Clerk', 'Deliveries at 7:00 – please help unload'],
        ['Wed, Mar 11', '3:15 PM – 8:15 PM', 'Cashier'],
      ]),
      [{ name: 'Position', value: 'Deli Clerk' }],
      [
        schedule([
          ['Sun, Aug 2', '12:45 PM – 9:15 PM', 'Cashier', 'Key holder: open the building & disarm the alarm'],
          ['Mon, Aug 3', '3:00 PM – 9:30 PM', 'Baker', 'Inventory count after close at 21:30'],
          ['Tue, Aug 4', '4:30 PM – 11:30 PM', 'Cashier'],
        ]),
      ],
    )
    expect(got!.fields.Position).toBe('Cashier\nBaker\nCashier')
  })

  it("reads item lines that end in an amount with its currency code, past an item's option lines and a product named with a colon", async () => {
    const invoice = (items: Array<[string, string, string[]?]>, code = ' USD') =>
      text(
        `Invoice #3505\nAmount Due: $56.57${code}\n\nInvoice Items\n\n` +
          items.map(([name, amount, options]) => [`${name} ${amount}${code}`, ...(options ?? [])].join('\n')).join('\n') +
          `\n------------------------\nSub Total: $61.93${code}\nTotal: $56.57${code}\n------------------------\n\nRegards,\nZeta Cloud`,
      )
    const [got, noCode] = await learnAndRun(
      invoice([
        ['Shared Hosting - Business - smithjones-law.de (19/11/2023 - 18/12/2023)', '$9.00'],
        ['Cloud VPS - VPS-2 - srv.ciao-bella.org', '$17.99', ['Operating System: Debian 12', 'Location: New York, US']],
        ['SSL Installation & Configuration', '$16.99'],
      ]),
      [
        { name: 'Item', value: 'Shared Hosting - Business - smithjones-law.de (19/11/2023 - 18/12/2023)' },
        { name: 'Amount', value: '$9.00 USD', type: 'money' },
      ],
      [
        invoice([
          ['Dedicated Server - Xeon E-2388G', '$587.50', ['Location: London, UK', 'Backups: Daily (7 days)', 'Additional IPs: 2']],
          ['Licenses: cPanel Solo', '$18.95'],
          ['Domain Renewal - okobikes.ca - 1 Year/s', '$12.95'],
        ]),
        invoice(
          [
            ['Site Builder Pro', '$6.00'],
            ['Daily Backups', '$3.99'],
          ],
          '',
        ),
      ],
    )
    expect(got!.fields).toEqual({ Item: 'Dedicated Server - Xeon E-2388G\nLicenses: cPanel Solo\nDomain Renewal - okobikes.ca - 1 Year/s', Amount: '$587.50 USD\n$18.95 USD\n$12.95 USD' })
    expect(got!.status).toBe('success')
    expect(noCode!.fields).toEqual({ Item: 'Site Builder Pro\nDaily Backups', Amount: '$6.00\n$3.99' })
  })

  it("reads a list of item lines past an item's option lines, with the list rule alone", async () => {
    const invoice = (items: Array<[string, string, string[]?]>) =>
      text(`Invoice #3505\n\nInvoice Items\n\n${items.map(([name, amount, options]) => [`${name} ${amount} USD`, ...(options ?? [])].join('\n')).join('\n')}\n------------------------\nTotal: $56.57 USD\n\nRegards`)
    const got = await runWithRuleKind(
      invoice([
        ['Shared Hosting - Business', '$9.00'],
        ['Cloud VPS - VPS-2', '$17.99', ['+ Email Forwarding', 'Location: New York, US']],
      ]),
      { name: 'Item', value: 'Shared Hosting - Business' },
      'list',
      invoice([
        ['Dedicated Server', '$587.50', ['Location: London, UK', 'Backups: Daily (7 days)']],
        ['Licenses: cPanel Solo', '$18.95'],
        ['Daily Backups', '$3.99'],
      ]),
    )
    expect(got.fields.Item).toBe('Dedicated Server\nLicenses: cPanel Solo\nDaily Backups')
  })

  it('calls a list cut short by a row like its items (a cell more) partial, with the list rule alone', async () => {
    const factura = (rows: string[][]) => text(`Factura F-2024-1\nCliente: Acme Corp\n\n${rows.map((r) => r.join('\t')).join('\n')}\n\nBase imponible: 100,00 €\nGracias por tu confianza`)
    const got = await runWithRuleKind(
      factura([
        ['R-622', 'Chef Knife', '2 x 9,00 €', 'IVA 21 %', '18,00 €'],
        ['R-801', 'Wool Socks', '3 x 4,00 €', 'IVA 21 %', '12,00 €'],
      ]),
      { name: 'Concepto', value: 'Chef Knife' },
      'list',
      factura([
        ['R-517', 'Garden Hose', '4 x 2,36 €', 'IVA 21 %', '9,44 €'],
        ['R-967', 'Desk Lamp', '20 x 7,88 €', 'IVA 21 %', '157,60 €', 'Oferta'],
        ['R-100', 'Blue Widget', '1 x 5,00 €', 'IVA 21 %', '5,00 €'],
      ]),
    )
    expect(got.fields.Concepto).toBe('Garden Hose')
    expect(got.status).toBe('partial')
    expect(got.details.Concepto!.reason).toMatch(/items end at a row/)
  })

  it("reads item lines where a part nobody highlighted is there on some and not others (a title's ' / Author')", async () => {
    const notice = (items: Array<[string, string | null, string, string]>) =>
      text(
        `Dear Chloé Brontë,\n\nThe following item(s) is/are currently overdue:\n\n` +
          items.map(([title, author, barcode, due]) => `${title}${author ? ` / ${author}` : ''}. Barcode: ${barcode}\tDue: ${due}`).join('\n') +
          `\n\nRenew online: https://catalog.example.org\n\nSpringfield Public Library`,
      )
    const [got] = await learnAndRun(
      notice([
        ['Where’d You Go, Bernadette', 'Maria Semple', '31537332444276', '08/01/2024'],
        ['Moana', null, '31537408697468', '08/04/2024'],
        ['Lonely Planet Iceland', 'Carolyn Bain', '31537983771469', '07/26/2024'],
      ]),
      [
        { name: 'Title', value: 'Where’d You Go, Bernadette' },
        { name: 'Barcode', value: '31537332444276' },
      ],
      [
        notice([
          ['Dune', 'Frank Herbert', '31912544276804', '09/16/2025'],
          ['Planet Earth II', null, '31912974683868', '09/19/2025'],
        ]),
      ],
    )
    expect(got!.fields).toEqual({ Title: 'Dune\nPlanet Earth II', Barcode: '31912544276804\n31912974683868' })
  })

  it("reads an item's name without its variant line when the sample's name had a discount code after it", async () => {
    const refund = (items: Array<[string, string[], number, string]>) =>
      html(
        `<h2>Refunded items</h2><table>` +
          items.map(([name, lines, qty, price]) => `<tr><td><img src="cid:p" alt=""></td><td>${name}${lines.map((l) => `<br>${l}`).join('')}</td><td>× ${qty}</td><td>${price}</td></tr>`).join('') +
          `<tr><td></td><td>Subtotal</td><td></td><td>£10.00</td></tr></table><p>Questions? Reply to this email.</p>`,
      )
    const [got] = await learnAndRun(
      refund([
        ['Enamel Camp Mug', ['SPRING15 (-£3.60)'], 2, '£20.40'],
        ['Trail Running Socks', [], 1, '£19.90'],
      ]),
      [{ name: 'Item', value: 'Enamel Camp Mug' }],
      [
        refund([
          ['Packable Down Jacket', ['Men’s / L / Black', 'HOLIDAY10 (-£19.10)'], 1, '£171.89'],
          ['Headtorch 400 lm', [], 1, '£24.00'],
        ]),
      ],
    )
    expect(got!.fields.Item).toBe('Packable Down Jacket\nHeadtorch 400 lm')
  })

  it('reads a week of days under a header whose Note column comes and goes, up to a charge row and the Total', async () => {
    const week = (days: Array<[string, string, string, string?]>, charge: string, total: [string, string]) => {
      const note = days.some(([, , , n]) => n)
      return html(
        `<p>Here is your energy use.</p><table><tr><th>Day</th><th>kWh</th><th>Cost</th>${note ? '<th>Note</th>' : ''}</tr>` +
          days.map(([day, kwh, cost, n]) => `<tr><td>${day}</td><td>${kwh}</td><td>${cost}</td>${note ? `<td>${n ?? ''}</td>` : ''}</tr>`).join('') +
          `<tr><td>Standing charge (7 days)</td><td></td><td>${charge}</td></tr><tr><td>Total</td><td>${total[0]}</td><td>${total[1]}</td></tr></table><p>Tip of the week</p>`,
      )
    }
    const [got] = await learnAndRun(
      week(
        [
          ['Mon 15 Sep', '9.9', '£2.66'],
          ['Tue 16 Sep', '10.5', '£2.82', 'Estimated'],
          ['Wed 17 Sep', '11.3', '£3.03'],
        ],
        '£3.69',
        ['31.7', '£12.20'],
      ),
      [
        { name: 'Day', value: 'Mon 15 Sep' },
        { name: 'Day kWh', value: '9.9', type: 'number' },
        { name: 'Day Cost', value: '£2.66', type: 'money' },
      ],
      [
        week(
          [
            ['Mon 4 Sep', '17.6', '£4.94'],
            ['Tue 5 Sep', '13.5', '£3.80'],
            ['Wed 6 Sep', '8.6', '£2.42'],
          ],
          '£3.33',
          ['39.7', '£14.49'],
        ),
      ],
    )
    expect(got!.fields).toEqual({ Day: 'Mon 4 Sep\nTue 5 Sep\nWed 6 Sep', 'Day kWh': '17.6\n13.5\n8.6', 'Day Cost': '£4.94\n£3.80\n£2.42' })
    expect(got!.status).toBe('success')
  })

  it("reads a sparse grid's rows (hours on some days only) like the sample's row, whichever days are empty", async () => {
    const timesheet = (rows: Array<[string, Array<number | ''>]>) =>
      html(
        `<p>Timesheet approved</p><table><tr><th>Project</th><th>Mon</th><th>Tue</th><th>Wed</th><th>Thu</th><th>Fri</th><th>Total</th></tr>` +
          rows.map(([name, days]) => `<tr><td>${name}</td>${days.map((d) => `<td>${d}</td>`).join('')}<td>${days.reduce<number>((a, d) => a + (d || 0), 0)}</td></tr>`).join('') +
          `</table><p>View timesheet</p>`,
      )
    const [got] = await learnAndRun(
      timesheet([
        ['Website Redesign', [8, '', 6.5, 7, '']],
        ['Admin', [1, 2, '', '', 1]],
      ]),
      [
        { name: 'Project', value: 'Website Redesign' },
        { name: 'Hours', value: '21.5' },
      ],
      [
        timesheet([
          ['SEO Retainer', ['', '', '', 0.25, '']],
          ['Mobile App', [5, 8, 1.5, '', '']],
          ['Training', ['', '', '', '', 2]],
        ]),
      ],
    )
    expect(got!.fields).toEqual({ Project: 'SEO Retainer\nMobile App\nTraining', Hours: '0.25\n14.5\n2' })
    expect(got!.status).toBe('success')
  })

  it("takes a one-item sample's amount from the item's row when the same amount is also another field's, labelled with that field's name", async () => {
    const timesheet = (rows: Array<[string, number]>) =>
      html(
        `<table><tr><td>Total hours</td><td>${rows.reduce((a, [, h]) => a + h, 0)}</td></tr><tr><td>Billable hours</td><td>${rows.reduce((a, [, h]) => a + h, 0)}</td></tr></table>` +
          `<table><tr><th>Project</th><th>Client</th><th>Total</th></tr>` +
          rows.map(([name, hours]) => `<tr><td>${name}</td><td>Acme</td><td>${hours}</td></tr>`).join('') +
          `</table><p>View timesheet</p>`,
      )
    const [got] = await learnAndRun(
      timesheet([['Website Redesign', 40.5]]),
      [
        { name: 'Total Hours', value: '40.5' },
        { name: 'Project', value: 'Website Redesign' },
        { name: 'Project Hours', value: '40.5' },
      ],
      [
        timesheet([
          ['SEO Retainer', 12],
          ['Mobile App', 20.5],
        ]),
      ],
    )
    expect(got!.fields).toEqual({ 'Total Hours': '32.5', Project: 'SEO Retainer\nMobile App', 'Project Hours': '12\n20.5' })
  })

  it("does not take for one field an occurrence labelled with another field's name, when both were highlighted with the same value", async () => {
    // Total hours counts leave too, which no project line shows.
    const timesheet = (total: number, project: string, hours: number) => text(`Timesheet approved\n\nTotal hours: ${total}\n\nProject\n${project} — ${hours} h\n\nView timesheet`)
    const [got] = await learnAndRun(
      timesheet(40.5, 'Website Redesign', 40.5),
      [
        { name: 'Total Hours', value: '40.5' },
        { name: 'Project', value: 'Website Redesign' },
        { name: 'Project Hours', value: '40.5' },
      ],
      [timesheet(14, 'SEO Retainer', 12)],
    )
    expect(got!.fields).toEqual({ 'Total Hours': '14', Project: 'SEO Retainer', 'Project Hours': '12' })
  })

  it('never reads part of the items as all of them when some rows have a cell more (a discount in a text mail)', async () => {
    const invoice = (rows: Array<[string, number, string, string]>) =>
      text(
        ['Factura F2025-6267', 'Cliente: Acme Corp', '']
          .concat(rows.map(([name, qty, dto, total]) => [`R-${name.length}`, name, `${qty} x 9,99 €`, ...(dto ? [dto] : []), 'IVA 21 %', total].join('\t')))
          .concat(['', 'Total: 2.753,13 €', '', 'Gracias por tu confianza.'])
          .join('\n'),
      )
    const fields = [
      { name: 'Concepto', value: 'Desk Lamp' },
      { name: 'Importe', value: '19,98 €' },
    ]
    const [cut, first] = await learnAndRun(invoice([['Desk Lamp', 2, '', '19,98 €'], ['Wool Socks', 3, '', '29,97 €']]), fields, [
      invoice([['Garden Hose', 1, '', '9,99 €'], ['Smart Plug', 2, '', '19,98 €'], ['Chef Knife', 3, '-5 %', '28,47 €']]),
      invoice([['Garden Hose', 1, '-5 %', '9,49 €'], ['Smart Plug', 2, '', '19,98 €']]),
    ])
    expect(cut!.fields.Concepto).toBe('Garden Hose\nSmart Plug')
    expect(cut!.status).toBe('partial')
    expect(cut!.details.Concepto!.reason).toBe('the items end at a row that does not read like them (2 read)')
    // A first row with the cell more is read by its cells around the extra one.
    expect(first!.fields).toEqual({ Concepto: 'Garden Hose\nSmart Plug', Importe: '9,49 €\n19,98 €' })
  })

  it('reads a price after a struck-through old price, and a price alone, as the same column', async () => {
    const order = (items: Array<[string, string]>) =>
      html(
        `<h2>Order acknowledgement</h2><table><tr><th>Qty</th><th>Item</th><th>Unit price</th></tr>` +
          items.map(([name, price], i) => `<tr><td>${i + 2}</td><td>${name}</td><td>${price}</td></tr>`).join('') +
          `<tr><td></td><td>Total</td><td>€999.00</td></tr></table>`,
      )
    const [got] = await learnAndRun(
      order([
        ['Desk Lamp', '<s>€50.00</s> €40.00'],
        ['Office Chair', '€120.00'],
      ]),
      [{ name: 'Unit Price', value: '€40.00' }],
      [
        order([
          ['Monitor Arm', '€18.00'],
          ['Cable Tray', '<s>€15.00</s> €12.00'],
          ['Foot Rest', '€9.50'],
        ]),
      ],
    )
    expect(got!.fields).toEqual({ 'Unit Price': '€18.00\n€12.00\n€9.50' })
  })

  it('ends the items at a total named with more words (Items subtotal) and reads a name without the line under it', async () => {
    const receipt = (rows: string[]) =>
      html(`<h1>Your order was delivered</h1><table><tr><td colspan="2"><b>Delivered items</b></td></tr>${rows.join('')}<tr><td>Items subtotal</td><td>$40.00</td></tr><tr><td>Total charged</td><td>$44.00</td></tr></table>`)
    const row = (name: string, price: string, under = '') => `<tr><td>1 &times; ${name}${under ? `<br><span>${under}</span>` : ''}</td><td>${price}</td></tr>`
    const [got] = await learnAndRun(
      receipt([row('Whole Milk', '$4.00'), row('Sourdough Loaf', '$6.00')]),
      [
        { name: 'Item', value: 'Whole Milk' },
        { name: 'Price', value: '$4.00' },
      ],
      [receipt([row('Greek Yogurt', '$5.00'), row('Blueberries', '$3.00', 'Replaced Strawberries')])],
    )
    expect(got!.fields).toEqual({ Item: 'Greek Yogurt\nBlueberries', Price: '$5.00\n$3.00' })
  })

  it('reads items as a name over option lines that vary in number, then the same labelled lines', async () => {
    const order = (items: Array<[string, string[], number, string]>) =>
      text(
        [
          'Thanks for your order!',
          '',
          ...items.flatMap(([name, options, qty, price]) => [name, ...options, `Quantity: ${qty}`, `Price: ${price}`, '']),
          'Subtotal: $99.00',
          'Total: $104.00',
        ].join('\n'),
      )
    const fields = [
      { name: 'Item', value: 'Linen Napkins' },
      { name: 'Quantity', value: '4', context: { before: 'Quantity: ' } },
      { name: 'Price', value: '$5.90' },
    ]
    const [got] = await learnAndRun(
      order([
        ['Linen Napkins', ['Size: L'], 4, '$5.90'],
        ['Desk Lamp', ['Size: M'], 1, '$25.00'],
        ['Garden Hose', [], 2, '$7.57'],
        ['Notebook', ['Color: Green', 'Engraving: For Mom'], 3, '$1.26'],
      ]),
      fields,
      [
        order([
          ['Wool Socks', [], 2, '$8.00'],
          ['Smart Plug', ['Color: White', 'Size: EU'], 1, '$19.00'],
          ['Paperback: Les Misérables', ['Engraving: J.D.'], 5, '$3.10'],
        ]),
      ],
    )
    expect(got!.fields).toEqual({ Item: 'Wool Socks\nSmart Plug\nPaperback: Les Misérables', Quantity: '2\n1\n5', Price: '$8.00\n$19.00\n$3.10' })
    expect(got!.status).toBe('success')
  })

  it('reads numbered items (Room 1:) from a sample with one item, and ends them at a tax row named with more words', async () => {
    const booking = (rooms: Array<[string, string]>) =>
      html(
        `<h2>Your booking is confirmed</h2><p>Check-out: Sun 2 Mar 2025 until 11:00</p><table>` +
          rooms.map(([name, price], i) => `<tr><td><b>Room ${i + 1}: ${name}</b><br>2 adults</td><td>${price}</td></tr>`).join('') +
          `<tr><td>City tax</td><td>€30.00</td></tr><tr><td><b>Total</b></td><td>€215.48</td></tr></table><p>We look forward to welcoming you.</p>`,
      )
    const [got] = await learnAndRun(
      booking([['Standard Twin', '€185.48']]),
      [
        { name: 'Room', value: 'Standard Twin' },
        { name: 'Room Price', value: '€185.48' },
      ],
      [
        booking([
          ['Economy Single', '€157.20'],
          ['Family Room (4 guests)', '€593.06'],
        ]),
      ],
    )
    expect(got!.fields).toEqual({ Room: 'Economy Single\nFamily Room (4 guests)', 'Room Price': '€157.20\n€593.06' })
  })

  it('reads blocks numbered Package 1 of 3 from a sample with one block, and an address line under a name', async () => {
    const shipped = (packages: Array<[string, string]>, name: string, place: string) =>
      html(
        `<h2>Your order #4411 has shipped</h2>` +
          packages.map(([carrier, tracking], i) => `<table><tr><td><b>Package ${i + 1} of ${packages.length}</b><br>Carrier: ${carrier}<br>Tracking number: ${tracking}<br>Desk Lamp, Smart Plug</td></tr></table>`).join('') +
          `<p>Shipping to:<br>${name}<br>${place}</p>`,
      )
    const fields = [
      { name: 'Carrier', value: 'UPS' },
      { name: 'Tracking', value: '1Z838AA14709603033' },
      { name: 'City', value: 'Austin' },
    ]
    const [got] = await learnAndRun(shipped([['UPS', '1Z838AA14709603033']], "José O'Connor", 'Austin, TX 78701'), fields, [
      shipped(
        [
          ['FedEx', '288041796763'],
          ['USPS', '9400540998000985858378'],
        ],
        'Siobhán Álvarez',
        'Portland, OR 97209',
      ),
    ])
    expect(got!.fields).toEqual({ Carrier: 'FedEx\nUSPS', Tracking: '288041796763\n9400540998000985858378', City: 'Portland' })
  })

  it('does not read summary rows of the same shape as items', async () => {
    const invoice = (items: Array<[string, string]>, rest: Array<[string, string]>) =>
      html(`<h2>Invoice</h2><table>${[...items, ...rest].map(([a, b]) => `<tr><td>${a}</td><td>${b}</td></tr>`).join('')}</table><p>Paid by card.</p>`)
    const sample = invoice(
      [
        ['Team plan (5 seats)', '$50.00'],
        ['Extra storage', '$10.00'],
      ],
      [
        ['Tax', '$6.00'],
        ['Total', '$66.00'],
      ],
    )
    const [got] = await learnAndRun(
      sample,
      [
        { name: 'Description', value: 'Team plan (5 seats)' },
        { name: 'Amount', value: '$50.00' },
        { name: 'Total', value: '$66.00' },
      ],
      [
        invoice(
          [
            ['Business plan (12 seats)', '$240.00'],
            ['Priority support', '$30.00'],
            ['Extra storage', '$10.00'],
          ],
          [
            ['Credit applied', '-$20.00'],
            ['Tax', '$26.00'],
            ['Total', '$286.00'],
          ],
        ),
      ],
    )
    expect(got!.fields).toEqual({
      Description: 'Business plan (12 seats)\nPriority support\nExtra storage',
      Amount: '$240.00\n$30.00\n$10.00',
      Total: '$286.00',
    })
  })

  it("reads a total in a table's last row as that row, not as the amount column", async () => {
    const receipt2 = (lines: Array<[string, string]>, total: string) =>
      html(`<table><tr><th>Description</th><th>Amount</th></tr>${lines.map(([a, b]) => `<tr><td>${a}</td><td>${b}</td></tr>`).join('')}<tr><td><b>Total</b></td><td><b>${total}</b></td></tr></table>`)
    const [got] = await learnAndRun(receipt2([['Pro plan', '$20.00']], '$20.00'), [{ name: 'Total', value: '$20.00', context: { before: 'Total' } }], [
      receipt2(
        [
          ['Pro plan', '$20.00'],
          ['Seats', '$8.00'],
        ],
        '$28.00',
      ),
    ])
    expect(got!.fields.Total).toBe('$28.00')
  })

  it('reads items laid out as a block per item (name, then quantity and price)', async () => {
    const order = (items: Array<[string, number, string]>) =>
      html(
        `<h1>Order confirmed</h1><p>Order #A-1042</p>` +
          items.map(([n, q, p]) => `<table><tr><td><img src="cid:x" alt=""></td><td><p><b>${n}</b></p><p>Qty: ${q} · ${p}</p></td></tr></table>`).join('') +
          `<p>Total: $99.00</p>`,
      )
    const [got] = await learnAndRun(
      order([
        ['Trail Runner', 1, '$60.00'],
        ['Socks', 3, '$12.00'],
      ]),
      [
        { name: 'Product', value: 'Trail Runner' },
        { name: 'Qty', value: '1', context: { before: 'Qty: ' } },
      ],
      [
        order([
          ['Rain Jacket', 2, '$140.00'],
          ['Cap', 1, '$15.00'],
          ['Water Bottle 750 ml', 4, '$48.00'],
        ]),
      ],
    )
    expect(got!.fields).toEqual({ Product: 'Rain Jacket\nCap\nWater Bottle 750 ml', Qty: '2\n1\n4' })
  })
})

describe('items as blocks with a line nobody highlighted', () => {
  // An app store's receipt: name, kind, a renewal line for subscriptions only, the developer (data
  // nobody highlights), the links, then the price.
  type App = [name: string, kind: string, renews: string | null, developer: string, price: string]
  const receipt = (apps: App[]) =>
    text(
      ['Receipt', 'ORDER ID', 'MN2RJC5KKB', '', 'App Store']
        .concat(apps.flatMap(([name, kind, renews, developer, price]) => [name, kind, ...(renews ? [`Renews ${renews}`] : []), developer, 'Write a Review · Report a Problem', '', price, '']))
        .concat(['Subtotal £36.64', 'TOTAL £43.97', '', 'Apple Distribution International Ltd.'])
        .join('\n'),
    )
  const sample = receipt([
    ['Tinder Dating App', 'Tinder Gold (1 Month)', '9 Mar 2025', 'Tinder Inc.', '£22.99'],
    ['Notability', 'In-App Purchase', null, 'Ginger Labs', '£14.99'],
    ['Procreate Pocket', 'iOS App', null, 'Savage Interactive Pty Ltd', '£5.99'],
  ])
  const target = receipt([
    ['Things 3', 'iOS App', null, 'Cultured Code', '£9.99'],
    ['Lensa', 'Lensa PRO (1 Week)', '4 Jun 2025', 'Prisma Labs', '£4.99'],
    ['Pixelmator Pro', 'Mac App', null, 'Pixelmator Team', '£49.99'],
  ])

  it('reads every item, whichever of its lines the value is on, when a line of data nobody highlighted differs between the items', async () => {
    const fields = [
      { name: 'Item', value: 'Tinder Dating App' },
      { name: 'Kind', value: 'Tinder Gold (1 Month)' },
      { name: 'Price', value: '£22.99' },
    ]
    const [got] = await learnAndRun(sample, fields, [target])
    expect(got!.fields).toEqual({ Item: 'Things 3\nLensa\nPixelmator Pro', Kind: 'iOS App\nLensa PRO (1 Week)\nMac App', Price: '£9.99\n£4.99\n£49.99' })
    expect(got!.status).toBe('success')
  })
})

describe('items as a name over labelled lines and an amount line', () => {
  type Product = [name: string, options: string[], qty: number, unit: string, total: string]
  const order = (products: Product[]) =>
    text(
      ['¡Hola Javier!', 'Tienes un nuevo pedido', 'Pedido #2000009824310124', '', 'Productos vendidos', '']
        .concat(products.flatMap(([name, options, qty, unit, total]) => [name, ...options, `Cantidad: ${qty}`, `Precio unitario: ${unit}`, total, '']))
        .concat(['Total de la venta: 802,99 €', 'Recibirás: 727,23 €'])
        .join('\n'),
    )
  const fields = [
    { name: 'Producto', value: 'Ratón inalámbrico Logitech MX Master 3S' },
    { name: 'Cantidad', value: '2' },
  ]

  it("reads each product whatever its option lines, a SKU line every product of the sample had included", async () => {
    const sample = order([
      ['Ratón inalámbrico Logitech MX Master 3S', ['Color: Gris pálido', 'SKU: JT-MX3S'], 2, '98,61 €', '197,22 €'],
      ['Auriculares Bluetooth Sony WH-CH520', ['Color: Azul', 'SKU: JT-SONY-520'], 1, '53,01 €', '53,01 €'],
      ['Portátil Lenovo IdeaPad 3', ['SKU: JT-LEN-IP3'], 1, '552,76 €', '552,76 €'],
    ])
    const target = order([
      ['Funda iPhone 15 Pro de silicona', ['Color: Azul tormenta'], 1, '11,36 €', '11,36 €'],
      ['Smartwatch Amazfit Bip 5', ['Color: Negro', 'SKU: JT-AMZ-B5'], 3, '76,31 €', '228,93 €'],
      ['Cable HDMI 2.1 8K trenzado (2 m)', [], 2, '8,20 €', '16,40 €'],
    ])
    const [got] = await learnAndRun(sample, fields, [target])
    expect(got!.fields).toEqual({ Producto: 'Funda iPhone 15 Pro de silicona\nSmartwatch Amazfit Bip 5\nCable HDMI 2.1 8K trenzado (2 m)', Cantidad: '1\n3\n2' })
  })
})

describe('items as blocks of label rows', () => {
  type Passenger = [type: string, name: string, ticket: string, miles: string | null]
  const booking = (passengers: Passenger[]) =>
    html(
      `<p>Booking code</p><p>3Q88FT</p><h2>Passengers</h2>` +
        passengers
          .map(
            ([type, name, ticket, miles], i) =>
              `<table><tr><td>Passenger ${i + 1}</td><td>${type}</td></tr></table><p><b>${name}</b></p><table><tr><td>Ticket number</td><td>${ticket}</td></tr>${miles ? `<tr><td>Miles &amp; More</td><td>${miles}</td></tr>` : ''}</table>`,
          )
          .join('') +
        `<h2>Price details</h2><table><tr><td>Total price</td><td>EUR 1,771.94</td></tr></table>`,
    )
  const fields = [
    { name: 'Passenger', value: 'MRS GRACE LINDSTROM' },
    { name: 'Ticket Number', value: '220-3935736485' },
  ]

  it("reads each passenger's block, known by its rows' labels, with or without a frequent-flyer row", async () => {
    const sample = booking([
      ['Adult', 'MRS GRACE LINDSTROM', '220-3935736485', '992 1165 1148 207'],
      ['Adult', 'MS HELENE LINDSTROM', '220-3935736486', '222 6907 5125 516'],
      ['Child', 'MSTR DANGELO LINDSTROM', '220-3935736487', null],
    ])
    const target = booking([
      ['Adult', 'MR OLU ZELLWEGER-SMITH', '220-2403482652', null],
      ['Adult', 'MR MATTHAUS WEI', '220-2403482653', '123 4567 8901 234'],
    ])
    const [got] = await learnAndRun(sample, fields, [target])
    expect(got!.fields).toEqual({ Passenger: 'MR OLU ZELLWEGER-SMITH\nMR MATTHAUS WEI', 'Ticket Number': '220-2403482652\n220-2403482653' })
    expect(got!.status).toBe('success')
  })
})

describe('a weekly summary: rows with a tag under some amounts, and labelled values side by side', () => {
  type Tx = [day: string, merchant: string, amount: string, pending: boolean]
  const summary = (txs: Tx[], credit: string, balance: string) =>
    html(
      `<p>Hi Zoë, here’s your week</p><p>Transactions</p><table>` +
        txs.map(([day, merchant, amount, pending]) => `<tr><td>${day}</td><td></td><td>${merchant}<br>London</td><td>${amount}${pending ? '<br>Pending' : ''}</td></tr>`).join('') +
        `</table><p>Refunds are shown in green.</p><p>Available credit</p><p>${credit}</p><p>of your £4,500.00 limit</p><p>Statement balance</p><p>${balance}</p><p>Minimum payment of £68.74 due 18 August 2024</p><p>See your spending in the app</p>`,
    )
  const fields = [
    { name: 'Merchant', value: 'Post Office' },
    { name: 'Amount', value: '£7.84' },
    { name: 'Available Credit', value: '£2,172.17' },
  ]

  it('reads every amount, tagged Pending or not, and the available credit alone, not the balance beside it', async () => {
    const sample = summary(
      [
        ['Fri 2 Aug', 'Post Office', '£7.84', true],
        ['Thu 1 Aug', 'PureGym', '£24.99', false],
        ['Mon 29 Jul', 'Trainline', '+£134.38', false],
      ],
      '£2,172.17',
      '£2,291.32',
    )
    const target = summary(
      [
        ['Sun 3 Sep', 'Timpson', '£39.15', true],
        ['Sat 2 Sep', 'Superdrug', '£18.62', true],
        ['Fri 1 Sep', 'Lidl GB', '£61.50', false],
      ],
      '£3,596.86',
      '£419.60',
    )
    const [got] = await learnAndRun(sample, fields, [target])
    expect(got!.fields).toEqual({ Merchant: 'Timpson\nSuperdrug\nLidl GB', Amount: '£39.15\n£18.62\n£61.50', 'Available Credit': '£3,596.86' })
  })
})

describe('cards whose value line takes another form in each', () => {
  type Graded = [title: string, klass: string, score: string]
  const digest = (items: Graded[]) =>
    html(
      `<p>Hi Jean-Luc, here’s a summary for José O’Connor</p><p>Graded work</p>` +
        items.map(([title, klass, score]) => `<p><b>${title}</b></p><p>${klass} · Returned Feb 7</p><p>Score</p><p>${score}</p>`).join('') +
        `<p>Missing work</p><p>Nothing is missing.</p>`,
    )
  const fields = [
    { name: 'Assignment', value: 'Homework 5.2 – Graphing Inequalities' },
    { name: 'Class', value: 'Algebra I – Period 3' },
    { name: 'Score', value: '10/10' },
  ]

  it("reads each card's score by its place, a points score, a percentage or a letter", async () => {
    const sample = digest([
      ['Homework 5.2 – Graphing Inequalities', 'Algebra I – Period 3', '10/10'],
      ['Socratic Seminar: Of Mice and Men', 'English 9 Honors – Period 1', '64%'],
      ['Photosynthesis Worksheet', 'Biology – Period 2', 'B+'],
    ])
    const target = digest([
      ['Nutrition Quiz', 'PE/Health – Period 7', '14/15'],
      ['Unit 3 Quiz: Linear Equations', 'Algebra I – Period 3', '18/20'],
      ['Artist Statement', 'Art & Design – Period 6', 'A-'],
    ])
    const [got] = await learnAndRun(sample, fields, [target])
    expect(got!.fields).toEqual({
      Assignment: 'Nutrition Quiz\nUnit 3 Quiz: Linear Equations\nArtist Statement',
      Class: 'PE/Health – Period 7\nAlgebra I – Period 3\nArt & Design – Period 6',
      Score: '14/15\n18/20\nA-',
    })
  })

  it('takes a value of another form for an item only when the forms are short tokens, not a name in one block and a phone number in the next', async () => {
    const order = (name: string, ship: [string, string, string], bill: [string, string, string, string]) =>
      html(
        `<p>Your order no.</p><p>000016122</p><p>has been successfully placed.</p><p>Shipping address</p><p>${name}</p>${ship.map((l) => `<p>${l}</p>`).join('')}` +
          `<p>Billing address</p><p>${name}</p>${bill.map((l) => `<p>${l}</p>`).join('')}<table><tr><th>Item</th><th>Qty</th></tr><tr><td>Linen tote bag</td><td>1</td></tr></table>`,
      )
    const [got] = await learnAndRun(
      order('Mary-Jane Ægirsson', ['338 Bahnhofstrasse', 'Manchester', 'UNITED KINGDOM M1 1AE'], ['07370 645736', '399 Elm Road', 'Bath', 'UNITED KINGDOM BA1 1LT']),
      [
        { name: 'Customer', value: 'Mary-Jane Ægirsson' },
        { name: 'Ship To City', value: 'Manchester' },
      ],
      [order('Søren Nguyễn', ['89 Bahnhofstrasse', 'Bristol', 'UNITED KINGDOM BS1 5TR'], ['07162 522694', '89 Bahnhofstrasse', 'Bristol', 'UNITED KINGDOM BS1 5TR'])],
    )
    expect(got!.fields.Customer ?? '').not.toContain('07162')
  })
})

describe('items as sections of a table', () => {
  type Job = [heading: string, rows: Array<[string, string, string]>, total: string]
  const invoice = (jobs: Job[]) =>
    html(
      `<p>Invoice No.: INV-004821</p><table><tr><th>Description</th><th>Qty</th><th>Unit price</th><th>Total</th></tr>` +
        jobs
          .map(
            ([heading, rows, total]) =>
              `<tr><td colspan="4"><b>${heading}</b></td></tr>` +
              rows.map(([d, q, p]) => `<tr><td>${d}</td><td>${q}</td><td>${q ? p : ''}</td><td>${p}</td></tr>`).join('') +
              `<tr><td><i>Job total</i></td><td></td><td></td><td>${total}</td></tr>`,
          )
          .join('') +
        `</table><table><tr><td>Parts total</td><td>£193.61</td></tr><tr><td>Invoice total</td><td>£520.21</td></tr></table>`,
    )

  it('reads the heading of each section, whatever rows it holds, up to the row every section ends with', async () => {
    const sample = invoice([
      ['Full service', [['Oil filter', '1', '£10.47'], ['Engine oil 5W-30 (per litre)', '5.2', '£53.35'], ['Labour 1.8 hrs @ £72.00', '', '£129.60']], '£193.42'],
      ['Replace front brake pads and discs', [['Front brake discs (pair)', '1', '£90.93'], ['Labour 1.5 hrs @ £72.00', '', '£108.00']], '£198.93'],
      ['MOT test', [['Class 4 MOT – test fee', '1', '£45.00']], '£45.00'],
    ])
    const [two, one] = await learnAndRun(sample, [{ name: 'Job', value: 'Full service' }], [
      invoice([
        ['Four-wheel alignment check and adjust', [['Labour 1.0 hrs @ £72.00', '', '£72.00']], '£72.00'],
        ['Replace front wiper blades', [['Wiper blade set (front)', '1', '£24.99'], ['Labour 0.2 hrs @ £72.00', '', '£14.40']], '£39.39'],
      ]),
      invoice([['MOT test', [['Class 4 MOT – test fee', '1', '£45.00']], '£45.00']]),
    ])
    expect(two!.fields.Job).toBe('Four-wheel alignment check and adjust\nReplace front wiper blades')
    expect(one!.fields.Job).toBe('MOT test')
  })
})

describe('two sets of cards in one email', () => {
  type Flight = [date: string, flight: string, route: string, cabin: string]
  type Passenger = [name: string, ticket: string]
  const itinerary = (flights: Flight[], passengers: Passenger[]) =>
    html(
      `<table><tr><td>Booking code</td><td>3Q88FT</td></tr><tr><td>Booking date</td><td>Sun, 25 Aug 2024</td></tr></table><p>Thank you for booking with us.</p><table><tr><td>Manage booking</td><td>Check-in</td></tr></table><h2>Your itinerary</h2>` +
        flights
          .map(
            ([date, flight, route, cabin], i) =>
              `${i === 0 ? '' : '<p>Change of planes: 1h 40min</p>'}<table><tr><td>${date}</td><td>${flight}</td></tr></table><p>${route}</p><table><tr><td>18:50</td><td>Departure • Terminal 1</td></tr><tr><td>20:45</td><td>Arrival • Terminal 2</td></tr><tr><td>Class</td><td>${cabin}</td></tr>${i % 2 ? '<tr><td>Operated by</td><td>Lufthansa CityLine</td></tr>' : ''}<tr><td>Baggage allowance</td><td>1 x 23 kg</td></tr></table>`,
          )
          .join('') +
        `<h2>Passengers</h2>` +
        passengers
          .map(
            ([name, ticket], i) =>
              `<table><tr><td>Passenger ${i + 1}</td><td>Adult</td></tr></table><p><b>${name}</b></p><table><tr><td>Ticket number</td><td>${ticket}</td></tr>${i < passengers.length - 1 ? `<tr><td>Miles &amp; More</td><td>992 1165 1148 20${i}</td></tr>` : ''}</table>`,
          )
          .join('') +
        `<h2>Price details</h2><table><tr><td>Total price</td><td>EUR 1,771.94</td></tr></table>`,
    )
  const fields = [
    { name: 'Departure Date', value: 'Sat, 5 Oct 2024' },
    { name: 'Flight', value: 'LH 7537' },
    { name: 'Route', value: 'FRA → LIS' },
    { name: 'Passenger', value: 'MRS GRACE LINDSTROM' },
    { name: 'Ticket Number', value: '220-3935736485' },
  ]

  it('reads the flights and the passengers, each set by its own cards', async () => {
    const sample = itinerary(
      [
        ['Sat, 5 Oct 2024', 'LH 7537', 'FRA → LIS', 'Economy (K)'],
        ['Fri, 11 Oct 2024', 'LH 1733', 'LIS → MUC', 'Economy (H)'],
        ['Fri, 11 Oct 2024', 'LH 103', 'MUC → FRA', 'Economy (M)'],
      ],
      [
        ['MRS GRACE LINDSTROM', '220-3935736485'],
        ['MS HELENE LINDSTROM', '220-3935736486'],
        ['MSTR DANGELO LINDSTROM', '220-3935736487'],
      ],
    )
    const target = itinerary(
      [
        ['Sat, 24 Feb 2024', 'LH 98', 'FRA → MUC', 'Business (J)'],
        ['Sat, 24 Feb 2024', 'LH 2296', 'MUC → BCN', 'Business (J)'],
      ],
      [
        ['MR OLU ZELLWEGER-SMITH', '220-2403482652'],
        ['MR MATTHAUS WEI', '220-2403482653'],
        ['MISS AMY WEI', '220-2403482654'],
      ],
    )
    const [got] = await learnAndRun(sample, fields, [target])
    expect(got!.fields).toEqual({
      'Departure Date': 'Sat, 24 Feb 2024\nSat, 24 Feb 2024',
      Flight: 'LH 98\nLH 2296',
      Route: 'FRA → MUC\nMUC → BCN',
      Passenger: 'MR OLU ZELLWEGER-SMITH\nMR MATTHAUS WEI\nMISS AMY WEI',
      'Ticket Number': '220-2403482652\n220-2403482653\n220-2403482654',
    })
  })
})

describe("cards known by a line nobody highlighted, under a heading shown only when there are several", () => {
  type Room = [type: string, price: string, guest: string, capacity: number, meal: string | null]
  const booking = (rooms: Room[]) =>
    html(
      `<p>Thanks, Hélène! Your booking in Zürich is confirmed.</p><table><tr><td>Booking number</td><td>3249.932.159</td></tr></table>` +
        rooms
          .map(
            ([type, price, guest, capacity, meal], i) =>
              `${rooms.length > 1 ? `<p><b>Room ${i + 1}</b></p>` : ''}<table><tr><td>${type}</td><td>${price}</td></tr><tr><td>Guest name: ${guest}</td><td><a href="#">Edit guest name</a></td></tr></table><p>Max capacity: ${capacity} guest${capacity > 1 ? 's' : ''}</p>${meal ? `<p>Meal plan: ${meal}</p>` : ''}`,
          )
          .join('') +
        `<p>Price</p><table><tr><td>Total price</td><td>CHF 1,186.92</td></tr></table>`,
    )
  const fields = [
    { name: 'Room Type', value: 'Classic Single Room' },
    { name: 'Guest Name', value: 'Hélène Okonkwo' },
  ]

  it('reads each room by the line every room has, with or without the numbering heading, and a guest named in the label cell', async () => {
    const sample = booking([
      ['Classic Single Room', 'CHF 696.40', 'Hélène Okonkwo', 1, 'Breakfast included'],
      ['Superior Double Room with Lake View', 'CHF 622.40', 'Åsa Ní Dhuibhir', 2, 'Half board included'],
    ])
    const [one, three] = await learnAndRun(sample, fields, [
      booking([['Deluxe Double Room with Sea View', '€ 123.20', 'Hélène Okonkwo', 2, null]]),
      booking([
        ['Superior Twin Room', '€ 917.80', 'Łukasz Wei', 2, null],
        ['Superior Twin Room', '€ 875.20', 'Renée Nguyễn', 2, 'Breakfast included'],
        ['Economy Double Room', '€ 840.00', 'Ngozi Brontë', 2, null],
      ]),
    ])
    expect(one!.fields).toEqual({ 'Room Type': 'Deluxe Double Room with Sea View', 'Guest Name': 'Hélène Okonkwo' })
    expect(three!.fields).toEqual({ 'Room Type': 'Superior Twin Room\nSuperior Twin Room\nEconomy Double Room', 'Guest Name': 'Łukasz Wei\nRenée Nguyễn\nNgozi Brontë' })
  })
})

describe('cards with a labelled line that an optional line moves', () => {
  type Sale = [title: string, order: string, price: string, discount: string | null, net: string]
  const payout = (sales: Sale[]) =>
    html(
      `<p>Bonjour Ève,</p><table><tr><td>Montant du virement</td><td>13,25 €</td></tr></table><p>Récapitulatif de vos ventes</p>` +
        sales
          .map(
            ([title, order, price, discount, net]) =>
              `<p><b>${title}</b></p><p>Commande n° ${order}<br>Vendu le 12/12/2023</p><table><tr><td>Prix de vente</td><td>${price}</td></tr>${discount ? `<tr><td>Réduction lot (10 %)</td><td>${discount}</td></tr>` : ''}<tr><td>Frais de service</td><td>0,93 €</td></tr><tr><td>Montant net</td><td>${net}</td></tr></table>`,
          )
          .join('') +
        `<table><tr><td>Total versé</td><td>13,25 €</td></tr></table><p>L’équipe Revendo</p>`,
    )
  const fields = [
    { name: 'Article', value: 'T-shirt Petit Bateau 8 ans' },
    { name: 'Commande', value: '5173-7732' },
    { name: 'Montant net', value: '3,57 €' },
  ]

  it("reads the line labelled like the sample's in each card, wherever a card's optional line puts it, though the field is named like its label", async () => {
    const sample = payout([
      ['T-shirt Petit Bateau 8 ans', '5173-7732', '4,50 €', null, '3,57 €'],
      ['Lot de 3 livres Harry Potter', '1474-8324', '10,50 €', '-1,05 €', '8,28 €'],
      ['Robe d’été fleurie Zara – 38', '2887-3307', '8,00 €', null, '6,90 €'],
    ])
    const target = payout([
      ['Veste en jean Levi’s taille M', '4821-9931', '25,00 €', '-2,50 €', '20,87 €'],
      ['Casque Bose QC35', '7310-2255', '120,00 €', null, '113,30 €'],
    ])
    const [got] = await learnAndRun(sample, fields, [target])
    expect(got!.fields).toEqual({ Article: 'Veste en jean Levi’s taille M\nCasque Bose QC35', Commande: '4821-9931\n7310-2255', 'Montant net': '20,87 €\n113,30 €' })
    expect(got!.status).toBe('success')
  })
})

describe('a table whose rows fill only some cells', () => {
  type Activity = [type: string, symbol: string, description: string, qty: string, price: string, amount: string]
  const activity = (rows: Activity[]) =>
    html(
      `<p>Account activity</p><table><tr><th>Date</th><th>Type</th><th>Symbol</th><th>Description</th><th>Quantity</th><th>Price</th><th>Amount</th></tr>` +
        rows.map((r) => `<tr><td>05/22/2024</td>${r.map((c) => `<td>${c || '&nbsp;'}</td>`).join('')}</tr>`).join('') +
        `<tr><td>Interest on cash sweep</td><td></td><td></td><td></td><td></td><td></td><td>$0.12</td></tr></table><table><tr><td>Net change in cash</td><td>$30,023.25</td></tr><tr><td>Cash balance</td><td>$57,808.99</td></tr></table>`,
    )
  const fields = [
    { name: 'Type', value: 'Buy' },
    { name: 'Symbol', value: 'KO' },
    { name: 'Quantity', value: '27' },
    { name: 'Amount', value: '($1,614.33)' },
  ]

  it('reads every row under the header, a dividend without quantity and a deposit without symbol too, and not the row after them led otherwise', async () => {
    const sample = activity([
      ['Buy', 'KO', 'COCA-COLA CO', '27', '$59.79', '($1,614.33)'],
      ['Dividend', 'JNJ', 'JOHNSON & JOHNSON', '', '', '$233.12'],
      ['Deposit', '', 'ELECTRONIC FUNDS TRANSFER RECEIVED', '', '', '$250.00'],
    ])
    const target = activity([
      ['Sell', 'MSFT', 'MICROSOFT CORP', '10', '$453.15', '$4,531.50'],
      ['Deposit', '', 'ELECTRONIC FUNDS TRANSFER RECEIVED', '', '', '$100.00'],
      ['Dividend', 'PG', 'PROCTER & GAMBLE CO', '', '', '$186.82'],
    ])
    const [got] = await learnAndRun(sample, fields, [target])
    expect(got!.fields).toEqual({ Type: 'Sell\nDeposit\nDividend', Symbol: 'MSFT\n\nPG', Quantity: '10\n\n', Amount: '$4,531.50\n$100.00\n$186.82' })
    expect(got!.details.Symbol!.reason).toBe('1 of 3 items have no value')
  })
})

describe('a table whose number column holds a word in some rows', () => {
  type Booking = [date: string, room: string, hours: string, price: string]
  const statement = (bookings: Booking[]) =>
    html(
      `<p>Statement number ST-2023-02-1379</p><p>Room bookings</p><table><tr><th>Date</th><th>Room</th><th>Duration</th><th>Price</th></tr>` +
        bookings.map((b) => `<tr>${b.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('') +
        `</table><p>Extras</p><table><tr><td>Subtotal</td><td>€ 469,10</td></tr><tr><td>Total</td><td>€ 567,61</td></tr></table>`,
    )

  it("reads every booking and its price or the word in its place (Included)", async () => {
    const sample = statement([
      ['Fri 10 Feb', 'Boardroom Keizersgracht (14p)', '2 h', '€ 120,00'],
      ['Wed 15 Feb', 'Meeting room Amstel (6p)', '1.5 h', 'Included'],
      ['Fri 24 Feb', 'Podcast studio (2p)', '1 h', '€ 40,00'],
    ])
    const target = statement([
      ['Tue 1 Jul', 'Meeting room Amstel (6p)', '3 h', '€ 75,00'],
      ['Thu 3 Jul', 'Meeting room IJ (4p)', '1 h', 'Included'],
      ['Mon 14 Jul', 'Phone booth 3 (1p)', '0.5 h', 'Included'],
    ])
    const [got] = await learnAndRun(sample, [{ name: 'Date', value: 'Fri 10 Feb' }, { name: 'Room', value: 'Boardroom Keizersgracht (14p)' }, { name: 'Price', value: '€ 120,00' }], [target])
    expect(got!.fields).toEqual({ Date: 'Tue 1 Jul\nThu 3 Jul\nMon 14 Jul', Room: 'Meeting room Amstel (6p)\nMeeting room IJ (4p)\nPhone booth 3 (1p)', Price: '€ 75,00\nIncluded\nIncluded' })
    expect(got!.status).toBe('success')
  })
})

describe('a table whose rows fill only some cells, over its summary rows', () => {
  const order = (rows: Array<[string, string, string, string, string]>, total: string) =>
    html(
      `<table><tr><th>Référence</th><th>Produit</th><th>Prix unitaire</th><th>Quantité</th><th>Prix total</th></tr>` +
        rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('') +
        `<tr><td>Produits</td><td></td><td></td><td></td><td>${total}</td></tr><tr><td>Réductions</td><td></td><td></td><td></td><td>-5,00 €</td></tr><tr><td>Total payé</td><td></td><td></td><td></td><td>${total}</td></tr></table>`,
    )

  it('reads a row of a code and a name alone as an item, and not the summary row named by a word under the items', async () => {
    const sample = order(
      [
        ['demo_15', 'Blue Widget', '513,57 €', '1', '513,57 €'],
        ['demo_31', 'Gift wrap', '', '', '0,00 €'],
        ['demo_27', 'Wool Socks (3 pairs)', '79,88 €', '3', '239,64 €'],
      ],
      '753,21 €',
    )
    const target = order(
      [
        ['demo_3', 'Café Mug 12 oz', '12,00 €', '2', '24,00 €'],
        ['demo_31', 'Gift wrap', '', '', '0,00 €'],
      ],
      '24,00 €',
    )
    const [got] = await learnAndRun(sample, [{ name: 'Produit', value: 'Blue Widget' }, { name: 'Prix total', value: '513,57 €' }], [target])
    expect(got!.fields).toEqual({ Produit: 'Café Mug 12 oz\nGift wrap', 'Prix total': '24,00 €\n0,00 €' })
  })
})

describe("a value that is a whole sub-line of an item's cell", () => {
  type App = [name: string, kind: string, developer: string, price: string]
  const receipt = (apps: App[]) =>
    html(
      `<p>Receipt</p><p>App Store</p>` +
        apps.map(([name, kind, developer, price]) => `<table><tr><td><img src="cid:i"></td><td><b>${name}</b><br>${kind}<br>${developer}<br>Write a Review | Report a Problem</td><td>${price}</td></tr></table>`).join('') +
        `<table><tr><td>Subtotal</td><td>£36.64</td></tr><tr><td>TOTAL</td><td>£43.97</td></tr></table>`,
    )

  it("reads the kind on each item's second line, where it has no label of its own", async () => {
    const sample = receipt([
      ['Tinder Dating App', 'Tinder Gold (1 Month)', 'Tinder Inc.', '£22.99'],
      ['Notability', 'In-App Purchase', 'Ginger Labs', '£14.99'],
    ])
    const target = receipt([
      ['Things 3', 'iOS App', 'Cultured Code', '£9.99'],
      ['Lensa', 'Lensa PRO (1 Week)', 'Prisma Labs', '£4.99'],
      ['Pixelmator Pro', 'Mac App', 'Pixelmator Team', '£49.99'],
    ])
    const [got] = await learnAndRun(sample, [{ name: 'Item', value: 'Tinder Dating App' }, { name: 'Kind', value: 'Tinder Gold (1 Month)' }], [target])
    expect(got!.fields).toEqual({ Item: 'Things 3\nLensa\nPixelmator Pro', Kind: 'iOS App\nLensa PRO (1 Week)\nMac App' })
  })
})

describe('items in sections, with a line naming someone under some of them', () => {
  type Task = [name: string, project: string, due: string, by: string | null]
  const digest = (today: Task[], week: Task[]) => {
    const rows = (tasks: Task[]) => tasks.map(([name, project, due, by]) => `<p>${name}</p><table><tr><td>${project}</td><td>${due}</td></tr></table>${by ? `<p>Assigned by ${by}</p>` : ''}`).join('')
    return html(`<p>Good morning, Renée</p><p>You have ${today.length} tasks due today.</p><h3>Due today</h3>${rows(today)}<h3>Due this week</h3>${rows(week)}<p>Open My Tasks</p>`)
  }
  const fields = [
    { name: 'Task', value: 'Order 250 business cards' },
    { name: 'Project', value: 'Website Redesign' },
    { name: 'Due', value: 'Today at 5:30 PM' },
  ]

  it("reads every task of its section, whoever assigned it, though a task there was the sample's first of the next section", async () => {
    const sample = digest(
      [
        ['Order 250 business cards', 'Website Redesign', 'Today at 5:30 PM', 'Mohammed Nguyễn'],
        ['Call back Mr. O’Brien re: contract renewal', 'Mobile App (iOS)', 'Today', 'Mohammed Nguyễn'],
        ['Record product demo video (3–5 min)', 'Ops & Finance', 'Today', null],
      ],
      [['Respond to Zeta Labs RFP', 'Hiring', 'Friday', 'Nuño Lee']],
    )
    const target = digest(
      [
        ['Respond to Zeta Labs RFP', 'Events & Offsites', 'Today at 10:30 AM', 'Hélène Kierkegaard'],
        ['Migrate old tickets to the new board', 'Ops & Finance', 'Today', null],
        ['Audit accessibility on checkout flow', 'Events & Offsites', 'Today', 'José Khan'],
      ],
      [['Update pricing page', 'Hiring', 'Tomorrow', null]],
    )
    const [got] = await learnAndRun(sample, fields, [target])
    expect(got!.fields).toEqual({
      Task: 'Respond to Zeta Labs RFP\nMigrate old tickets to the new board\nAudit accessibility on checkout flow',
      Project: 'Events & Offsites\nOps & Finance\nEvents & Offsites',
      Due: 'Today at 10:30 AM\nToday\nToday',
    })
    expect(got!.status).toBe('success')
  })
})

describe('blocks whose lines come and go', () => {
  const shipTo = (lines: string[]) => text(`Your order has shipped.\n\nShip to:\n${lines.join('\n')}\n\nCarrier: UPS\n\nThanks,\nThe Fernwood team`)

  it('leaves a missing optional line empty instead of reading its neighbour', async () => {
    const sample = shipTo(['Jane Doe', 'Acme Corp', '12 Main St', 'Springfield, IL 62704'])
    const fields = [
      { name: 'Name', value: 'Jane Doe' },
      { name: 'Company', value: 'Acme Corp' },
      { name: 'Street', value: '12 Main St' },
      { name: 'City', value: 'Springfield' },
    ]
    const [without, withCompany] = await learnAndRun(sample, fields, [
      shipTo(['Bob Stone', '77 Elm Road', 'Shelbyville, IL 62565']),
      shipTo(['Ana Ruiz', 'Globex', '9 Oak Ave', 'Capital City, OR 97301']),
    ])
    expect(without!.fields).toEqual({ Name: 'Bob Stone', Company: null, Street: '77 Elm Road', City: 'Shelbyville' })
    expect(without!.status).toBe('partial')
    expect(without!.error).toContain('Company')
    expect(withCompany!.fields).toEqual({ Name: 'Ana Ruiz', Company: 'Globex', Street: '9 Oak Ave', City: 'Capital City' })
  })

  it('finds a block after one whose length varies', async () => {
    const mail = (billing: string[], ship: string[]) => text(`Order 5512 received.\n\nBilling address\n${billing.join('\n')}\n\n${ship.join('\n')}\n\nPayment: Visa`)
    const sample = mail(['Jane Doe', '12 Main St', 'Springfield'], ['Shipping address', 'John Doe', '4 Side Rd', 'Ogdenville'])
    const [got] = await learnAndRun(sample, [{ name: 'Ship name', value: 'John Doe' }], [
      mail(['Jane Roe', '1 High St', 'Brockway', 'Phone: 555 0100'], ['Shipping address', 'Sam Roe', '8 Low Rd', 'North Haverbrook']),
    ])
    expect(got!.fields['Ship name']).toBe('Sam Roe')
  })

  it('does not read the lines of a block above the value as a list it ends (the town under an event and its venue)', async () => {
    const ticket = (lines: string[]) => text(`Bonjour,\n\nMerci pour votre commande n° TK${lines.length}.\n\n${lines.join('\n')}\n\nTotal TTC : 12,00 €`)
    const [got] = await learnAndRun(ticket(['Festival Jazz 2025', 'samedi 3 mai 2025 à 20h', 'Salle Pleyel', '252 rue du Faubourg', '75008 Paris']), [{ name: 'Ville', value: 'Paris' }], [
      ticket(['Rock’n’Loire 2025', 'lundi 17 avril 2023 à 21h', 'Salle Pleyel', '3 rue de la République', '97400 Saint-Denis']),
    ])
    expect(got!.fields.Ville).toBe('Saint-Denis')
  })

  it("does not anchor on a second street line of the value's own block (`Unit 7` is data)", async () => {
    const fields = [
      { name: 'Name', value: 'Jane Doe' },
      { name: 'ZIP', value: '97209' },
    ]
    const [without, other] = await learnAndRun(shipTo(['Jane Doe', '12 Main St', 'Unit 7', 'Portland, OR 97209']), fields, [
      shipTo(['Bob Stone', '77 Elm Road', 'Ann Arbor, MI 48104']),
      shipTo(['Ana Ruiz', '9 Oak Ave', 'Suite 210', 'Boise, ID 83702']),
    ])
    expect(without!.fields.ZIP).toBe('48104')
    expect(other!.fields.ZIP).toBe('83702')
  })
})

describe('names in the sentence around a value', () => {
  const review = (name: string, rating: number, product: string, paragraphs: string[]) =>
    html(
      `<p><b>${name}</b> left a ${rating}-star review for <a href="https://shop.example.com/p/1">${product}</a></p><p>★★★★☆</p>` +
        paragraphs.map((p) => `<p>${p}</p>`).join('') +
        `<p>Order #1234 · Verified buyer · Nov 8, 2023</p><p>Reply publicly</p>`,
    )
  const fields = [
    { name: 'Rating', value: '4', type: 'number' as const, context: { after: '-star review' } },
    { name: 'Review', value: 'Lovely quality. Would buy again.' },
  ]

  it("finds a value after a sentence that opens with someone's name, when another name opens it", async () => {
    const [got] = await learnAndRun(review("Olu O'Brien", 4, 'Blue Widget', ['Lovely quality. Would buy again.']), fields, [
      review('Dolores Patel', 2, 'Desk Lamp', ['Arrived quickly and works great.']),
    ])
    expect(got!.fields).toEqual({ Rating: '2', Review: 'Arrived quickly and works great.' })
    expect(got!.status).toBe('success')
  })

  it('reads a message of several paragraphs when the sample showed one, up to the fixed line after it', async () => {
    const [got] = await learnAndRun(review("Olu O'Brien", 4, 'Blue Widget', ['Lovely quality. Would buy again.']), fields, [
      review("Olu O'Brien", 1, 'Desk Lamp', ['Stopped working after two weeks.', 'Support replaced it without fuss, though.']),
    ])
    expect(got!.fields.Review).toBe('Stopped working after two weeks.\n\nSupport replaced it without fuss, though.')
  })

  it('leaves an absent message empty instead of reading the fixed text that ends it', async () => {
    const reminder = (note?: string) =>
      html(`<p>Hello Grace,</p><p>This is a reminder of your appointment.</p><p>Where: 198 Main Street, Leeds</p>${note ? `<p>${note}</p>` : ''}<p>Confirm | Reschedule</p><p>See you soon,</p>`)
    const [got] = await learnAndRun(reminder('Please bring your insurance card.'), [{ name: 'Note', value: 'Please bring your insurance card.' }], [reminder()])
    expect(got!.fields.Note).toBeNull()
  })
})

describe('data nobody highlighted earlier on the line', () => {
  it("reads a value at a sentence's end after its last fixed words, when a name nobody highlighted earlier in the sentence changes", async () => {
    const notice = (shop: string, day: string, window: string) =>
      html(`<p>Bonjour Priya,</p><p>Votre colis n° 6C4814 expédié par ${shop} sera livré le ${day} ${window}.</p><p>Suivre mon colis</p>`)
    const [got, other] = await learnAndRun(notice('la Boutique Lumière', 'mercredi 17 avril', 'entre 9h00 et 13h00'), [{ name: 'Créneau', value: 'entre 9h00 et 13h00' }], [
      notice('Atelier Côté Jardin', 'dimanche 19 mars', 'entre 13h00 et 17h00'),
      notice('Maison Verte', 'lundi 3 juin', 'avant 12h00'),
    ])
    expect(got!.fields['Créneau']).toBe('entre 13h00 et 17h00')
    expect(other!.fields['Créneau']).toBe('avant 12h00')
  })
})

describe('a value of several lines in a table cell', () => {
  it('gives the lines of a cell the user highlighted as several lines as lines, not joined', async () => {
    const leave = (reason: string[]) =>
      html(`<h2>Leave Application LA-42 has been Approved</h2><table><tr><td>Employee</td><td>Anna Schmidt</td></tr><tr><td>Reason</td><td>${reason.join('<br>')}</td></tr><tr><td>Status</td><td>Approved</td></tr></table>`)
    const [two, one] = await learnAndRun(leave(['Dental surgery.', 'Reachable by phone.']), [{ name: 'Reason', value: 'Dental surgery.\nReachable by phone.' }], [
      leave(['Annual trip with family.', 'Handover is done.', 'Out-of-office reply is set up.']),
      leave(['Flu.']),
    ])
    expect(two!.fields.Reason).toBe('Annual trip with family.\nHandover is done.\nOut-of-office reply is set up.')
    expect(one!.fields.Reason).toBe('Flu.')
  })
})

describe('a long sentence of fixed words as a landmark', () => {
  it('reads a value under a fixed sentence of nine words or more when the landmarks above it come and go', async () => {
    const notice = (renew: boolean) =>
      text(
        `Dear Ann Lee,\n\nThe following item(s) is/are currently overdue:\n\nDune. Barcode: 31537332444276\n\n${renew ? 'Renew online: https://catalog.example.org/opac-user.pl\n\n' : ''}` +
          `Thank-you for your prompt attention to this matter.\n\nSpringfield Public Library\n220 Court Street\nSpringfield, IL 62701`,
      )
    const [got] = await learnAndRun(notice(true), [{ name: 'Library', value: 'Springfield Public Library' }], [notice(false)])
    expect(got!.fields.Library).toBe('Springfield Public Library')
  })
})

describe("a label's last word that changes with the email's case", () => {
  const order = (label: string, amount: string, extra = '') =>
    html(`<p>Order ID OD239223804030744036</p><table><tr><td><b>${label}</b></td><td>${amount}</td></tr><tr><td>Item total</td><td>₹22,097</td></tr>${extra}</table><p>Payment mode: UPI</p>`)

  it("reads the value after the label's other words and any last word, when the sample's label is gone, and says so", async () => {
    const [paid, payable] = await learnAndRun(order('Amount Payable', '₹22,025'), [{ name: 'Amount Payable', value: '₹22,025' }], [order('Amount Paid', '₹542'), order('Amount Payable', '₹1,41,157')])
    expect(paid!.fields['Amount Payable']).toBe('₹542')
    expect(paid!.status).toBe('partial')
    expect(paid!.details['Amount Payable']!.reason).toBe('label "amount payable" not found; read after "Amount Paid"')
    expect(payable!.fields['Amount Payable']).toBe('₹1,41,157')
    expect(payable!.status).toBe('success')
  })

  it('reads nothing when the label\'s other words start two such lines', async () => {
    const [got] = await learnAndRun(order('Amount Payable', '₹22,025'), [{ name: 'Amount Payable', value: '₹22,025' }], [order('Amount Paid', '₹542', '<tr><td>Amount Refunded</td><td>₹100</td></tr>')])
    expect(got!.fields['Amount Payable']).toBeNull()
  })
})

describe('the subject', () => {
  const notification = (subject: string, crumbs: string, title: string) =>
    eml({ subject, html: `<p>Ana Ruiz changed the status</p><p>${crumbs}</p><h1>${title}</h1><p>Status: → Done</p><p>View issue</p>` })

  it("reads a value from the subject's form when the body's line for it changed (a breadcrumb with or without a parent)", async () => {
    const fields = [
      { name: 'Key', value: 'MOB-1722' },
      { name: 'Summary', value: 'QA on Android & iOS' },
    ]
    const [got] = await learnAndRun(notification('[JIRA] (MOB-1722) QA on Android & iOS', 'Mobile App / MOB-1719 / MOB-1722', 'QA on Android & iOS'), fields, [
      notification('[JIRA] (OPS-592) Migrate cron jobs', 'Infrastructure & Ops / OPS-592', 'Migrate cron jobs'),
    ])
    expect(got!.fields.Key).toBe('OPS-592')
  })

  it("reads nothing from a subject worded otherwise than the sample's, though it has the word before the value", async () => {
    const receipt = (subject: string, id: string | null) => eml({ subject, html: `<p>Thanks for your payment.</p>${id ? `<p>Reference ${id} — keep it for your records</p>` : ''}` })
    const [got] = await learnAndRun(receipt('Your trial has ended – receipt #755079', '#755079'), [{ name: 'Receipt', value: '#755079' }], [receipt('Receipt for your Team plan', null)])
    expect(got!.fields.Receipt).toBeNull()
  })
})

describe('values read by their line number', () => {
  it("reads a value by its line number only among the email's first lines, not deep in a long first block", async () => {
    const log = (lines: string[]) => text(lines.join('\n'))
    const top = await trainParser(log(['2024-05-01', 'build', 'deploy', 'lint', 'audit', 'test']), [
      { name: 'Date', value: '2024-05-01' },
      { name: 'Stage', value: 'test' },
    ])
    if (!top.ok) throw new Error(top.reason)
    const kinds = (name: string) => top.template.fields.find((f) => f.name === name)!.rules.text!.map((r) => r.kind)
    expect(kinds('Date')).toContain('position')
    expect(kinds('Stage')).not.toContain('position')
  })
})

describe('replies that quote the email', () => {
  const reply = (note: string | null, name: string) =>
    text(
      [
        ...(note ? [note, ''] : []),
        name,
        '',
        'On Mon, Nov 23, 2026 at 4:05 PM Kiln Shop <orders@kiln.example> wrote:',
        '> New order #1234',
        '>',
        '> Total: $60.00',
      ].join('\n'),
    )

  it("leaves a note empty when the reply has none, instead of reading the signature in its place", async () => {
    const [without] = await learnAndRun(reply('Customer called, rush please!', 'Li'), [{ name: 'Note', value: 'Customer called, rush please!' }], [reply(null, 'Björn')])
    expect(without!.fields.Note).toBeNull()
  })

  it('never runs a message into the quoted email under it', async () => {
    const letter = (message: string[]) =>
      text(['New message from the contact form', '', 'Message:', ...message, '', 'Sent from the website', '', 'On Mon, Nov 23, 2026 at 4:05 PM Web <web@example.com> wrote:', '> earlier text'].join('\n'))
    const [cut] = await learnAndRun(letter(['Do you ship to Canada?', '', 'Thanks, Ana']), [{ name: 'Message', value: 'Do you ship to Canada?\n\nThanks, Ana' }], [
      text(['New message from the contact form', '', 'Message:', 'Is the blue one in stock?', '', 'On Mon, Nov 23, 2026 at 4:05 PM Web <web@example.com> wrote:', '> earlier text'].join('\n')),
    ])
    expect(cut!.fields.Message).toBe('Is the blue one in stock?')
  })
})

describe('Chinese and Japanese text', () => {
  it('keeps a label written without a space before its number as fixed text in a line pattern', () => {
    const doc = buildDoc('注文番号：774906 数量：3 小計：3,852円')
    const at = doc.text.indexOf('774906')
    const pattern = linePattern(doc, 0, [at, at + 6], [])
    expect(pattern).toContain('数量：')
    expect(pattern).toContain('小計：')
    expect(new RegExp(pattern!, 'u').exec('注文番号：112233 数量：12 小計：550円')?.[1]).toBe('112233')
  })
})

describe('keys over values', () => {
  const card = (cells: Array<[string, string]>) => {
    const rows: string[] = []
    for (let i = 0; i < cells.length; i += 2) {
      const pair = cells.slice(i, i + 2)
      rows.push(`<tr>${pair.map(([k]) => `<td>${k}</td>`).join('')}</tr><tr>${pair.map(([, v]) => `<td>${v}</td>`).join('')}</tr>`)
    }
    return html(`<h1>New application</h1><table>${rows.join('')}</table><p>Review the application.</p>`)
  }

  it('reads the cell under its key in a grid whose optional cells move the others', async () => {
    const fields = [
      { name: 'Location', value: 'Berlin, Germany' },
      { name: 'Source', value: 'Referral – Maria Ortiz' },
    ]
    const sample = card([
      ['Name', 'Łukasz Brontë'],
      ['Email', 'ub@example.org'],
      ['Phone', '+49 30 1234567'],
      ['Location', 'Berlin, Germany'],
      ['Source', 'Referral – Maria Ortiz'],
      ['LinkedIn', 'https://www.linkedin.example/in/ub'],
    ])
    const [noPhone] = await learnAndRun(sample, fields, [
      card([
        ['Name', 'Li Wei'],
        ['Email', 'li@example.org'],
        ['Location', 'Remote (EU)'],
        ['Source', 'AngelList'],
        ['LinkedIn', 'https://www.linkedin.example/in/li'],
      ]),
    ])
    expect(noPhone!.fields).toEqual({ Location: 'Remote (EU)', Source: 'AngelList' })
  })
})

describe('questions and answers', () => {
  const form = (qa: Array<[string, string]>) => html(`<h2>Application questions</h2>${qa.map(([q, a]) => `<p><b>${q}</b></p><p>${a}</p>`).join('')}<p>Review application</p>`)

  it('leaves a field empty when its question is not in the email, instead of reading the next answer', async () => {
    const fields = [{ name: 'Notice Period', value: '2 weeks' }]
    const [unanswered, answered] = await learnAndRun(
      form([
        ['What are your salary expectations?', '€90,000'],
        ['What is your notice period?', '2 weeks'],
        ['Why do you want to join us?', 'I love the product.'],
      ]),
      fields,
      [
        form([
          ['What are your salary expectations?', '€60,000'],
          ['Why do you want to join us?', 'The mission.'],
        ]),
        form([
          ['What is your notice period?', '3 months'],
          ['Why do you want to join us?', 'The team.'],
        ]),
      ],
    )
    expect(unanswered!.fields['Notice Period']).toBeNull()
    expect(answered!.fields['Notice Period']).toBe('3 months')
  })
})

describe('anchors and shapes', () => {
  it('finds an email address in parentheses mid-sentence when the rest of the sentence changes', async () => {
    const invite = (who: string, email: string, team: string, role: string) =>
      text(`Hello,\n\n${who} (${email}) has invited you to join the ${team} team on Example as ${/^[AEIOU]/.test(role) ? 'an' : 'a'} ${role}.\n\nThis invitation expires in 7 days.`)
    const [got] = await learnAndRun(invite('Kiri de la Cruz', 'kcruz@example.co.uk', 'Acme Corp', 'Member'), [{ name: 'Inviter Email', value: 'kcruz@example.co.uk' }], [
      invite('Ana María Okonkwo', 'ana_maria+news@example.org', 'Zeta Labs, Inc.', 'Admin'),
    ])
    expect(got!.fields['Inviter Email']).toBe('ana_maria+news@example.org')
  })

  it('ends a name before the email address after it, whether or not the sample\'s address had a digit', async () => {
    const booking = (name: string, email: string) => html(`<p><b>Who</b></p><p>Maya Lindqvist - Organizer maya@studio.example</p><p>${name} ${email}</p><p><b>Where</b></p><p>Zoom</p>`)
    const [plain, dotted] = await learnAndRun(booking('Li Wei', 'l.wei42@example.com'), [{ name: 'Attendee', value: 'Li Wei' }], [
      booking("Björn O'Brien", 'bjorn.obrien@example.co.uk'),
      booking('Ana de la Cruz', 'ana@example.org'),
    ])
    expect(plain!.fields.Attendee).toBe("Björn O'Brien")
    expect(dotted!.fields.Attendee).toBe('Ana de la Cruz')
  })

  it("does not anchor on a date's weekday shown above it (check-in and checkout both on a Tuesday)", async () => {
    const stay = (inDay: string, inDate: string, outDay: string, outDate: string) =>
      html(`<table><tr><td><p>Check-in</p><p>${inDay}</p><p>${inDate}</p></td><td><p>Checkout</p><p>${outDay}</p><p>${outDate}</p></td></tr></table><p>Guests: 2 adults</p>`)
    const fields = [
      { name: 'Check-in', value: 'Aug 15, 2023' },
      { name: 'Checkout', value: 'Aug 22, 2023' },
    ]
    const [got] = await learnAndRun(stay('Tuesday', 'Aug 15, 2023', 'Tuesday', 'Aug 22, 2023'), fields, [stay('Friday', 'Mar 8, 2024', 'Tuesday', 'Mar 12, 2024')])
    expect(got!.fields).toEqual({ 'Check-in': 'Mar 8, 2024', Checkout: 'Mar 12, 2024' })
  })

  it('does not take a neighbouring value as the label of a postcode', async () => {
    const mail = (city: string, zip: string) => html(`<p><b>Delivery address</b><br>Marie Curie<br>8 Rue des Fleurs<br>${zip} ${city}<br>France</p><p>Thank you.</p>`)
    const [got] = await learnAndRun(mail('Paris', '75002'), [{ name: 'Postcode', value: '75002' }], [mail('Lyon', '69001'), mail('Saint-Étienne', '42000')])
    expect(got!.fields.Postcode).toBe('69001')
  })

  it('reads a handle after a label where the sample showed an email address, unless the field is typed as email', async () => {
    const welcome = (username: string) => html(`<h1>Welcome, Ana!</h1><p><strong>Login Page:</strong> https://app.example.com/login</p><p><strong>Username:</strong> ${username}</p><p>Thanks!</p>`)
    const [handle, team] = await learnAndRun(welcome('ana.ruiz@example.org'), [{ name: 'Username', value: 'ana.ruiz@example.org' }], [welcome('bob42'), welcome('Platform Team')])
    expect(handle!.fields.Username).toBe('bob42')
    expect(team!.fields.Username).toBe('Platform Team')
    const [typed] = await learnAndRun(welcome('ana.ruiz@example.org'), [{ name: 'Username', value: 'ana.ruiz@example.org', type: 'email' }], [welcome('bob42')])
    expect(typed!.fields.Username).toBeNull()
  })

  it('reads a postcode of digit groups before a town that changes (411 03 Göteborg)', async () => {
    const booking = (place: string) => html(`<p>Tack för din bokning!</p><p>Datum: fredag 5 december</p><p>Adress: Strandvägen 12, ${place}</p><p>Välkommen!</p>`)
    const [got] = await learnAndRun(booking('411 03 Göteborg'), [{ name: 'Postnummer', value: '411 03' }], [booking('211 20 Malmö')])
    expect(got!.fields.Postnummer).toBe('211 20')
  })

  it('does not read a fragment of a longer token as a value of the sample\'s form (web of web@2024.1.13)', async () => {
    const alert = (release: string) => html(`<p>New issue in checkout-api</p><table><tr><td>Environment</td><td>production</td></tr><tr><td>Release</td><td>${release}</td></tr></table><p>View on Faultline</p>`)
    const [got] = await learnAndRun(alert('v3.3.0'), [{ name: 'Release', value: 'v3.3.0' }], [alert('web@2024.1.13')])
    expect(got!.fields.Release).not.toBe('web')
  })

  it('reads a value right after a date of words in one sentence (le mardi 24 novembre entre 9h00 et 13h00)', async () => {
    const notice = (day: string, slot: string) => text(`Bonjour,\n\nVotre colis n° 6A123 sera livré le ${day} ${slot}.\n\nPoids : 1,2 kg`)
    const fields = [
      { name: 'Jour', value: 'mercredi 17 avril' },
      { name: 'Créneau', value: 'entre 9h00 et 13h00' },
    ]
    const [got, first] = await learnAndRun(notice('mercredi 17 avril', 'entre 9h00 et 13h00'), fields, [notice('dimanche 19 mars', 'entre 13h00 et 17h00'), notice('lundi 1er décembre', 'entre 8h00 et 12h00')])
    expect(got!.fields).toEqual({ Jour: 'dimanche 19 mars', 'Créneau': 'entre 13h00 et 17h00' })
    expect(first!.fields).toEqual({ Jour: 'lundi 1er décembre', 'Créneau': 'entre 8h00 et 12h00' })
  })

  it("reads a name ending in a full stop at a sentence's end whole (für Café Olé Ltd..)", async () => {
    const invoice = (customer: string) => html(`<p>Sehr geehrte Damen und Herren,</p><p>anbei erhalten Sie die Rechnung Nr. RE-2026-0042 für ${customer}.</p><p>Mit freundlichen Grüßen</p>`)
    const [got] = await learnAndRun(invoice('Acme Corp'), [{ name: 'Kunde', value: 'Acme Corp' }], [invoice('Café Olé Ltd.')])
    expect(got!.fields.Kunde).toBe('Café Olé Ltd.')
  })

  it('reads tracking numbers of other forms after the same label', async () => {
    const mail = (n: string) => text(`Your parcel is on its way.\nTracking number: ${n}\nCarrier: Parcelnet\n`)
    const results = await learnAndRun(mail('123456789012'), [{ name: 'Tracking', value: '123456789012' }], [mail('9400111899223100001234'), mail('1Z999AA10123456784')])
    expect(results.map((r) => r.fields.Tracking)).toEqual(['9400111899223100001234', '1Z999AA10123456784'])
  })

  it('reads the next cell after a label cell that goes on with a rate, but not after a label of more words', async () => {
    const mail = (rows: Array<[string, string]>) => html(`<table>${rows.map(([k, v]) => `<tr><td>${k}</td><td>${v}</td></tr>`).join('')}</table>`)
    const sample = mail([
      ['Subtotal', '$34.22'],
      ['Tax', '$1.64'],
      ['Total', '$35.86'],
    ])
    const targets = [
      mail([
        ['Subtotal', '$100.00'],
        ['Shipping', '$5.00'],
        ['Tax (8.875%)', '$8.88'],
        ['Total', '$113.88'],
      ]),
      mail([
        ['Subtotal', '$100.00'],
        ['Total savings', '$20.00'],
        ['Amount charged', '$80.00'],
      ]),
    ]
    const [rate, words] = await learnAndRun(sample, [{ name: 'Tax', value: '$1.64' }, { name: 'Total', value: '$35.86' }], targets)
    expect(rate!.fields).toEqual({ Tax: '$8.88', Total: '$113.88' })
    expect(words!.fields.Total).toBeNull()
  })

  it("finds the highlighted occurrence in the text body too, where the label ends in a colon the HTML's did not", async () => {
    const both = (qty: string, verb: string) =>
      eml({
        html: `<p>You ${verb} ${qty} shares of NVR.</p><table><tr><td>Symbol</td><td>NVR</td></tr><tr><td>Quantity</td><td>${qty}</td></tr></table>`,
        text: `You ${verb} ${qty} shares of NVR.\n\nSymbol: NVR\nQuantity: ${qty}`,
      })
    const textOnly = (qty: string, verb: string) => text(`You ${verb} ${qty} shares of NVR.\n\nSymbol: NVR\nQuantity: ${qty}`)
    const [got] = await learnAndRun(both('9', 'bought'), [{ name: 'Quantity', value: '9', context: { before: 'Quantity' } }], [textOnly('3', 'sold')])
    expect(got!.fields.Quantity).toBe('3')
  })

  it("reads a shipping method after 'Shipping: $5.00 via' and when it stands alone (free shipping), not an amount alone", async () => {
    const order = (shipping: string) => html(`<p>Order #1042</p><table><tr><td>Subtotal:</td><td>$16.36</td></tr><tr><td>Shipping:</td><td>${shipping}</td></tr><tr><td>Payment method:</td><td>PayPal</td></tr><tr><td>Total:</td><td>$18.91</td></tr></table>`)
    const [pickup, priced, amount] = await learnAndRun(order('$5.00 via Flat rate'), [{ name: 'Shipping Method', value: 'Flat rate' }], [order('Local pickup'), order('$7.50 via UPS Ground'), order('$9.00')])
    expect(pickup!.fields['Shipping Method']).toBe('Local pickup')
    expect(priced!.fields['Shipping Method']).toBe('UPS Ground')
    expect(amount!.fields['Shipping Method']).toBeNull()
  })

  it("reads an order number of another form after its label where the sample's was digits alone ('63914', then '2023-78526')", async () => {
    const mail = (no: string) => html(`<p>Hello Grace,</p><p>Order Number: ${no}<br>Date Ordered: Wednesday, November 1, 2023</p><p>Shipping Method: Ground</p>`)
    const [got, other] = await learnAndRun(mail('63914'), [{ name: 'Order Number', value: '63914' }], [mail('2023-78526'), mail('ORD-231011-18447')])
    expect(got!.fields['Order Number']).toBe('2023-78526')
    expect(other!.fields['Order Number']).toBe('ORD-231011-18447')
  })

  it("reads an amount with a currency code after it where the sample's had none (`$645.00 USD`)", async () => {
    const mail = (amount: string) => html(`<p>Invoice INV-82332</p><p>Amount: ${amount} due on 09/28/2023.</p><p>View invoice</p>`)
    const [got] = await learnAndRun(mail('$1,992.51'), [{ name: 'Amount', value: '$1,992.51' }], [mail('$645.00 USD')])
    expect(got!.fields.Amount).toBe('$645.00 USD')
  })

  it("reads an order number of another form after its label, where the sample's (17 digits in groups) is no phone number", async () => {
    const mail = (order: string) => html(`<table><tr><td>Order number</td><td>${order}</td></tr><tr><td>Store</td><td>Amazon</td></tr></table>`)
    const results = await learnAndRun(mail('111-9719503-6430454'), [{ name: 'Order', value: '111-9719503-6430454' }], [mail('M-43668'), mail('37893')])
    expect(results.map((r) => r.fields.Order)).toEqual(['M-43668', '37893'])
  })

  it("does not read the ship-to city from another address that has the sample's state", async () => {
    const mail = (from: string, to: string) => text(`Ship from\n\nZeta Labs\n5940 Main Street\n${from}\n\nShip to\n\nAnn Lee\n12 Elm Road\n${to}\n\nCharges\nPostage: $9.00`)
    const [got] = await learnAndRun(mail('Boise, ID 83702', 'Portland, OR 97209'), [{ name: 'City', value: 'Portland' }], [mail('Portland, OR 97209', 'Española, NM 87532')])
    expect(got!.fields.City).toBe('Española')
  })

  it("learns a quantity written '1x' from the wizard's context when the sample also shows a 1 elsewhere", async () => {
    // Modifier lines under an item's name, in its cell (`+ Spicy mayo`).
    const order = (items: Array<[number, string]>) =>
      html(
        `<p>Placed 6/7/23 1:18 PM</p><table>${items.map(([q, n]) => `<tr><td>${q}x</td><td>${n}<br>+ Spicy mayo<br>- No sesame</td><td>$9.50</td></tr>`).join('')}<tr><td>Total</td><td></td><td>$19.00</td></tr></table>`,
      )
    const [got] = await learnAndRun(
      order([
        [1, 'Spicy Tuna Roll'],
        [1, 'Fish Tacos'],
      ]),
      [
        { name: 'Quantity', value: '1', type: 'number' as const, context: { after: 'x Spicy Tuna Roll' } },
        { name: 'Item', value: 'Spicy Tuna Roll' },
      ],
      [order([[3, 'Chips & Salsa'], [2, 'Crème Brûlée'], [1, 'Tea']])],
    )
    expect(got!.fields).toEqual({ Quantity: '3\n2\n1', Item: 'Chips & Salsa\nCrème Brûlée\nTea' })
  })

  it('matches a label whose middle varies', async () => {
    const mail = (tax: string, amount: string) => text(`Subtotal: $100.00\n${tax}: ${amount}\nTotal: $105.00`)
    const [got] = await learnAndRun(mail('Tax North America 5.0%', '$5.00'), [{ name: 'Tax', value: '$5.00' }], [mail('Tax NY State Sales Tax 8.875%', '$8.88')])
    expect(got!.fields.Tax).toBe('$8.88')
  })

  it("learns a bulleted list highlighted without its bullets (a browser's selection), and reads another email's items, no further", async () => {
    const entry = (services: string[], budget: boolean) =>
      html(
        `<table>${[['Name', 'Ann Lee'], ['Which services are you interested in?', `<ul>${services.map((x) => `<li>${x}</li>`).join('')}</ul>`], ...(budget ? [['Approximate budget', '$25,000+']] : []), ['Preferred start date', '12/12/2023']]
          .map(([label, value]) => `<tr><td><b>${label}</b></td></tr><tr><td>${value}</td></tr>`)
          .join('')}</table>`,
      )
    const [got] = await learnAndRun(entry(['Planting & borders', 'Outdoor lighting', 'Fencing & gates'], true), [{ name: 'Services', value: 'Planting & borders\nOutdoor lighting\nFencing & gates' }], [entry(['Design consultation', 'Irrigation system'], false)])
    expect(got!.fields.Services).toBe('Design consultation\nIrrigation system')
  })

  it('learns a highlight that spans paragraphs', async () => {
    const mail = (message: string) => html(`<p>New submission from your website.</p><p><b>Message</b></p>${message}<hr><p>Sent by FormFlow</p>`)
    const sample = mail('<p>Hello there,</p><p>I would like a quote for 40 chairs.</p><p>Best, Ann</p>')
    const [got] = await learnAndRun(sample, [{ name: 'Message', value: 'Hello there,\n\nI would like a quote for 40 chairs.\n\nBest, Ann' }], [mail('<p>Hi,</p><p>Do you ship to Norway?</p>')])
    expect(got!.fields.Message).toBe('Hi,\n\nDo you ship to Norway?')
  })

  it('ends a message of several paragraphs at the footer when the optional question after it is left out', async () => {
    const mail = (message: string, heard: string | null) =>
      html(
        `<p>Submitted values are:</p><dl><dt>Your name</dt><dd>Ann Lee</dd><dt>Tell us about your project</dt><dd>${message}</dd>` +
          (heard ? `<dt>How did you hear about us?</dt><dd>${heard}</dd>` : '') +
          `</dl><p>View submission #2614</p><p>This message was sent by the Request a quote webform.</p>`,
      )
    const sample = mail('We need a new site.<br><br>Our budget is flexible.', 'A friend told me')
    const [got] = await learnAndRun(sample, [{ name: 'Message', value: 'We need a new site.\n\nOur budget is flexible.' }], [mail('Can you migrate our shop?<br><br>It runs on Drupal 7.', null)])
    expect(got!.fields.Message).toBe('Can you migrate our shop?\n\nIt runs on Drupal 7.')
  })
})

describe('a line between items', () => {
  const journey = (legs: Array<[string, string, string, string]>) =>
    html(
      `<p>Outbound</p><table>` +
        legs
          .map(
            ([dt, from, at, to], i) =>
              `<tr><td>${dt}</td><td>${from}</td></tr><tr><td>1h 14m</td><td>ICE ${500 + i}</td></tr><tr><td>${at}</td><td>${to}</td></tr>` +
              (i < legs.length - 1 ? `<tr><td colspan="2">Change at ${to} · ${20 + i} min</td></tr>` : ''),
          )
          .join('') +
        `</table><p>Passengers (1)</p><p>Ann Lee</p>`,
    )

  it('reads the last leg of a journey, which has no change line after it, and a journey of one leg', async () => {
    const sample = journey([
      ['06:10', 'Berlin Hbf', '07:24', 'Leipzig Hbf'],
      ['07:53', 'Leipzig Hbf', '09:57', 'Nürnberg Hbf'],
      ['10:33', 'Nürnberg Hbf', '11:49', 'München Hbf'],
    ])
    const fields = [
      { name: 'From', value: 'Berlin Hbf' },
      { name: 'Arrive', value: '07:24' },
      { name: 'To', value: 'Leipzig Hbf', context: { before: '07:24' } },
    ]
    const [two, one] = await learnAndRun(sample, fields, [
      journey([
        ['08:00', 'Paris Gare de Lyon', '10:01', 'Lyon Part-Dieu'],
        ['10:30', 'Lyon Part-Dieu', '12:15', 'Marseille'],
      ]),
      journey([['06:25', 'Hamburg Hbf', '07:48', 'Hannover Hbf']]),
    ])
    expect(two!.fields).toEqual({ From: 'Paris Gare de Lyon\nLyon Part-Dieu', Arrive: '10:01\n12:15', To: 'Lyon Part-Dieu\nMarseille' })
    expect(one!.fields).toEqual({ From: 'Hamburg Hbf', Arrive: '07:48', To: 'Hannover Hbf' })
  })

  it('does not read a line of text after items of a name and a Qty line as one more item', async () => {
    const order = (items: Array<[string, number]>) => text(`Your order\n\n${items.map(([n, q]) => `${n}\nQty: ${q}`).join('\n')}\nThank you for shopping with us\n\nTotal: $10.00`)
    const [got] = await learnAndRun(order([['Linen Shirt', 2], ['Wool Scarf', 1]]), [{ name: 'Item', value: 'Linen Shirt' }], [order([['Bee Hat', 1], ['Cap', 3], ['Dune Socks', 2]])])
    expect(got!.fields.Item).toBe('Bee Hat\nCap\nDune Socks')
  })
})

describe('a value right above fixed text', () => {
  const receipt = (coupon: boolean, id: string, date: string) =>
    html(
      `<p>Thanks for using Trackly. This email is the receipt for your purchase.</p>${coupon ? '<p>20% off your next purchase!</p><p>Use this discount now...</p>' : ''}` +
        `<table><tr><td>${id}</td><td>${date}</td></tr><tr><th>Description</th><th>Amount</th></tr><tr><td>Team plan</td><td>$29.00</td></tr><tr><td>Total</td><td>$29.00</td></tr></table><p>Cheers, The Trackly Team</p>`,
    )
  it("reads a receipt's id and date over the items' header when the optional box above them is gone", async () => {
    const [got] = await learnAndRun(
      receipt(true, '#755079', '14 Dec 2023'),
      [
        { name: 'Receipt', value: '#755079' },
        { name: 'Date', value: '14 Dec 2023' },
      ],
      [receipt(false, 'ZF8VKXEK-0016', 'Nov 20, 2025')],
    )
    expect(got!.fields).toEqual({ Receipt: 'ZF8VKXEK-0016', Date: 'Nov 20, 2025' })
  })

  it('does not read the first of several blocks by the fixed line under each (View invoice)', async () => {
    const digest = (heading: string, invoices: string[]) => html(`<p>${heading}</p>${invoices.map((no) => `<div>${no}</div><div>View invoice · Send reminder</div>`).join('')}<p>Review overdue invoices</p>`)
    const [got] = await learnAndRun(digest('Overdue invoice', ['INV00273']), [{ name: 'Invoice', value: 'INV00273' }], [digest('2 invoices are overdue', ['INV00301', 'INV00302'])])
    expect(got!.fields.Invoice).toBeNull()
  })
})

describe('lines a heading counts', () => {
  const reservation = (resources: string[], participants: string[]) =>
    text(
      `Reservation Details:\n\nTitle: Weekly sync\n\n${resources.length === 1 ? `Resource: ${resources[0]}` : `Resources (${resources.length}):\n${resources.join('\n')}`}\n\n` +
        `Participants (${participants.length}):\n${participants.join('\n')}\nCreated by: Ann Lee\n\nReference Number: f520513`,
    )
  it("reads the lines under 'Resources (3):' as items, as many as it counts, and one labelled 'Resource:' on its line", async () => {
    const [three, one] = await learnAndRun(
      reservation(['Studio 3 – Podcast Booth', 'Conference Room A'], ['Dolores O’Connor', 'Yusuf Lee']),
      [
        { name: 'Resource', value: 'Studio 3 – Podcast Booth' },
        { name: 'Participant', value: 'Dolores O’Connor' },
      ],
      [reservation(['Lab 4 – Wet Bench', 'Gym Court 1', 'Zoom Room Alpha'], ['Olu Wei', 'zacka@example.com', 'Bo Yin']), reservation(['Lecture Hall B'], ['Ann Lee'])],
    )
    expect(three!.fields).toEqual({ Resource: 'Lab 4 – Wet Bench\nGym Court 1\nZoom Room Alpha', Participant: 'Olu Wei\nzacka@example.com\nBo Yin' })
    expect(one!.fields).toEqual({ Resource: 'Lecture Hall B', Participant: 'Ann Lee' })
  })

  it('reads the items a heading counts past a blank line and past detail lines under some of them', async () => {
    const summary = (items: Array<[string, string?]>) =>
      text(`Nice work, Ana!\n\nAchievements (${items.length})\n\n${items.map(([name, detail]) => (detail ? `${name}\n${detail}` : name)).join('\n')}\n\nRecorded with Trailbeat`)
    const [two, none] = await learnAndRun(
      summary([['PR on Hill Repeat', '0.70 km · 5.8% avg grade · 4:08'], ['3rd best estimated 5k effort'], ['2nd fastest time on Park Loop', '0.90 km · 2.0% avg grade · 4:52']]),
      [{ name: 'Achievement', value: 'PR on Hill Repeat' }],
      [summary([['PR on 10k'], ['2nd fastest time on Towpath Mile', '1.20 km · 0.4% avg grade · 5:01'], ['PR on 1 mile']]), summary([['PR on 5k']])],
    )
    expect(two!.fields.Achievement).toBe('PR on 10k\n2nd fastest time on Towpath Mile\nPR on 1 mile')
    expect(none!.fields.Achievement).toBe('PR on 5k')
  })

  it('reads nothing under a heading that counts none', async () => {
    const uncounted = text(`Reservation Details:\n\nTitle: Weekly sync\n\nResources:\nLecture Hall B\n\nParticipants (1):\nAnn Lee\nCreated by: Ann Lee`)
    const [got] = await learnAndRun(
      reservation(['Studio 3 – Podcast Booth', 'Conference Room A'], ['Dolores O’Connor', 'Yusuf Lee']),
      [{ name: 'Resource', value: 'Studio 3 – Podcast Booth' }],
      [uncounted],
    )
    expect(got!.fields.Resource).toBeNull()
  })
})

describe('items as cards of several lines', () => {
  type Card = { badge?: string; price: string; beds: string; baths: string; area: string; kind: string; street: string; city: string; openHouse?: string }
  const alert = (cards: Card[]) =>
    html(
      `<h2>Saved search</h2><p>Close-in eastside</p><p>${cards.length} new listings</p>` +
        cards
          .map(
            (c) =>
              `<table><tr><td>${c.badge ? `<p>${c.badge}</p>` : ''}<p><b>${c.price}</b></p><p>${c.beds} | ${c.baths} ba | ${c.area} sqft</p><p>${c.kind}</p>` +
              `<p>${c.street}<br>${c.city}</p>${c.openHouse ? `<p>Open house: ${c.openHouse}</p>` : ''}<p>Listing by: Redfin</p></td></tr></table>`,
          )
          .join('') +
        `<p>View all homes</p><p>You saved this search on Nestfind.</p>`,
    )
  const sample = alert([
    { badge: 'New', price: '$292,000', beds: '2 bd', baths: '1.5', area: '1,269', kind: 'Condo for sale', street: '9793 SE Hawthorne Blvd', city: 'Portland, OR 97211', openHouse: 'Tue, Jul 1, 10 AM' },
    { badge: 'Price cut: $15,000', price: '$319,000', beds: '4 bd', baths: '2', area: '2,522', kind: 'House for sale', street: '9647 NE Alberta St', city: 'Portland, OR 97214', openHouse: 'Mon, Jun 30, 2 PM' },
    { price: '$574,900', beds: '5 bd', baths: '3', area: '2,797', kind: 'House for sale', street: '5885 NW Johnson St', city: 'Milwaukie, OR 97222', openHouse: 'Sun, Jun 29, 1 PM' },
  ])
  const fields = [
    { name: 'Price', value: '$292,000' },
    { name: 'Beds', value: '2', context: { after: 'bd' } },
    { name: 'Area', value: '1,269' },
    { name: 'Address', value: '9793 SE Hawthorne Blvd' },
    { name: 'City', value: 'Portland, OR 97211' },
  ]

  it('reads each card by its key line, with badges and open-house lines coming and going', async () => {
    const [got] = await learnAndRun(sample, fields, [
      alert([
        { price: '$869,900', beds: '3 bd', baths: '2.5', area: '1,613', kind: 'Townhouse for sale', street: '7359 W Slaughter Ln', city: 'Austin, TX 78748' },
        { badge: 'New', price: '$1,446,000', beds: '4 bd', baths: '1', area: '1,554', kind: 'House for sale', street: '6773 Cherry Creek Dr', city: 'Round Rock, TX 78664', openHouse: 'Sat, Jul 27, 10 AM' },
      ]),
    ])
    expect(got!.fields).toEqual({
      Price: '$869,900\n$1,446,000',
      Beds: '3\n4',
      Area: '1,613\n1,554',
      Address: '7359 W Slaughter Ln\n6773 Cherry Creek Dr',
      City: 'Austin, TX 78748\nRound Rock, TX 78664',
    })
    expect(got!.status).toBe('success')
  })

  it("reads a card whose key line reads otherwise ('Studio') by its other lines, and says the key line's values are missing", async () => {
    const [got] = await learnAndRun(sample, fields, [
      alert([
        { price: '$244,900', beds: 'Studio', baths: '1', area: '612', kind: 'Condo for sale', street: '8101 Lowell Blvd', city: 'Denver, CO 80211' },
        { price: '$886,000', beds: '1 bd', baths: '1.5', area: '1,210', kind: 'Condo for sale', street: '6896 Perry St', city: 'Arvada, CO 80003' },
      ]),
    ])
    expect(got!.fields.Price).toBe('$244,900\n$886,000')
    expect(got!.fields.Address).toBe('8101 Lowell Blvd\n6896 Perry St')
    expect(got!.fields.Beds).toBe('\n1')
    expect(got!.status).toBe('partial')
    expect(got!.details.Beds!.reason).toBe('1 of 2 items have no value')
  })

  it('reads two sections of one email that look alike as values of their own when the second is highlighted too', async () => {
    const trip = (out: string, back: string) => text(`Your booking is confirmed\n\nOutbound\nFlight ${out} · 4 May 2023 · 02:47\nFrom: Dublin (DUB)\nReturn\nFlight ${back} · 12 May 2023 · 02:47\nFrom: Reykjavík (KEF)\n\nTotal: €34.00`)
    const [got] = await learnAndRun(
      trip('IB 5528', 'IB 647'),
      [
        { name: 'Flight', value: 'IB 5528' },
        { name: 'Date', value: '4 May 2023' },
        { name: 'Return flight', value: 'IB 647' },
      ],
      [trip('IB 100', 'IB 200')],
    )
    expect(got!.fields).toEqual({ Flight: 'IB 100', Date: '4 May 2023', 'Return flight': 'IB 200' })
  })
})

describe('never silently wrong', () => {
  it("a form's placeholder for an unanswered question is no value, with the reason", async () => {
    const mail = (company: string) => html(`<p>New response</p><p>Name</p><p>Ann Lee</p><p>Company</p><p><i>${company}</i></p><p>Team size</p><p>11–50</p>`)
    const [got, dash] = await learnAndRun(mail('Zeta Labs'), [{ name: 'Company', value: 'Zeta Labs' }, { name: 'Team', value: '11–50' }], [mail('No response'), mail('—')])
    expect(got!.fields).toEqual({ Company: null, Team: '11–50' })
    expect(got!.status).toBe('partial')
    expect(got!.details.Company!.reason).toBe('no answer (the email says "No response")')
    expect(dash!.fields.Company).toBeNull()
  })

  it("does not read a one-item block from another run of such lines when the line it followed is gone (a promotion's line)", async () => {
    const order = (promo: boolean, billingPhone: boolean, payment: string, total: string) =>
      html(
        `<p>Shipping address</p><p>Ann Lee</p><p>+1 583-807-2003</p><p>Billing address</p><p>Bo Yin</p>${billingPhone ? '<p>+1 212-555-0199</p>' : ''}` +
          `${promo ? '<p>Buy 3, save 15% • -$1.00</p>' : ''}<p>Total: ${total}</p><p>${payment}</p><p>${total}</p><p>FedEx</p><p>Ready</p><p>Thank you for shopping at our store!</p>`,
      )
    const [got] = await learnAndRun(
      order(true, false, 'Bank transfer', '$131.00'),
      [
        { name: 'Payment', value: 'Bank transfer' },
        { name: 'Total', value: '$131.00', context: { before: 'Total:' } },
      ],
      [order(false, true, 'PayPal', '$99.00')],
    )
    expect(got!.fields).toEqual({ Payment: 'PayPal', Total: '$99.00' })
  })

  it("a label whose value was on the label's line in the sample gives no value when it ends its line here (an empty attribute), not the next line's", async () => {
    const mail = (cost: string, purpose: string) => text(`Reservation Details:\n\nTitle: Weekly sync\nCost Center ${cost}\nPurpose ${purpose}\n\nReference Number: f520513`)
    const [empty, filled] = await learnAndRun(mail('PRJ 2026/45', 'Event'), [{ name: 'Cost Center', value: 'PRJ 2026/45' }], [mail('', 'Meeting'), mail('CC-4362', 'Teaching')])
    expect(empty!.fields['Cost Center']).toBeNull()
    expect(filled!.fields['Cost Center']).toBe('CC-4362')
  })

  it('an absent optional line is empty with a reason naming the field', async () => {
    const mail = (lines: string[]) => text(`Booking confirmed\n\n${lines.join('\n')}\n\nSee you soon!`)
    const sample = mail(['Guest: Ann Lee', 'Check-in: Mar 3, 2025', 'Special request: Late arrival', 'Total: $300.00'])
    const [got] = await learnAndRun(
      sample,
      [
        { name: 'Guest', value: 'Ann Lee' },
        { name: 'Request', value: 'Late arrival' },
        { name: 'Total', value: '$300.00' },
      ],
      [mail(['Guest: Bo Yin', 'Check-in: Apr 9, 2025', 'Total: $410.00'])],
    )
    expect(got!.fields).toEqual({ Guest: 'Bo Yin', Request: null, Total: '$410.00' })
    expect(got!.status).toBe('partial')
    expect(got!.details.Request!.reason).toMatch(/label/)
  })
})

describe("an email whose wording is not the sample's (another language)", () => {
  const receipt = (w: Record<string, string>, v: { station: string; id: string; date: string; total: string }, extraLine = false) =>
    html(
      `<h1>${w.title}</h1><p>${w.hello}</p><p>${w.thanks}</p><h2>${w.amount}</h2><p>${v.total}</p><h2>${w.station}</h2><p>${v.station}</p>${extraLine ? `<p>${w.note}</p>` : ''}<p>Königsallee 108<br>80331 München</p>` +
        `<h2>${w.details}</h2><table><tr><td>${w.id}</td><td>${v.id}</td></tr><tr><td>${w.date}</td><td>${v.date}</td></tr><tr><td>${w.energy}</td><td>32.9 kWh</td></tr></table><p>${w.footer}</p>`,
    )
  const en = { title: 'Charging receipt', hello: 'Hi Chloé,', thanks: 'Thanks for charging with Voltway.', amount: 'Amount charged', station: 'Station', details: 'Session details', id: 'Session ID', date: 'Date', energy: 'Energy delivered', footer: 'Questions? Reply to this email.', note: 'Open 24/7' }
  const de = { title: 'Ladequittung', hello: 'Hallo Ana,', thanks: 'Vielen Dank, dass Sie bei Voltway geladen haben.', amount: 'Bezahlter Betrag', station: 'Ladestation', details: 'Details zum Ladevorgang', id: 'Vorgangsnummer', date: 'Datum', energy: 'Geladene Energie', footer: 'Fragen? Antworten Sie auf diese E-Mail.', note: 'Rund um die Uhr geöffnet' }
  const fields = [
    { name: 'Station', value: 'Voltway Hub – Riverside' },
    { name: 'Session ID', value: '1250720054' },
    { name: 'Date', value: 'Aug 24, 2023' },
  ]
  const sample = receipt(en, { station: 'Voltway Hub – Riverside', id: '1250720054', date: 'Aug 24, 2023', total: '$30.62' })

  it('reads the values in their places, as partial with the reason', async () => {
    const [got] = await learnAndRun(sample, fields, [receipt(de, { station: 'Autohof Würzburg-Estenfeld', id: 'B1AF-A4CC-BC61', date: '11.05.2025', total: '22,75 €' })])
    expect(got!.fields).toEqual({ Station: 'Autohof Würzburg-Estenfeld', 'Session ID': 'B1AF-A4CC-BC61', Date: '11.05.2025' })
    expect(got!.status).toBe('partial')
    expect(got!.details.Station!.reason).toBe("read by its place: the email's wording differs from the sample's")
  })

  it("does not read by place a line whose neighbour is not the sample's (the value's line gone, another in its place)", async () => {
    const mail = (w: string[], ref: string | null, station: string | null) =>
      html(`<h1>${w[0]}</h1>${ref ? `<p>${w[1]} ${ref}</p>` : ''}${station ? `<p>${station}</p>` : `<p>${w[2]}</p>`}<p>${w[3]} 30.62</p><p>${w[4]}</p><p>${w[5]}</p><p>${w[6]}</p>`)
    const english = ['Charging receipt', 'Ref', 'unused', 'Total', 'Questions? Reply to this email.', 'Voltway Inc.', 'Unsubscribe']
    const german = ['Ladequittung', 'Ref', 'Vielen Dank für Ihren Besuch', 'Summe', 'Fragen? Antworten Sie auf diese E-Mail.', 'Voltway GmbH', 'Abmelden']
    const [got] = await learnAndRun(mail(english, '12345', 'Voltway Hub – Riverside'), [{ name: 'Station', value: 'Voltway Hub – Riverside' }], [mail(german, null, null)])
    expect(got!.fields.Station).toBeNull()
  })

  it("is not asked of an email with the sample's wording: the missing value is missing", async () => {
    const trained = await trainParser(sample, fields)
    if (!trained.ok) throw new Error(trained.reason)
    const own = await parseEmail(sample)
    const german = await parseEmail(receipt(de, { station: 'Autohof Würzburg-Estenfeld', id: 'B1AF-A4CC-BC61', date: '11.05.2025', total: '22,75 €' }))
    if (!own.ok || !german.ok) throw new Error('unreadable')
    const station = trained.template.fields[0]!
    const docOf = (email: NormalisedEmail) => {
      const rendered = renderEmail(email)
      if (!rendered.ok) throw new Error(rendered.reason)
      return rendered.rendered.docs.html!
    }
    expect(readByPlace(trained.template, station, docOf(german.email), 'html')).toBe('Autohof Würzburg-Estenfeld')
    expect(readByPlace(trained.template, station, docOf(own.email), 'html')).toBeNull()
  })
})

describe('learning from two samples', () => {
  const mail = (city: string, zip: string, extra = '') => text(`Your parcel is on its way.\n\nDeliver to\nAnn Lee\n${extra}${city} ${zip}\n\nThank you for choosing Parcelnet.`)

  it('drops an anchor that was data in the first sample (the city before a postcode)', async () => {
    const one = await trainParser(mail('Paris', '75002'), [{ name: 'Postcode', value: '75002' }])
    if (!one.ok) throw new Error(one.reason)
    expect((await runParser(one.template, mail('Nice', '06000'))).fields.Postcode).toBeNull()
    const two = await trainParserFromSamples([
      { email: mail('Paris', '75002'), fields: [{ name: 'Postcode', value: '75002' }] },
      { email: mail('Lyon', '69001'), fields: [{ name: 'Postcode', value: '69001' }] },
    ])
    if (!two.ok) throw new Error(two.reason)
    expect((await runParser(two.template, mail('Nice', '06000'))).fields.Postcode).toBe('06000')
  })

  it("reads a city under its block's heading when the lines above it in the block were data nobody highlighted", async () => {
    const po = (company: string, attn: string, street: string, extra: string, city: string) =>
      text(`Purchase order PO-1\n\nShip To\n\n${company}\nAttn: ${attn}\n${street}\n${extra}${city}, CA 95113\nUnited States\n\nBill To\n\n${company}\nPO Box 31518\n${city}, CA 95113\nUnited States\n\nThank you.`)
    const two = await trainParserFromSamples([
      { email: po("O'Reilly Auto Parts", 'Facilities Dept.', '3836 Bahnhofstrasse', 'c/o Reception\n', 'San José'), fields: [{ name: 'City', value: 'San José' }] },
      { email: po('Zeta Labs, Inc.', 'Maintenance Stores', '6442 Elm Road', '', 'Ann Arbor'), fields: [{ name: 'City', value: 'Ann Arbor' }] },
    ])
    if (!two.ok) throw new Error(two.reason)
    const got = await runParser(two.template, po('Acme Corp', 'Receiving', '12 Harbor Way', 'Suite 210\n', 'Boise'))
    expect(got.fields.City).toBe('Boise')
  })

  it('a second sample without an optional line teaches that the line can be absent', async () => {
    const fields = (company?: string) => [{ name: 'Name', value: 'Ann Lee' }, ...(company ? [{ name: 'Company', value: company }] : [])]
    const two = await trainParserFromSamples([
      { email: mail('Paris', '75002', 'Acme Corp\n'), fields: fields('Acme Corp') },
      { email: mail('Lyon', '69001'), fields: fields() },
    ])
    if (!two.ok) throw new Error(two.reason)
    const got = await runParser(two.template, mail('Nice', '06000'))
    expect(got.fields).toEqual({ Name: 'Ann Lee', Company: null })
    const withCompany = await runParser(two.template, mail('Nice', '06000', 'Globex\n'))
    expect(withCompany.fields).toEqual({ Name: 'Ann Lee', Company: 'Globex' })
  })
})

describe('a fifth batch of senders (decision 033)', () => {
  type Service = [string, string, string, Array<[string, string]>, Array<[string, string]>, string]
  const service = ([num, kind, plan, charges, extras, total]: Service) =>
    `<p>${num}</p><p>${kind}</p><p><b>${plan}</b></p><table>` +
    charges.map(([l, v]) => `<tr><td>${l}</td><td>${v}</td></tr>`).join('') +
    (extras.length ? `<tr><td colspan="2"><b>One-off charges</b></td></tr>${extras.map(([l, v]) => `<tr><td>${l}</td><td>${v}</td></tr>`).join('')}` : '') +
    `<tr><td><b>Service total</b></td><td><b>${total}</b></td></tr></table>`
  const bill = (services: Service[]) =>
    html(`<h1>Your bill is ready</h1><p>Amount due $312.02</p><h2>Your services</h2>${services.map(service).join('')}<table><tr><td>Total new charges</td><td>$312.02</td></tr></table><p>All amounts include GST.</p>`)

  it("reads sections under headings of several lines, over rows and sub-headings of any number, closed by the same row (a bill's services)", async () => {
    const sample = bill([
      ['0490 012 148', 'Mobile', 'Mobile Plan Large – 5G, 300GB', [['Plan charges 6 Sep – 5 Oct', '$99.00'], ['Device payment (20 of 24)', '$58.29']], [['Extra data 10GB', '$10.00']], '$167.29'],
      ['0430 520 383', "Mobile · Ngozi's Pixel", 'Choice Plus $69 Plan', [['Plan charges 6 Sep – 5 Oct', '$69.00']], [], '$69.00'],
      ['0417 016 656', 'Mobile Broadband · iPad', 'Upfront Data Plan – Small (30GB)', [['Plan charges 6 Sep – 5 Oct', '$35.00'], ['Device payment (21 of 24)', '$29.13']], [['International Day Pass', '$10.00']], '$74.13'],
    ])
    const target = bill([
      ['0400 393 640', 'Mobile', 'Upfront Mobile Plan – Essential (80GB)', [['Plan charges 6 Oct – 5 Nov', '$65.00']], [['Extra data 10GB', '$10.00'], ['Premium SMS', '$6.60']], '$81.60'],
      ['0458 785 948', 'Mobile · Dad', 'Upfront Mobile Plan – Basic (25GB)', [['Plan charges 6 Oct – 5 Nov', '$48.00'], ['Device payment (3 of 24)', '$20.00']], [], '$68.00'],
    ])
    const fields = [
      { name: 'Service', value: '0490 012 148' },
      { name: 'Plan', value: 'Mobile Plan Large – 5G, 300GB' },
      { name: 'Service Total', value: '$167.29' },
    ]
    const [result] = await learnAndRun(sample, fields, [target])
    expect(result!.status).toBe('success')
    expect(result!.fields).toEqual({
      Service: '0400 393 640\n0458 785 948',
      Plan: 'Upfront Mobile Plan – Essential (80GB)\nUpfront Mobile Plan – Basic (25GB)',
      'Service Total': '$81.60\n$68.00',
    })
  })

  const remittance = (reference: string | null, rows: Array<[string, string, string]>) =>
    html(
      `<p>Here is the remittance advice for your invoices.</p><div>Paid by</div><div>Harbourside Plumbing Pty Ltd</div><div>ABN 48 123 907 551</div><div>Payment date</div><div>9 Oct 2023</div>` +
        (reference ? `<div>Payment reference</div><div>${reference}</div>` : '') +
        `<div>Amount paid</div><div>AUD 3,783.12</div><table><tr><th>Invoice Date</th><th>Reference</th><th>Amount Paid</th></tr>` +
        rows.map(([d, r, a]) => `<tr><td>${d}</td><td>${r}</td><td>${a}</td></tr>`).join('') +
        `<tr><td>Total AUD</td><td></td><td>3,783.12</td></tr></table><p>Download PDF</p>`,
    )

  it("reads a reference column's whole cell when it goes on after the reference (`INV-04340 / PO 5020`)", async () => {
    const sample = remittance('EFT 231009', [['3 Aug 2023', 'INV-03742', '3,560.62'], ['13 Aug 2023', 'INV-03759', '471.50']])
    const target = remittance('EFT 231010', [['3 Sep 2023', 'INV-04310', '120.00'], ['8 Sep 2023', 'INV-04340 / PO 5020', '3,663.12']])
    const [result] = await learnAndRun(sample, [{ name: 'Invoice', value: 'INV-03742' }], [target])
    expect(result!.fields.Invoice).toBe('INV-04310\nINV-04340 / PO 5020')
  })

  it("leaves a label's field empty when the label is gone, not read after another label of its first words (`Payment date`) or by its place", async () => {
    const sample = remittance('EFT 231009', [['3 Aug 2023', 'INV-03742', '3,560.62']])
    const target = remittance(null, [['3 Sep 2023', 'INV-04310', '120.00']])
    const [result] = await learnAndRun(sample, [{ name: 'Payment Reference', value: 'EFT 231009' }, { name: 'Amount', value: 'AUD 3,783.12' }], [target])
    expect(result!.fields['Payment Reference']).toBeNull()
    expect(result!.fields.Amount).toBe('AUD 3,783.12')
    expect(result!.status).toBe('partial')
  })

  it("leaves a payer's reference empty where the remittance has none, though its words appear apart (`Payment date`, a `Reference` column)", async () => {
    // The corpus sender's own emails: 011 has no `Payment reference` line. A rule that counts
    // blocks from `Payment date` would read the amount paid in its place.
    const dir = join(import.meta.dirname, '..', '..', 'tests', 'fixtures', 'corpus', 'remittance-advice')
    const fields: ExtractionField[] = JSON.parse(await readFile(join(dir, 'fields.json'), 'utf8'))
    const [result] = await learnAndRun((await readFile(join(dir, '001.eml'), 'utf8')), fields, [await readFile(join(dir, '011.eml'), 'utf8')])
    expect(result!.fields['Payment Reference']).toBeNull()
    expect(result!.status).toBe('partial')
  })

  type Klass = [status: string, name: string, date: string, time: string, teacher: string, place: string, room: string, waitlist: boolean]
  const classCard = ([status, name, date, time, teacher, place, room, waitlist]: Klass) =>
    `<div>${status}</div><div><b>${name}</b></div><div>${date}</div><div>${time}</div><div>with <b>${teacher}</b></div><div><b>${place}</b> — ${room}</div><div>Add to calendar: Apple · Google · Outlook</div>` +
    (waitlist
      ? `<div>If you're added from the waitlist, the same policy applies: cancel by ${date.split(',')[0]} at 6:00 AM.</div>`
      : `<div>Need to cancel? Cancel by ${date.split(',')[0]} at 6:00 AM to avoid losing a class.</div>`) +
    '<br>'
  const classes = (list: Klass[]) => html(`<h1>You're booked!</h1><p>Hi Mohammed, here are your classes.</p>${list.map(classCard).join('')}<p>Please arrive 10 minutes early.</p>`)

  it("keys cards by a line every card has, not one a card words otherwise, and reads a value before a separator whose line goes on otherwise (`Pearl District — Studio A`)", async () => {
    const sample = classes([
      ['Booked', 'Hot Power Flow 75', 'Thursday, September 5, 2024', '6:00 AM – 7:15 AM · 1 hr 15 min', 'Maya Lindström', 'Pearl District', 'Studio A (Heated)', false],
      ['Booked', 'Yin + Sound Bath', 'Saturday, September 7, 2024', '7:00 PM – 8:15 PM · 1 hr 15 min', 'Anna-Lena Hoffmann', 'Hawthorne', 'Garden Room', false],
      ['Waitlist #2', 'Barre Burn', 'Tuesday, September 10, 2024', '12:00 PM – 12:50 PM · 50 min', 'Dani Okafor', 'Pearl District', 'Studio B – Barre', true],
    ])
    const target = classes([
      ['Booked', 'Barre Burn', 'Wednesday, March 5, 2025', '9:00 AM – 9:50 AM · 50 min', 'Kiri Walker', 'Hawthorne', 'Garden Room', false],
      ['Waitlist #1', 'Slow Flow & Restore', 'Monday, March 3, 2025', '5:30 PM – 6:30 PM · 1 hr', 'Grace Lee', 'Lake Oswego', 'Main Studio', true],
    ])
    const fields = [
      { name: 'Class', value: 'Hot Power Flow 75' },
      { name: 'Date', value: 'Thursday, September 5, 2024' },
      { name: 'Instructor', value: 'Maya Lindström' },
      { name: 'Location', value: 'Pearl District' },
      { name: 'Cancel By', value: 'Thursday at 6:00 AM' },
    ]
    const [result] = await learnAndRun(sample, fields, [target])
    expect({ ...result!.fields, 'Cancel By': undefined }).toEqual({ 'Cancel By': undefined, Class: 'Barre Burn\nSlow Flow & Restore', Date: 'Wednesday, March 5, 2025\nMonday, March 3, 2025', Instructor: 'Kiri Walker\nGrace Lee', Location: 'Hawthorne\nLake Oswego' })
  })

  it("keys a studio's class cards by the line every card has, not the cancellation sentence a waitlisted card words otherwise", async () => {
    // The corpus sender's own emails: 003 books two classes.
    const dir = join(import.meta.dirname, '..', '..', 'tests', 'fixtures', 'corpus', 'gym-class-booking')
    const fields: ExtractionField[] = JSON.parse(await readFile(join(dir, 'fields.json'), 'utf8'))
    const [result] = await learnAndRun(await readFile(join(dir, '001.eml'), 'utf8'), fields, [await readFile(join(dir, '003.eml'), 'utf8')])
    expect(result!.fields.Class).toBe('Vinyasa 2/3\nHot Power Flow 75')
    expect(result!.fields.Instructor).toBe('Grace Lee\nTomás Echeverría')
    expect(result!.fields.Location).toBe('Pearl District\nPearl District')
  })

  const inquiry = (name: string, services: string[], budget: string) =>
    html(
      `<h1>You've got a new response!</h1><p><b>First up, what's your name?</b></p><p>${name}</p><p><b>Which services are you interested in?</b></p><div>${services.join('</div><div>')}</div>` +
        `<p><b>What's your budget for this project, ${name.split(' ')[0]}?</b></p><p>${budget}</p><p><b>When would you like to get started?</b></p><p>In 3–6 months</p><p>See all responses</p>`,
    )

  it("reads a form's ticked choices, one a line, up to the next question, and a question that names the respondent by the words around the name", async () => {
    const sample = inquiry("Tom D'Aubigné", ['Strategy & workshops', 'Web development', 'SEO, analytics & tracking'], '€15,000 – €30,000')
    const target = inquiry('Priya Patel', ['UX research', 'Copywriting'], 'Less than €5,000')
    const fields = [
      { name: 'Name', value: "Tom D'Aubigné" },
      { name: 'Services', value: 'Strategy & workshops' },
      { name: 'Budget', value: '€15,000 – €30,000' },
    ]
    const [result] = await learnAndRun(sample, fields, [target])
    expect(result!.fields).toEqual({ Name: 'Priya Patel', Services: 'UX research\nCopywriting', Budget: 'Less than €5,000' })
    expect(result!.status).toBe('success')
  })

  it("does not take a question without a `?` and its answer for more choices (`Your email address`, an address)", async () => {
    const rsvp = (name: string, email: string) =>
      html(`<p>New response to Spring Summit RSVP</p><div>What is your full name?</div><div>${name}</div><div>Your email address</div><div>${email}</div><div>Which date will you attend?</div><div>2025-10-16</div>`)
    const [result] = await learnAndRun(rsvp('Łukasz van der Berg', 'ukasz.berg@example.org'), [{ name: 'Full Name', value: 'Łukasz van der Berg' }], [rsvp('Nuño MacDonald', 'nuno.macdonald@example.org')])
    expect(result!.fields['Full Name']).toBe('Nuño MacDonald')
  })

  it("reads a value that ended its cell's first line (a name over a badge) as the whole cell where the cell has one line", async () => {
    const reservation = (guest: string) => html(`<p>You've received a new booking.</p><table><tr><td>Booking number</td><td>3763632636</td></tr><tr><td>Guest name</td><td>${guest}</td></tr><tr><td>Guests</td><td>2 adults</td></tr></table>`)
    const [result] = await learnAndRun(reservation('Olu de la Cruz<div>Genius</div>'), [{ name: 'Guest', value: 'Olu de la Cruz' }], [reservation('Grace Hoffmann')])
    expect(result!.fields.Guest).toBe('Grace Hoffmann')
  })

  it('says the items may not be all where a row after them reads like one but for a merged cell (a contractor under employees)', async () => {
    type Pay = [name: string, kind: string, gross: string, net: string | null]
    const payroll = (rows: Pay[]) =>
      html(
        `<p>Your payroll was submitted.</p><h3>Team payments</h3><table><tr><th>Team member</th><th>Gross pay</th><th>Net pay</th></tr>` +
          rows.map(([n, k, g, net]) => (net ? `<tr><td>${n}<div>${k}</div></td><td>${g}</td><td>${net}</td></tr>` : `<tr><td>${n}<div>${k}</div></td><td colspan="2">${g}</td></tr>`)).join('') +
          `</table><p>View payroll receipt</p>`,
      )
    const sample = payroll([['Jean-Luc Brontë', 'Hourly · 80 hrs', '$1,817.37', '$1,272.82'], ["François N'Diaye", 'Salary', '$3,423.08', '$2,545.06'], ['Ève Müller', 'Contractor', '$5,200.00', null]])
    const target = payroll([['Åsa Lee', 'Hourly · 86.67 hrs', '$3,549.14', '$2,859.72'], ['Ines Wójcik', 'Salary', '$3,333.33', '$2,080.00'], ['Ève Müller', 'Contractor', '$3,635.00', null]])
    const [result] = await learnAndRun(sample, [{ name: 'Employee', value: 'Jean-Luc Brontë' }, { name: 'Gross Pay', value: '$1,817.37' }], [target])
    expect(result!.status).toBe('partial')
    expect(result!.details.Employee!.reason).toBe('the items end at a row that does not read like them (2 read)')
  })

  it('a label the sample showed once that starts several lines here gives the first value as partial, with the reason', async () => {
    const overdue = (items: Array<[string, string]>) =>
      text(`Dear Chloé,\nLibrary card: 21537416123190\n\nThe following item(s) are overdue:\n\n${items.map(([t, b]) => `Barcode: ${b} (${t})`).join('\n')}\n\nThank you.`)
    const sample = overdue([['Dune / Frank Herbert', '31537332444276']])
    const target = overdue([['Moana', '31537408697468'], ['Pachinko', '31537983771469']])
    const [result] = await learnAndRun(sample, [{ name: 'Barcode', value: '31537332444276' }], [target])
    expect(result!.status).toBe('partial')
    expect(result!.details.Barcode!.reason).toBe('the sample showed "barcode" once, this email 2 times')
  })
})

describe("senders from open-source projects' own templates (decision 034)", () => {
  const shipTo = (lines: string[]) =>
    html(`<p>Thank you for your order!</p><h3>Shipping To: Tom MacDonald</h3><ul>${lines.map((l) => `<li>${l}</li>`).join('')}</ul><p>Order Summary:</p><p>Questions? Reply to this email.</p>`)
  const addressFields = [
    { name: 'Street', value: '102 Chemin des Écoliers' },
    { name: 'City', value: 'Salt Lake City' },
    { name: 'Postal Code', value: '84101' },
  ]

  it("reads an address list's lines around a company, a second line and a state that come and go, and takes no line of the list for a label", async () => {
    const sample = shipTo(['Blue Fern Studio', '102 Chemin des Écoliers', 'Suite 210', 'Salt Lake City', 'UT', '84101', 'United States of America', '07884 233871'])
    const targets = [
      shipTo(['200 Calle Mayor', 'Ann Arbor', 'MI', '48104', 'United States of America']),
      shipTo(['230 Baker Street', 'c/o Reception', 'Nice', '06000', 'France', '+1 (629) 614-3153']),
      shipTo(['140 Rue de la Paix', '2nd floor', 'Lyon', '69002', 'France']),
    ]
    const results = await learnAndRun(sample, addressFields, targets)
    expect(results.map((r) => r.fields)).toEqual([
      { Street: '200 Calle Mayor', City: 'Ann Arbor', 'Postal Code': '48104' },
      { Street: '230 Baker Street', City: 'Nice', 'Postal Code': '06000' },
      { Street: '140 Rue de la Paix', City: 'Lyon', 'Postal Code': '69002' },
    ])
  })

  it("takes no company's name over a street for the street's label", async () => {
    const letter = (company: string | null, street: string) =>
      text(`Invoice INV-2207\n\nBill to:\nNuño Okonkwo\n${company ? `${company}\n` : ''}${street}\nSpringfield, IL 62701\n\nTotal due: $120.00`)
    const [result] = await learnAndRun(letter('Zeta Labs, Inc.', '9259 Baker Street'), [{ name: 'Street', value: '9259 Baker Street' }], [letter(null, '41 Elm Road')])
    expect(result!.fields.Street).toBe('41 Elm Road')
  })

  it('reads a time beside a date and its time zone, all highlighted, on a line that is no item', async () => {
    const when = (date: string, start: string, end: string, zone: string) =>
      html(`<p>A new event has been scheduled.</p><p>What</p><p>Coffee Chat</p><p>When</p><p>${date} | ${start} - ${end} (${zone})</p><p>Who</p><p>Jean-Luc Müller - Organizer</p>`)
    const fields = [
      { name: 'Date', value: 'Friday, October 2, 2026' },
      { name: 'Start Time', value: '2:30pm' },
      { name: 'Time Zone', value: 'Europe/Berlin' },
    ]
    const [result] = await learnAndRun(when('Friday, October 2, 2026', '2:30pm', '2:50pm', 'Europe/Berlin'), fields, [when('Tuesday, March 17, 2026', '9:00am', '9:45am', 'America/New_York')])
    expect(result!.fields).toEqual({ Date: 'Tuesday, March 17, 2026', 'Start Time': '9:00am', 'Time Zone': 'America/New_York' })
  })

  it("does not read a labelled line's amount as the next line's when the label is gone", async () => {
    const summary = (tax: boolean) =>
      text(
        `Order Summary\n\nSubtotal: $225.39\nShipping: UPS Ground (USD) $7.50\n${tax ? 'Tax: NY Sales Tax 8.875% $17.00\n' : ''}Order Total: $${tax ? '249.89' : '232.89'}\n\nThank you for your business.`,
      )
    const [result] = await learnAndRun(summary(true), [{ name: 'Tax', value: '$17.00' }, { name: 'Order Total', value: '$249.89' }], [summary(false)])
    expect(result!.fields).toEqual({ Tax: null, 'Order Total': '$232.89' })
    expect(result!.status).toBe('partial')
  })

  it("takes a quantity from its own place, not from inside another highlighted value (`Cable (2 m)`)", async () => {
    const order = (rows: Array<[string, string, number, string]>) =>
      html(`<p>Order Summary</p><table>${rows.map(([sku, name, qty, price]) => `<tr><td>${sku}</td><td>${name}</td><td>(${qty}) @ ${price}</td></tr>`).join('')}<tr><td></td><td>Order Total:</td><td>$216.08</td></tr></table>`)
    const sample = order([
      ['USB-08664', 'USB-C Cable (2 m)', 2, '$87.95'],
      ['SOL-WB-04118', 'Solidus Water Bottle', 1, '$18.99'],
    ])
    const target = order([
      ['DES-06872', 'Desk Lamp', 3, '$22.99'],
      ['SOL-MG-02842', 'Solidus Mug', 1, '$13.50'],
      ['USB-08664', 'USB-C Cable (2 m)', 4, '$87.95'],
    ])
    const [result] = await learnAndRun(sample, [{ name: 'Item', value: 'USB-C Cable (2 m)' }, { name: 'Quantity', value: '2' }], [target])
    expect(result!.fields).toEqual({ Item: 'Desk Lamp\nSolidus Mug\nUSB-C Cable (2 m)', Quantity: '3\n1\n4' })
  })

  it('reads one item under a header drawn with rules, where its amount equals the net amount under the table', async () => {
    const invoice = (rows: Array<[string, string, string, string]>, net: string) =>
      text(
        `RECHNUNG / INVOICE\n\nInvoice no. ....: 2025-22716\n\n+---------+-------------------+-----+------------+\n| SKU\tDescription\tQty\tAmount EUR |\n+---------+-------------------+-----+------------+\n` +
          rows.map((r) => `| ${r.join('\t')} |\n`).join('') +
          `+---------+-------------------+-----+------------+\nNet amount\t${net}\nVAT 19%\t3.136,88\n\nPayable within 14 days.`,
      )
    const sample = invoice([['66-6252', 'USB-C Cable (2 m)', '66', '16.509,90']], '16.509,90')
    const target = invoice(
      [
        ['40-1407', 'Desk Lamp', '38', '9.535,34'],
        ['98-3853', 'Crème Brûlée Torch', '2', '6,22'],
      ],
      '9.541,56',
    )
    const fields = [
      { name: 'SKU', value: '66-6252' },
      { name: 'Qty', value: '66' },
      { name: 'Amount', value: '16.509,90' },
    ]
    const [result] = await learnAndRun(sample, fields, [target])
    expect(result!.fields).toEqual({ SKU: '40-1407\n98-3853', Qty: '38\n2', Amount: '9.535,34\n6,22' })
  })

  it("cuts an item's name at its code in brackets, not at a bracket of words in the name", async () => {
    const order = (rows: Array<[number, string, string]>) =>
      html(`<p>Products</p><table>${rows.map(([q, n, p]) => `<tr><td>${q}&nbsp;x</td><td>${n}</td><td>${p}</td></tr>`).join('')}</table><p>---------</p><table><tr><td>Sub-Total:</td><td>$264.45</td></tr><tr><td>Total:</td><td>$267.09</td></tr></table>`)
    const sample = order([
      [1, 'Merino Wool Beanie (MWB-A)', '$31.50'],
      [8, 'Gift Certificate $25 (GIFT-CERT)', '$200.00'],
    ])
    const target = order([
      [2, 'Hand-Tied Woolly Bugger (6 pk) (HTW-B)', '$19.90'],
      [1, 'Matrox G200 MMS (MG-MMS)', '$299.99'],
    ])
    const [result] = await learnAndRun(sample, [{ name: 'Product', value: 'Merino Wool Beanie' }], [target])
    expect(result!.fields.Product).toBe('Hand-Tied Woolly Bugger (6 pk)\nMatrox G200 MMS')
  })

  it("anchors on a heading's words before the shop it names, which other shops' emails name otherwise", async () => {
    const confirmation = (shop: string, name: string) =>
      text(`Order Confirmation from ${shop}\n\n${name}\n\nThanks for shopping with us today!\nThe following are the details of your order.\n------------------------------------------------------\nOrder Number: 26844`)
    const [result] = await learnAndRun(confirmation('Hollow Oak Outfitters', 'Tom van der Berg'), [{ name: 'Customer', value: 'Tom van der Berg' }], [confirmation('The Tinkerer’s Bench', 'Ana María Smith')])
    expect(result!.fields.Customer).toBe('Ana María Smith')
  })

  it("reads a one-item sample's line with words nobody highlighted (an author) as data, so other items' lines are items", async () => {
    const overdue = (items: Array<[string, string, string, string]>) =>
      text(
        `Dear Søren O’Connor,\n\nThe following item(s) is/are currently overdue:\n\n${items.map(([t, a, b, d]) => `${t} / ${a}. Barcode: ${b} Due: ${d}`).join('\n')}\n\nThank-you for your prompt attention to this matter.`,
      )
    const sample = overdue([['Lonely Planet Iceland', 'Carolyn Bain', '38397962404000', '05/03/2023']])
    const target = overdue([
      ['Dune', 'Frank Herbert', '36406216067935', '09/16/2025'],
      ['Atomic Habits', 'James Clear', '36406102750847', '09/19/2025'],
    ])
    const fields = [
      { name: 'Title', value: 'Lonely Planet Iceland' },
      { name: 'Barcode', value: '38397962404000' },
    ]
    const [result] = await learnAndRun(sample, fields, [target])
    expect(result!.fields).toEqual({ Title: 'Dune\nAtomic Habits', Barcode: '36406216067935\n36406102750847' })
  })

  it("reads a record's parts separated by semicolons by their place, when parts after them come and go", async () => {
    const response = (contact: string) =>
      html(`<p>Someone just completed your survey: Beta Program Feedback</p><p>Your contact details</p><p>${contact}</p><p>What best describes your role?</p><p>Designer</p>`)
    const fields = [
      { name: 'First Name', value: 'Matthäus' },
      { name: 'Last Name', value: 'Nguyễn' },
      { name: 'Email', value: 'mnguyen@example.co.uk' },
      { name: 'Company', value: 'Brightside Dental' },
    ]
    const [short, full] = await learnAndRun(response('Matthäus; Nguyễn; mnguyen@example.co.uk; +49 39 5925511; Brightside Dental'), fields, [
      response('Nuño; Łącka; nuno53@example.co.uk; +49 48 24 68 07'),
      response('Priya; O’Connor; priya98@example.com; +1 555 0100; Zeta Labs, Inc.'),
    ])
    expect(short!.fields).toEqual({ 'First Name': 'Nuño', 'Last Name': 'Łącka', Email: 'nuno53@example.co.uk', Company: null })
    expect(short!.status).toBe('partial')
    expect(full!.fields).toEqual({ 'First Name': 'Priya', 'Last Name': 'O’Connor', Email: 'priya98@example.com', Company: 'Zeta Labs, Inc.' })
  })

  it("reads a form's answer under its question, not as items with the questions between them", async () => {
    const response = (satisfaction: string, recommend: string) =>
      html(`<p>How satisfied are you with the beta so far?</p><p>${satisfaction}</p><p>How likely are you to recommend us to a friend or colleague?</p><p>${recommend}</p><p>Which features have you tried?</p><p>Dashboards; CSV export</p>`)
    const [result] = await learnAndRun(response('4', '10'), [{ name: 'Satisfaction', value: '4' }], [response('2', '5')])
    expect(result!.fields.Satisfaction).toBe('2')
  })

  it("takes a billing and a delivery address that look alike for two sections, not two items", async () => {
    const order = (billing: string[], delivery: string[]) =>
      html(`<p>Thank you for your order 64906.</p><h3>Billing address</h3><p>${billing.join('<br>')}</p><h3>Delivery address</h3><p>${delivery.join('<br>')}</p><p>payment</p><h4>Cash on delivery</h4>`)
    const sample = order(['Ms Ngozi Álvarez', 'Elm Road 101', '06000 Nice', 'ngozi.alvarez@mail.example.net'], ['Ms Li Álvarez', 'Elm Road 112', '80331 München', 'li@example.com'])
    const target = order(['Ms Priya Patel', 'Baker Street 12', '75002 Paris', 'priya@example.org'], ['Ms Priya Patel', 'Baker Street 12', '75002 Paris', 'priya@example.org'])
    const fields = [
      { name: 'City', value: '06000 Nice' },
      { name: 'E-Mail', value: 'ngozi.alvarez@mail.example.net' },
    ]
    const [result] = await learnAndRun(sample, fields, [target])
    expect(result!.fields).toEqual({ City: '75002 Paris', 'E-Mail': 'priya@example.org' })
  })

  it("leaves a form's answer out when its heading is, rather than read the next heading's answer", async () => {
    const booking = (notes: string | null, company: string | null) =>
      html(
        `<p>What</p><p>Coffee Chat</p><p>Description</p><p>We walk through the product together.</p>` +
          (notes ? `<p>Additional notes</p><p>${notes}</p>` : '') +
          (company ? `<p>Company</p><p>${company}</p>` : '') +
          `<p>How did you hear about us?</p><p>Podcast</p><p>Need to make a change?</p>`,
      )
    const fields = [
      { name: 'Additional Notes', value: 'Looking forward to it!' },
      { name: 'Company', value: 'Initech' },
    ]
    const [noNotes, noCompany] = await learnAndRun(booking('Looking forward to it!', 'Initech'), fields, [booking(null, 'Kōbō Design'), booking('Bring the slides.', null)])
    expect(noNotes!.fields).toEqual({ 'Additional Notes': null, Company: 'Kōbō Design' })
    expect(noCompany!.fields).toEqual({ 'Additional Notes': 'Bring the slides.', Company: null })
  })

  it("keeps a sentence's own words fixed on a line read as one item (`… dropped it off at 7:42 PM`)", async () => {
    const delivered = (courier: string, time: string) =>
      html(`<h1>Your order from Dishoom was delivered</h1><p>${courier} dropped it off at ${time}</p><table><tr><td>Delivery fee</td><td>$2.99</td></tr><tr><td>Total charged</td><td>$31.40</td></tr></table>`)
    const [result] = await learnAndRun(delivered('Kiri', '7:42 PM'), [{ name: 'Courier', value: 'Kiri' }, { name: 'Total', value: '$31.40' }], [delivered('Ana María', '8:15 PM')])
    expect(result!.fields).toEqual({ Courier: 'Ana María', Total: '$31.40' })
  })

  it('takes no article alone for a label (`as a Viewer`, also found in `S.A.`)', async () => {
    const invite = (company: string, role: string) =>
      text(`Hello,\n\nKiri de la Cruz (kcruz@example.co.uk) has invited you to join the ${company} team on Example as a ${role}.\n\nAccept invitation`)
    const [result] = await learnAndRun(invite('Acme Corp', 'Viewer (read-only)'), [{ name: 'Role', value: 'Viewer (read-only)' }], [invite('Peña Hermanos S.A.', 'Editor')])
    expect(result!.fields.Role).toBe('Editor')
  })
})

describe("ten more senders from open-source projects' own templates (decision 035)", () => {
  const addresses = (rows: string[][]) => html(`<p>Thank you for your order!</p>${rows.map(([heading, ...lines]) => `<h3>${heading}</h3><p>${lines.join('<br>')}</p>`).join('')}<p>Order Total: 156.80 €</p>`)

  it("reads a name after any title (`Ms`, `Mr`, `Ms Dr`) and an address under an optional company, whose street puts its number either side", async () => {
    const order = (billing: string[], delivery: string[] | null) => addresses([['Billing address', ...billing, 'Germany'], ['Delivery address', ...(delivery ? [...delivery, 'Germany'] : ['like billing address'])]])
    const fields = [
      { name: 'Customer', value: 'Ngozi Álvarez', context: { occurrence: 0 } },
      { name: 'Street', value: '175 Chemin des Écoliers', context: { occurrence: 0 } },
    ]
    const results = await learnAndRun(order(['Blue Fern Studio', 'Miss Ngozi Álvarez', '175 Chemin des Écoliers', '97400 Saint-Denis'], ['Ms Li Álvarez', '12 Elm Road', '80331 München']), fields, [
      order(['Peña Hermanos S.A.', 'Mr Ana María van der Berg', 'Torstraße 51', '10115 Berlin'], ['Miss Zoë Wei', '7 Calle Mayor', '50667 Köln']),
      order(['Mr Priya Martin', 'Baker Street 75', '70173 Stuttgart'], null),
      order(['Kōbō Design', 'Ms Dr Nuño de la Cruz', '12 NW 23rd Ave', '80331 München'], null),
      order(['Mrs. Hélène Khan', 'Schillerweg 26', '70173 Stuttgart'], ['Miss Amy Lee', '3 Main Street', '10115 Berlin']),
    ])
    expect(results.map((r) => r.fields)).toEqual([
      { Customer: 'Ana María van der Berg', Street: 'Torstraße 51' },
      { Customer: 'Priya Martin', Street: 'Baker Street 75' },
      { Customer: 'Nuño de la Cruz', Street: '12 NW 23rd Ave' },
      { Customer: 'Hélène Khan', Street: 'Schillerweg 26' },
    ])
  })

  it("reads an item's name without the options its shop writes after it in the same cell (`T-Shirt Size: XS, Color: Red`)", async () => {
    const order = (items: Array<[string, string]>) =>
      html(`<p>Order Summary</p><table>${items.map(([name, price]) => `<tr><td>SKU-${price.replace(/\D/g, '')}</td><td>${name}</td><td>(1) @ ${price} = ${price}</td></tr>`).join('')}<tr><td></td><td>Subtotal:</td><td>$99.00</td></tr></table>`)
    const [result] = await learnAndRun(order([['Desk Lamp', '$6.95'], ['Blue Widget', '$12.00']]), [{ name: 'Item', value: 'Desk Lamp' }], [
      order([["Chef's Knife 8\"", '$72.99'], ['Solidus T-Shirt Size: XS, Color: Red', '$22.00'], ['Ruby Hoodie Size: L, Color: Heather Grey', '$60.99']]),
    ])
    expect(result!.fields.Item).toBe("Chef's Knife 8\"\nSolidus T-Shirt\nRuby Hoodie")
  })

  it("finds the items under a header naming another currency, their amounts with the sign on either side, and names cut at a list of codes in brackets", async () => {
    const order = (currency: string, items: Array<[string, string, string]>) =>
      html(`<p>Order Number: ORD000000036447</p><table><tr><th>What You Purchased</th><th>Price in ${currency}</th></tr>${items.map(([name, code, price]) => `<tr><td><b>${name}</b> <i>(${code})</i><br>* Size: M</td><td>${price === '44.90 €' ? 2 : 1} x ${price}</td></tr>`).join('')}<tr><td>Total</td><td>1 x 0</td></tr></table><p>Thanks</p>`)
    const fields = [
      { name: 'Item', value: 'Café Mug 12 oz' },
      { name: 'Quantity', value: '2', type: 'number' as const },
      { name: 'Unit Price', value: '44.90 €' },
    ]
    const [result] = await learnAndRun(order('EUR', [['Café Mug 12 oz', 'PROD802, PROD802_17', '44.90 €'], ['Théière en fonte 0,8 L', 'PROD686', '105.00 €']]), fields, [
      order('GBP', [['Wool Socks (3 pairs)', 'PROD207, PROD207_6', '£35.00'], ['USB-C Cable (2 m)', 'F4E4NG', '£950.99']]),
    ])
    expect(result!.fields).toEqual({ Item: 'Wool Socks (3 pairs)\nUSB-C Cable (2 m)', Quantity: '1\n1', 'Unit Price': '£35.00\n£950.99' })
  })

  it('reads a free ticket\'s row (`FREE`, a dash for no fee) as an item of a table whose sample rows were all paid', async () => {
    const order = (rows: Array<[string, number, string, string]>) =>
      html(`<h3>Order Items</h3><table><tr><th>Ticket</th><th>Qty.</th><th>Price</th><th>Fee</th><th>Total</th></tr>${rows.map(([name, qty, price, fee]) => `<tr><td>${name}</td><td>${qty}</td><td>${price}</td><td>${fee}</td><td>${price}</td></tr>`).join('')}<tr><td></td><td></td><td></td><td>Total</td><td>£99.00</td></tr></table><p>Thank you</p>`)
    const fields = [
      { name: 'Ticket', value: 'VIP Pass' },
      { name: 'Price', value: '$209.99' },
    ]
    const [result] = await learnAndRun(order([['VIP Pass', 1, '$209.99', '$2.50'], ['Early Bird', 2, '$95.00', '$1.25']]), fields, [
      order([['Workshop: Intro to Vue', 2, 'FREE', '-'], ['Standing', 1, '£74.99', '£1.25'], ['Day 1 – Friday', 1, 'FREE', '-']]),
    ])
    expect(result!.fields).toEqual({ Ticket: 'Workshop: Intro to Vue\nStanding\nDay 1 – Friday', Price: 'FREE\n£74.99\nFREE' })
    expect(result!.details.Price!.rule).toMatch(/^rows/)
  })

  it('reads a quoted value to its closing quote when the bracket that ended it in the sample is absent', async () => {
    const created = (who: string) => text(`Hi Chloé,\nThe new ticket (Printer jams) has been created by "${who}".\nGroup: Sales\nState: new`)
    const [result] = await learnAndRun(created('Grace Lindström (Peña Hermanos S.A.)'), [{ name: 'Created By', value: 'Grace Lindström' }], [created('Søren Wójcik')])
    expect(result!.fields['Created By']).toBe('Søren Wójcik')
  })
})
