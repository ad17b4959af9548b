import { describe, expect, it } from 'vitest'
import { contrastRatio, FIELD_COLOURS, FIELD_TEXT, fieldColour, highlightName } from './field-colours'

describe('field colours', () => {
  it('keep text on every fill readable (≥ 4.5:1) and every swatch visible on white (≥ 3:1)', () => {
    for (const colour of FIELD_COLOURS) {
      expect(contrastRatio(FIELD_TEXT, colour.fill), colour.name).toBeGreaterThanOrEqual(4.5)
      expect(contrastRatio(colour.edge, '#ffffff'), colour.name).toBeGreaterThanOrEqual(3)
      // The edge text (the field's name may be drawn in it) also reads on its own fill.
      expect(contrastRatio(colour.edge, colour.fill), colour.name).toBeGreaterThanOrEqual(3)
    }
  })

  it('give the first eight fields eight different colours, then repeat', () => {
    const names = Array.from({ length: 8 }, (_, i) => fieldColour(i).name)
    expect(new Set(names).size).toBe(8)
    expect(new Set(FIELD_COLOURS.map((c) => c.fill)).size).toBe(8)
    expect(fieldColour(8)).toBe(fieldColour(0))
    expect(highlightName(9)).toBe(highlightName(1))
  })

  it('measure contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2)
  })
})
