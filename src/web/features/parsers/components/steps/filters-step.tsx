import { useState, type ChangeEvent } from 'react'
import { FieldError } from '../../../../components/ui/form-error'
import { Input } from '../../../../components/ui/input'
import { Label } from '../../../../components/ui/label'
import { hasAnyFilter, type WizardDraft } from '../../wizard-draft'
import { FilterSummary } from '../filter-summary'

const AT_LEAST_ONE = 'Please set at least one filter (From, Subject, or Label)'

type Filters = WizardDraft['filters']

/** Wizard step 2 (spec §2, §5): which emails the parser reads. */
export function FiltersStep({
  filters,
  errors,
  onChange,
  onSubmit,
}: {
  filters: Filters
  /** Messages from the last Next; the page clears them on any edit. */
  errors: { filterFrom?: string; filters?: string }
  onChange: (filters: Filters) => void
  onSubmit: () => void
}) {
  const [isTouched, setTouched] = useState(false)
  // Next is disabled while every filter is blank; say why as soon as the user has emptied them.
  const formError = errors.filters ?? (isTouched && !hasAnyFilter(filters) ? AT_LEAST_ONE : undefined)

  const edit = (key: keyof Filters) => (event: ChangeEvent<HTMLInputElement>) => {
    setTouched(true)
    onChange({ ...filters, [key]: event.target.value })
  }

  return (
    <form
      noValidate
      className="grid gap-6"
      onSubmit={(event) => {
        event.preventDefault()
        onSubmit()
      }}
    >
      <p className="text-sm text-muted-foreground">
        Set at least one filter. Only emails matching every filter you set are read.
      </p>
      <div className="grid gap-2">
        <Label htmlFor="filter-from">From Email Address</Label>
        <Input
          id="filter-from"
          inputMode="email"
          autoComplete="off"
          spellCheck={false}
          placeholder="e.g., orders@shop.com"
          value={filters.filterFrom}
          onChange={edit('filterFrom')}
          aria-invalid={Boolean(errors.filterFrom)}
          aria-describedby={errors.filterFrom ? 'filter-from-error' : 'filter-from-hint'}
        />
        <p id="filter-from-hint" className="text-xs text-muted-foreground">
          Only emails sent from this address.
        </p>
        <FieldError id="filter-from-error" message={errors.filterFrom} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="filter-subject">Subject Contains</Label>
        <Input
          id="filter-subject"
          autoComplete="off"
          placeholder="e.g., Order confirmation"
          value={filters.filterSubject}
          onChange={edit('filterSubject')}
          aria-describedby="filter-subject-hint"
        />
        <p id="filter-subject-hint" className="text-xs text-muted-foreground">
          Case-insensitive, partial match: &ldquo;invoice&rdquo; also matches &ldquo;Your Invoice #1042&rdquo;.
        </p>
      </div>
      <div className="grid gap-2">
        <Label htmlFor="filter-label">
          Gmail Label <span className="font-normal text-muted-foreground">(optional)</span>
        </Label>
        <Input
          id="filter-label"
          autoComplete="off"
          placeholder="e.g., Orders"
          value={filters.filterLabel}
          onChange={edit('filterLabel')}
          aria-describedby="filter-label-hint"
        />
        <p id="filter-label-hint" className="text-xs text-muted-foreground">
          The label&apos;s name as it appears in Gmail.
        </p>
      </div>
      <FieldError id="filters-error" message={formError} />
      <div className="rounded-md border bg-muted/40 p-4">
        <h3 className="mb-2 text-sm font-semibold">Summary</h3>
        <FilterSummary filters={filters} />
      </div>
      {/* Enter in any field submits (a form with several inputs needs a submit button for that). */}
      <button type="submit" className="sr-only" tabIndex={-1} aria-hidden>
        Next
      </button>
    </form>
  )
}
