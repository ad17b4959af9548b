import { Rows3, TextQuote } from 'lucide-react'
import type { ReactNode } from 'react'
import type { RowMode } from '@shared/contracts/parsers'
import { cn } from '@web/lib/utils'

/** Names joined for a sentence: "Item", "Item and Price", "Item, Qty and Price". */
export function joinNames(names: string[]): string {
  if (names.length <= 1) return names.join('')
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

/** How each mode reads: `description` beside the choice, `summary` on the review step. */
export const ROW_MODE_LABELS: Record<RowMode, { title: string; description: string; summary: string }> = {
  per_email: {
    title: 'One row per email',
    description: 'All of an email’s items go in one row, one item per line inside each item cell.',
    summary: 'Each matching email becomes one row.',
  },
  per_item: {
    title: 'One row per item',
    description: 'Each item gets its own row, with the email’s other fields repeated on every row and an Item # column.',
    summary: 'Each item in an email becomes its own row, with the email’s other fields repeated.',
  },
}

/**
 * Shown once training reports line-item fields (values that repeat, like the rows of an order
 * table): the user chooses how those repeated values reach the sheet.
 */
export function RowModeChoice({ lineItemFields, rowMode, onChange }: { lineItemFields: string[]; rowMode: RowMode; onChange: (rowMode: RowMode) => void }) {
  const many = lineItemFields.length > 1
  return (
    <fieldset className="grid gap-3 rounded-lg border bg-background p-4" aria-describedby="row-mode-hint">
      <legend className="px-1 font-semibold">Line items in your sheet</legend>
      <p id="row-mode-hint" className="text-sm text-muted-foreground">
        {joinNames(lineItemFields)} {many ? 'repeat' : 'repeats'} for each item in an email (like the lines of an order). How should they go into your
        spreadsheet?
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <RowModeOption value="per_email" checked={rowMode === 'per_email'} onSelect={() => onChange('per_email')} icon={<TextQuote className="size-5 text-primary" aria-hidden />} />
        <RowModeOption value="per_item" checked={rowMode === 'per_item'} onSelect={() => onChange('per_item')} icon={<Rows3 className="size-5 text-primary" aria-hidden />} />
      </div>
    </fieldset>
  )
}

function RowModeOption({ value, checked, onSelect, icon }: { value: RowMode; checked: boolean; onSelect: () => void; icon: ReactNode }) {
  const label = ROW_MODE_LABELS[value]
  return (
    <label
      className={cn(
        'flex cursor-pointer items-start gap-3 rounded-lg border p-4 transition-colors hover:border-primary/60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
        checked && 'border-primary ring-1 ring-primary',
      )}
    >
      <input type="radio" name="row-mode" value={value} checked={checked} onChange={onSelect} className="mt-1 accent-[var(--color-primary)]" />
      <span className="grid gap-1">
        <span className="flex items-center gap-2 font-medium">
          {icon}
          {label.title}
        </span>
        <span className="text-sm text-muted-foreground">{label.description}</span>
      </span>
    </label>
  )
}
