/**
 * Each field's own colour, the same in the email and in the field list, so the user sees which
 * value went where. `fill` is the background behind the value (dark text on it reads at ≥ 4.5:1),
 * `edge` the swatch and border in the list (≥ 3:1 against white, as non-text contrast asks).
 * Past eight fields the colours repeat; the list still names every field.
 */
export const FIELD_COLOURS = [
  { name: 'amber', fill: '#fde68a', edge: '#b45309' },
  { name: 'sky', fill: '#bae6fd', edge: '#0369a1' },
  { name: 'emerald', fill: '#a7f3d0', edge: '#047857' },
  { name: 'rose', fill: '#fecdd3', edge: '#be123c' },
  { name: 'violet', fill: '#ddd6fe', edge: '#6d28d9' },
  { name: 'lime', fill: '#d9f99d', edge: '#4d7c0f' },
  { name: 'orange', fill: '#fed7aa', edge: '#c2410c' },
  { name: 'fuchsia', fill: '#f5d0fe', edge: '#a21caf' },
] as const

export type FieldColour = (typeof FIELD_COLOURS)[number]

/** The text colour drawn on a fill (the email frame's body colour). */
export const FIELD_TEXT = '#1f2430'

export function fieldColour(index: number): FieldColour {
  return FIELD_COLOURS[((index % FIELD_COLOURS.length) + FIELD_COLOURS.length) % FIELD_COLOURS.length]!
}

/** The CSS Custom Highlight name of a colour in the email frame. */
export function highlightName(index: number): string {
  return `mailrow-field-${index % FIELD_COLOURS.length}`
}

/** WCAG 2 contrast ratio of two #rrggbb colours. */
export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [luminance(a), luminance(b)]
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05)
}

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2)
}
