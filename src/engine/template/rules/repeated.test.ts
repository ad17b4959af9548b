import { describe, expect, it } from 'vitest'
import { buildDoc } from '../../doc'
import { detectShape } from '../../shapes'
import { applyRule } from '../apply'
import type { FieldTemplate, Rule } from '../types'
import { learnKeyed } from './keyed'
import { learnLabel } from './label'
import { learnPattern } from './pattern'

/**
 * A block the sample showed once (`Guest 1 name: Ana`) that the email repeats (`Guest 1 …`,
 * `Guest 2 …`): which one is the field's cannot be told, so a rule that found one value in the
 * sample reads nothing rather than the first.
 */
describe('rules that found one value in the sample and several in the email', () => {
  const field = (value: string): FieldTemplate => {
    const { shape, options } = detectShape(value)
    return { name: 'Guest', sampleValue: value, shape, shapeOptions: options, rules: {} }
  }
  const learnOn = (text: string, value: string, learn: (doc: ReturnType<typeof buildDoc>, span: [number, number], f: FieldTemplate) => Rule | null) => {
    const doc = buildDoc(text)
    const at = text.indexOf(value)
    const f = field(value)
    const rule = learn(doc, [at, at + value.length], f)
    expect(rule).not.toBeNull()
    return (target: string) => applyRule(buildDoc(target), rule!, f)?.value ?? null
  }

  it('label: `Guest 1 name:` once in the sample, twice in the email', () => {
    const read = learnOn('Booking 4411\nGuest 1 name: Ana Ruiz\nSee you soon.', 'Ana Ruiz', (doc, span, f) => learnLabel(doc, span, f, [], [{ kind: 'cell' }]))
    expect(read('Booking 5120\nGuest 1 name: Dee Ma\nSee you soon.')).toBe('Dee Ma')
    expect(read('Booking 5120\nGuest 1 name: Bob Stone\nGuest 2 name: Cy Lee\nSee you soon.')).toBeNull()
  })

  it('line pattern: a line with a number the sample showed once', () => {
    const read = learnOn('Booking 4411\nGuest 1 name: Ana Ruiz\nSee you soon.', 'Ana Ruiz', (doc, span, f) => learnPattern(doc, span, f, []))
    expect(read('Booking 5120\nGuest 1 name: Dee Ma\nSee you soon.')).toBe('Dee Ma')
    expect(read('Booking 5120\nGuest 1 name: Bob Stone\nGuest 2 name: Cy Lee\nSee you soon.')).toBeNull()
  })

  it('key whose middle varies: one tax line in the sample, two in the email', () => {
    const read = learnOn('Invoice 12\nTax North America 5.0%: $5.00\nTotal: $105.00', '$5.00', (doc, span, f) => learnKeyed(doc, span, f, [{ kind: 'shape' }]))
    expect(read('Invoice 13\nTax NY State Sales Tax 8.875%: $8.88\nTotal: $108.88')).toBe('$8.88')
    expect(read('Invoice 13\nTax NY State 4%: $4.00\nTax NYC 4.5%: $4.50\nTotal: $108.50')).toBeNull()
  })
})
