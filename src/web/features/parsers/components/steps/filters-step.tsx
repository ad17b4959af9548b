import { useState, type ChangeEvent } from 'react'
import { FieldError } from '@web/components/ui/form-error'
import { Field } from '@web/components/ui/field'
import { Input } from '@web/components/ui/input'
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
      <Field label="From Email Address" hint="Only emails sent from this address." error={errors.filterFrom}>
        {(control) => (
          <Input
            {...control}
            inputMode="email"
            autoComplete="off"
            spellCheck={false}
            placeholder="e.g., orders@shop.com"
            value={filters.filterFrom}
            onChange={edit('filterFrom')}
          />
        )}
      </Field>
      <Field label="Subject Contains" hint={<>Case-insensitive, partial match: &ldquo;invoice&rdquo; also matches &ldquo;Your Invoice #1042&rdquo;.</>}>
        {(control) => <Input {...control} autoComplete="off" placeholder="e.g., Order confirmation" value={filters.filterSubject} onChange={edit('filterSubject')} />}
      </Field>
      <Field
        label={
          <>
            Gmail Label <span className="font-normal text-muted-foreground">(optional)</span>
          </>
        }
        hint="The label's name as it appears in Gmail."
      >
        {(control) => <Input {...control} autoComplete="off" placeholder="e.g., Orders" value={filters.filterLabel} onChange={edit('filterLabel')} />}
      </Field>
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
