import { TriangleAlert, X } from 'lucide-react'
import { useRef } from 'react'
import { FIELD_TYPES, type ExtractionField, type FieldType } from '@shared/contracts/extraction'
import { Badge } from '@web/components/ui/badge'
import { Button } from '@web/components/ui/button'
import { FieldSwatch } from './field-swatch'
import { focusAfterRemoval } from './focus-after-removal'

/** 'Selected Fields' (spec §2 step 3): each field's name, colour and value, a count, remove by position. */
export function SelectedFieldsPanel({
  fields,
  notInSample,
  onRemove,
  onTypeChange,
}: {
  fields: ExtractionField[]
  /** Choosing a field's type (issue 12 item 4): money and numbers reach the sheet as numbers, dates as dates. */
  onTypeChange?: (index: number, type: FieldType) => void
  /** Field names the trainer could not find in the sample (from the live preview). */
  notInSample: string[]
  onRemove: (index: number) => void
}) {
  const sectionRef = useRef<HTMLElement>(null)
  return (
    <section ref={sectionRef} aria-labelledby="selected-fields-heading" className="grid h-fit gap-3 rounded-lg border bg-background p-4 lg:sticky lg:top-4">
      <div className="flex items-center justify-between gap-2">
        <h3 id="selected-fields-heading" tabIndex={-1} className="font-semibold outline-none">
          Selected Fields
        </h3>
        <Badge variant="secondary" aria-label={`${fields.length} ${fields.length === 1 ? 'field' : 'fields'}`} data-testid="field-count">
          {fields.length}
        </Badge>
      </div>
      {fields.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No fields yet. Highlight a value in the email with your mouse, or use &quot;Add field by typing&quot;, to add your first field.
        </p>
      ) : (
        <ol className="grid gap-2">
          {fields.map((field, index) => (
            <li key={`${index}-${field.name}`} className="flex items-start justify-between gap-2 rounded-md border p-2" data-testid="selected-field">
              <div className="flex min-w-0 items-start gap-2">
                <FieldSwatch index={index} />
                <div className="min-w-0">
                  <p className="break-words text-sm font-medium">{field.name}</p>
                  <p className="line-clamp-2 break-all text-xs text-muted-foreground">{field.value}</p>
                  {onTypeChange && <FieldTypeSelect name={field.name} value={field.type ?? 'text'} onChange={(type) => onTypeChange(index, type)} className="mt-1" />}
                  {notInSample.includes(field.name) && (
                    <p className="mt-1 flex items-center gap-1 text-xs text-destructive">
                      <TriangleAlert className="size-3" aria-hidden />
                      Not found in the sample text
                    </p>
                  )}
                </div>
              </div>
              <Button
                variant="ghost"
                size="icon"
                className="size-7 shrink-0"
                aria-label={`Remove field ${field.name}`}
                data-remove-field
                onClick={(event) => {
                  focusAfterRemoval(sectionRef.current, event.currentTarget, '[data-remove-field]', '#selected-fields-heading')
                  onRemove(index)
                }}
              >
                <X />
              </Button>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

export const FIELD_TYPE_LABELS: Record<FieldType, string> = { text: 'Text', number: 'Number', money: 'Money', date: 'Date', email: 'Email address' }

/** A field's type: how its value is written to the sheet. */
export function FieldTypeSelect({ name, value, onChange, className = '' }: { name: string; value: FieldType; onChange: (type: FieldType) => void; className?: string }) {
  return (
    <label className={`flex items-center gap-2 text-xs text-muted-foreground ${className}`}>
      Type
      <select
        aria-label={`Type of ${name}`}
        className="h-7 rounded-md border bg-background px-1 text-xs text-foreground"
        value={value}
        onChange={(event) => onChange(event.target.value as FieldType)}
      >
        {FIELD_TYPES.map((type) => (
          <option key={type} value={type}>
            {FIELD_TYPE_LABELS[type]}
          </option>
        ))}
      </select>
    </label>
  )
}
