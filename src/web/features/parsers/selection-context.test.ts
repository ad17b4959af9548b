import { JSDOM } from 'jsdom'
import { describe, expect, it } from 'vitest'
import { countOccurrences, highlightFromText, highlightFromTypedValue, rangesForFields, spansForFields, textAroundRange } from './selection-context'

describe('highlightFromText', () => {
  it('keeps the trimmed value and up to 60 characters either side', () => {
    const text = `${'x'.repeat(80)} Total: $12.00 due ${'y'.repeat(80)}`
    const start = text.indexOf('$12.00') - 1
    const highlight = highlightFromText(text, start, start + 8)
    expect(highlight?.value).toBe('$12.00')
    expect(highlight?.context.before ?? '').toHaveLength(60)
    expect((highlight?.context.before ?? '').endsWith('Total: ')).toBe(true)
    expect(highlight?.context.after ?? '').toHaveLength(60)
    expect((highlight?.context.after ?? '').startsWith(' due')).toBe(true)
    expect(highlight?.context.occurrence).toBe(0)
  })

  it('counts earlier occurrences of the same value', () => {
    const text = 'Subtotal: $10.00\nShipping: Free\nTotal: $10.00'
    const start = text.lastIndexOf('$10.00')
    expect(highlightFromText(text, start, start + 6)?.context.occurrence).toBe(1)
  })

  it('refuses a whitespace-only selection', () => {
    expect(highlightFromText('a   b', 1, 4)).toBeNull()
  })
})

describe('countOccurrences', () => {
  it('does not count a value cut out of a longer number', () => {
    expect(countOccurrences('Order 1234 and 123', '123')).toBe(1)
  })
  it('treats any whitespace as equal', () => {
    expect(countOccurrences('Jamie\n  Rivera and Jamie Rivera', 'Jamie Rivera')).toBe(2)
  })
})

function select(html: string, find: (doc: Document) => Range) {
  const { window } = new JSDOM(`<!doctype html><body>${html}</body>`)
  const doc = window.document
  return { doc, range: find(doc) }
}

describe('textAroundRange', () => {
  it('separates table cells and rows and finds the selection in the text', () => {
    const { doc, range } = select('<table><tr><td><b>Total:</b></td><td>$958.50</td></tr><tr><td>Due</td><td>Dec 3</td></tr></table>', (d) => {
      const cell = d.querySelectorAll('td')[1]!.firstChild!
      const r = d.createRange()
      r.setStart(cell, 0)
      r.setEnd(cell, 7)
      return r
    })
    const { text, start, end } = textAroundRange(doc.body, range)
    expect(text.slice(start, end)).toBe('$958.50')
    expect(text.slice(0, start)).toBe('Total:\t')
    expect(text.slice(end)).toMatch(/^\n\s*Due\tDec 3/)
  })

  it('collapses HTML whitespace and handles a selection across elements', () => {
    const { doc, range } = select('<p>Hi   Jamie,\n   thanks</p><p>Order <b>NW-1</b> is <i>ready</i></p>', (d) => {
      const r = d.createRange()
      r.setStart(d.querySelector('b')!.firstChild!, 0)
      r.setEnd(d.querySelector('i')!.firstChild!, 5)
      return r
    })
    const { text, start, end } = textAroundRange(doc.body, range)
    expect(text.slice(0, start)).toBe('Hi Jamie, thanks\nOrder ')
    expect(text.slice(start, end)).toBe('NW-1 is ready')
  })

  it('handles a range whose boundaries are elements', () => {
    const { doc, range } = select('<div><span>one</span><span>two</span><span>three</span></div>', (d) => {
      const div = d.querySelector('div')!
      const r = d.createRange()
      r.setStart(div, 1)
      r.setEnd(div, 2)
      return r
    })
    const { text, start, end } = textAroundRange(doc.body, range)
    expect(text.slice(start, end)).toBe('two')
  })

  it('keeps whitespace of plain text as it is', () => {
    const { doc, range } = select('<pre>Amount:   $5\nRef:  A1</pre>', (d) => {
      const node = d.querySelector('pre')!.firstChild!
      const r = d.createRange()
      r.setStart(node, 19)
      r.setEnd(node, 21)
      return r
    })
    const { text, start, end } = textAroundRange(doc.querySelector('pre')!, range, { preserveWhitespace: true })
    expect(text.slice(start, end)).toBe('A1')
    expect(text.slice(0, start)).toBe('Amount:   $5\nRef:  ')
  })
})

describe('marking chosen fields', () => {
  it('finds the chosen occurrence of each value in the document', () => {
    const { doc } = select('<p>Total: <b>$5.00</b></p><p>Paid: <b>$5.00</b> ref A1</p>', (d) => d.createRange())
    const ranges = rangesForFields(doc.body, [
      { value: '$5.00', context: { occurrence: 1 } },
      { value: 'A1', context: { occurrence: 0 } },
      { value: 'missing', context: {} },
    ])
    expect(ranges.map((r) => r?.toString() ?? null)).toEqual(['$5.00', 'A1', null])
    expect(ranges[0]!.startContainer.parentElement?.parentElement?.textContent).toBe('Paid: $5.00 ref A1')
  })

  it('gives plain-text spans in order', () => {
    const text = 'Ref: A1\nTotal: 12\nTotal again: 12'
    expect(spansForFields(text, [{ value: '12', context: { occurrence: 1 } }, { value: 'A1' }])).toEqual([
      [5, 7, 1],
      [text.lastIndexOf('12'), text.length, 0],
    ])
  })
})

describe('highlightFromTypedValue', () => {
  it('finds the first appearance with its context', () => {
    expect(highlightFromTypedValue('Order: NW-1\nTotal: $5', ' $5 ')).toEqual({ value: '$5', context: { before: 'Order: NW-1\nTotal: ', after: '', occurrence: 0 } })
    expect(highlightFromTypedValue('Order: NW-1', 'NW-2')).toBeNull()
  })
})
