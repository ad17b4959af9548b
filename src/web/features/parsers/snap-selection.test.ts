import { describe, expect, it } from 'vitest'
import { snapSelection } from './snap-selection'

/** The snapped value for the selection of `part` (its first appearance) in `text`. */
function snapped(text: string, part: string, from = 0): string | null {
  const start = text.indexOf(part, from)
  if (start < 0) throw new Error(`"${part}" is not in the text`)
  const span = snapSelection(text, start, start + part.length)
  return span ? text.slice(span.start, span.end) : null
}

describe('snapSelection', () => {
  it('grows a double-click on the digits of an id to the whole id', () => {
    expect(snapped('Order NW-104750 has shipped.', '104750')).toBe('NW-104750')
    expect(snapped('Order NW-104750 has shipped.', 'NW')).toBe('NW-104750')
    expect(snapped('Ref: INV_2026/0042.', '0042')).toBe('INV_2026/0042')
  })

  it('grows partial words to whole words', () => {
    expect(snapped('Customer: Sofia Dubois\nPhone', 'ofia Dub')).toBe('Sofia Dubois')
    expect(snapped("Ship to O'Brien & Sons", 'Brie')).toBe("O'Brien")
  })

  it('takes an amount whole, with its currency, wherever the selection starts', () => {
    const text = 'Subtotal: $1,234.50\nTotal: $84.88.'
    expect(snapped(text, '84')).toBe('$84.88')
    expect(snapped(text, '.88')).toBe('$84.88')
    expect(snapped(text, '$')).toBe('$1,234.50')
    expect(snapped(text, '234')).toBe('$1,234.50')
    expect(snapped('Amount due: 84.88 USD today', '84')).toBe('84.88 USD')
    expect(snapped('Amount due: EUR 12,00 today', '12')).toBe('EUR 12,00')
    expect(snapped('Refund -$5.00 issued', '5.00')).toBe('-$5.00')
  })

  it('takes a date written with a month name whole', () => {
    expect(snapped('Delivered on Nov 23, 2026 at noon', '23')).toBe('Nov 23, 2026')
    expect(snapped('Delivered on 23 November 2026.', 'Nov')).toBe('23 November 2026')
    expect(snapped('Due 2026-11-23.', '11')).toBe('2026-11-23')
    expect(snapped('Due 11/23/2026', '23')).toBe('11/23/2026')
  })

  it('drops whitespace and punctuation at the edges', () => {
    expect(snapped('Email: jamie@example.com. Thanks', ' jamie@example.com. ')).toBe('jamie@example.com')
    expect(snapped('Status: (Shipped)', '(Shipped)')).toBe('Shipped')
    expect(snapped('Total:  $5', ':  $5')).toBe('$5')
  })

  it('keeps separate values apart: commas between words, line breaks', () => {
    expect(snapped('Dubois, Sofia', 'Dubois')).toBe('Dubois')
    expect(snapped('Tax\n12\nTotal $84.88', '12')).toBe('12')
    expect(snapped('Qty 2 Price $4.00', '2')).toBe('2')
  })

  it('keeps a selection of several whole words as it is', () => {
    expect(snapped('Item: Blue Widget (large)', 'Blue Widget')).toBe('Blue Widget')
  })

  it('answers null when nothing but whitespace or punctuation was selected', () => {
    expect(snapSelection('a  ,  b', 1, 6)).toBeNull()
    expect(snapSelection('abc', 1, 1)).toBeNull()
  })
})
