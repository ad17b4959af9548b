import { fieldColour } from '../field-colours'

/** The field's colour in the list, the same as its value's mark in the email. */
export function FieldSwatch({ index }: { index: number }) {
  const colour = fieldColour(index)
  return (
    <span
      aria-hidden
      data-testid="field-swatch"
      data-colour={colour.name}
      className="mt-1 size-3.5 shrink-0 rounded-sm border-2"
      style={{ backgroundColor: colour.fill, borderColor: colour.edge }}
    />
  )
}
