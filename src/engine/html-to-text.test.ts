import { describe, expect, it } from 'vitest'
import { htmlToText } from './html-to-text'

function text(html: string): string {
  const result = htmlToText(html)
  if (!result.ok) throw new Error(result.reason)
  return result.text
}

describe('htmlToText', () => {
  it('keeps blocks as lines and paragraphs apart, and decodes entities', () => {
    expect(text('<p>Hi Zo&euml; O&#39;Brien,</p><p>Thanks&nbsp;for your order <b>#A-1234</b>.</p><div>Line<br>break</div>')).toBe(
      "Hi Zoë O'Brien,\n\nThanks for your order #A-1234.\n\nLine\nbreak",
    )
  })

  it('reads a flex row (React Email, Tailwind) as a table row, each child a cell; a flex column stays lines', () => {
    const row = (label: string, value: string) => `<div style="display:flex;justify-content:space-between"><p style="margin:0">${label}</p><p style="margin:0">${value}</p></div>`
    const item = `<div style="display: flex"><div><p>Team plan</p><p>Qty 4</p></div><p>$36.32</p></div>`
    expect(text(`<h1>Receipt</h1>${row('Amount paid', '$29.02')}${row('Date paid', 'June 10, 2025')}${item}`)).toBe(
      'Receipt\n\nAmount paid\t$29.02\n\nDate paid\tJune 10, 2025\n\nTeam plan • Qty 4\t$36.32',
    )
    expect(text(`<div style="display:flex;flex-direction:column"><p>Amount paid</p><p>$29.02</p></div>`)).toBe('Amount paid\n\n$29.02')
    // A table inside a flex row is still a table.
    expect(text(`<div style="display:flex"><table><tr><td>Total</td><td>$5.00</td></tr></table></div>`)).toBe('Total\t$5.00')
  })

  it('leaves out struck-through text: an old price before the price reads as the price', () => {
    expect(text('<table><tr><td>Desk Lamp</td><td><s style="color:#999">€500.43</s> €400.34</td></tr><tr><td>Mug</td><td><del>$9</del><strike>$8</strike> $7</td></tr><tr><td>Postage</td><td><span style="color:#9aa3ae;text-decoration:line-through;">$19.60</span>&nbsp; $16.20</td></tr></table>')).toBe(
      'Desk Lamp\t€400.34\nMug\t$7\nPostage\t$16.20',
    )
  })

  it('renders table rows as lines of tab-separated cells, colspan included', () => {
    const html = `<table><tr><th>Item</th><th>Qty</th><th>Price</th></tr>
      <tr><td>Blue Widget</td><td>2</td><td>$10.00</td></tr>
      <tr><td colspan="2">Total</td><td><b>$25.00</b></td></tr></table>`
    expect(text(html)).toBe('Item\tQty\tPrice\nBlue Widget\t2\t$10.00\nTotal\t\t$25.00')
  })

  it("keeps an item row on one line when the item's cell has variant lines under its name", () => {
    const row = (name: string, meta: string) => `<tr><td>${name}${meta}</td><td>2</td><td>$40.00</td></tr>`
    const html = `<table><tr><th>Product</th><th>Quantity</th><th>Price</th></tr>
      ${row('Blue Hoodie', '<ul><li><strong>Size:</strong> <p>M</p></li><li><strong>Color:</strong> <p>Forest Green</p></li></ul>')}
      ${row('Desk Lamp', '<br><small>SKU: DL-2</small><br><small>Gift wrapped</small><br>Ships in 2 days')}
      ${row('Wool Socks', '')}</table>`
    expect(text(html)).toBe(
      'Product\tQuantity\tPrice\nBlue Hoodie • Size: M • Color: Forest Green\t2\t$40.00\nDesk Lamp • SKU: DL-2 • Gift wrapped • Ships in 2 days\t2\t$40.00\nWool Socks\t2\t$40.00',
    )
  })

  it('reads an item laid out as its own table (image, name with a variant under it, price) as one row', () => {
    const item = (name: string, variant: string) =>
      `<table><tr><td><img src="cid:p"></td><td><span>${name}</span><br>${variant ? `<span>${variant}</span><br>` : ''}</td><td><p>$9.90</p></td></tr></table>`
    expect(text(item('Oak Desk × 2', 'Medium / Blue') + item('Lamp × 1', ''))).toBe('\tOak Desk × 2 • Medium / Blue\t$9.90\n\n\tLamp × 1\t$9.90')
    // Two blocks of lines side by side are a layout: each still reads as its own lines.
    expect(text('<table><tr><td>Ship to<br>Marie</td><td>Bill to<br>Jean</td><td>$9.90</td></tr></table>')).toBe('Ship to\nMarie\n\nBill to\nJean\n\n$9.90')
  })

  it('reads an item whose name has up to five lines under it as one row, as one with fewer', () => {
    const item = (name: string, lines: string[]) => `<table><tr><td><img src="cid:p"></td><td><b>${name}</b>${lines.map((l) => `<p>${l}</p>`).join('')}</td><td>98,61 €</td></tr></table>`
    expect(text(item('Ratón MX Master 3S', ['Color: Gris', 'SKU: JT-MX3S', 'Cantidad: 2', 'Precio unitario: 49,30 €']) + item('Cable HDMI', ['Cantidad: 1']))).toBe(
      '\tRatón MX Master 3S • Color: Gris • SKU: JT-MX3S • Cantidad: 2 • Precio unitario: 49,30 €\t98,61 €\n\n\tCable HDMI • Cantidad: 1\t98,61 €',
    )
  })

  it("reads such an item as one row when a discount is under its price, as one without: the price cell is the item's amount", () => {
    const item = (name: string, off: string) =>
      `<table><tr><td><img src="cid:p"></td><td><a href="#">${name}</a><p>Seller: RetailNet</p><p>Qty: 1</p></td><td><b>₹4,799</b>${off ? `<p><s>₹10,440</s> ${off}</p>` : ''}</td></tr></table>`
    expect(text(item('Redmi Note 13', '54% off') + item('Tata Tea Gold', ''))).toBe('\tRedmi Note 13 • Seller: RetailNet • Qty: 1\t₹4,799 • 54% off\n\n\tTata Tea Gold • Seller: RetailNet • Qty: 1\t₹4,799')
  })

  it('reads an inline element styled as a block as a line of its own, and a badge styled inline-block as starting one', () => {
    const row = (merchant: string, sub: string, amount: string) => `<tr><td>23/10/2023</td><td><strong>${merchant}</strong>${sub}</td><td>${amount}</td></tr>`
    const html = `<table>${row('Eurowings', '<span style="display:block;color:#7b8a9a">Return flight HAM–LHR</span>', '€558.00')}${row('The Hoxton', '<span style="display: inline-block; padding:1px 6px">Over limit</span>', '€407.82')}</table>`
    expect(text(html)).toBe('23/10/2023\tEurowings • Return flight HAM–LHR\t€558.00\n23/10/2023\tThe Hoxton • Over limit\t€407.82')
    // What follows a badge on its line stays there.
    expect(text('<p>1,19 per stuk<br><span style="display:inline-block">BONUS 2e halve prijs</span><span>-1,20</span></p>')).toBe('1,19 per stuk\nBONUS 2e halve prijs -1,20')
  })

  it('reads layout tables cell by cell, and bullet or spacer cells as nothing', () => {
    const html = `<table><tr><td>Ship to<br>Marie<br>12 Rue de la Paix</td><td>Bill to<br>Jean</td></tr></table>
      <table><tr><td>&#9679;</td><td><b>10:42 AM</b><br>1 Main St</td></tr></table>`
    expect(text(html)).toBe('Ship to\nMarie\n12 Rue de la Paix\n\nBill to\nJean\n\n10:42 AM\n1 Main St')
  })

  it('marks list items so a one-item list still reads as a list', () => {
    expect(text('<ul><li>one<li>two</ul><ol><li>first</li><li>second</li></ol>')).toBe('• one\n• two\n\n1. first\n2. second')
  })

  it('drops head, style, script, comments and hidden elements', () => {
    const html = `<html><head><title>T</title><style>p{color:red}</style></head><body>
      <div style="display: none; max-height:0">preheader $99.00</div><!-- <p>comment</p> -->
      <script>document.write("<p>x</p>")</script><p hidden>secret</p><p>Visible</p></body></html>`
    expect(text(html)).toBe('Visible')
  })

  it('reads an element whose style only mentions hidden (Laravel mail: border: hidden on the body cell)', () => {
    const html = `<table><tr><td class="body" width="100%" cellpadding="0" cellspacing="0" style="border: hidden !important;">
      <p>Order Number: O-4411</p></td></tr></table><p hidden="hidden">gone</p><p data-note='hidden'>kept</p><div title="x" hidden>also gone</div>`
    expect(text(html)).toBe('Order Number: O-4411\n\nkept')
  })

  it('keeps the whitespace of <pre> and removes zero-width characters', () => {
    expect(text('<pre>a   b\nc</pre><p>Mar\u200bie&zwnj;</p>')).toBe('a   b\nc\n\nMarie')
  })

  it('copes with unclosed, stray and upper-case tags', () => {
    expect(text('<P>one<P>two</B></i><TABLE><TR><TD>a<TD>b</TABLE>tail <3 & done')).toBe('one\n\ntwo\n\na\tb\n\ntail <3 & done')
  })

  it('fails deeply nested HTML with a reason instead of recursing', () => {
    const result = htmlToText('<div>'.repeat(100_000) + 'deep')
    expect(result).toEqual({ ok: false, reason: 'HTML is nested more than 1000 levels deep' })
  })

  it('cuts output at the limit and says so', () => {
    const result = htmlToText(`<p>${'word '.repeat(5000)}</p>`, { maxChars: 1000 })
    expect(result.ok && result.truncated).toBe(true)
  })

  it('does not let a quote in an unquoted attribute swallow the document', () => {
    expect(text('<td class=a"b>kept</td><p title="x > y">also kept</p>')).toBe('kept\n\nalso kept')
  })
})

describe("htmlToText: a mail editor's blank lines (decision 035)", () => {
  it('reads an empty block (`<div><br></div>`, `<div>&nbsp;</div>`) as a blank line, as a mail client shows it', () => {
    expect(text('<div>Hello,</div><div><br></div><div>the website is down.</div><div>&nbsp;</div><div>Thank you!</div><div>Grace</div>')).toBe('Hello,\n\nthe website is down.\n\nThank you!\nGrace')
  })

  it('reads paragraphs without margins as lines, and an empty one as the blank line between them', () => {
    const p = (s: string) => `<p style="margin: 0;">${s}</p>`
    expect(text(`<div>${p('Hi team,')}${p('&nbsp;')}${p('The printer jams.')}${p('Best regards,')}${p('Søren')}</div>`)).toBe('Hi team,\n\nThe printer jams.\nBest regards,\nSøren')
    expect(text('<p>One</p><p>Two</p>')).toBe('One\n\nTwo')
  })

  it('keeps a no-break space between words and in a spacer cell from making lines', () => {
    expect(text('<b>Total</b>&nbsp;<span>$5.00</span>')).toBe('Total $5.00')
    expect(text('<table><tr><td>Name</td><td>&nbsp;</td><td>Zoë</td></tr></table>')).toBe('Name\t\tZoë')
  })
})
