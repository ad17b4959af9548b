import { TriangleAlert, X } from 'lucide-react'
import type { ExtractionField } from '../../../../shared/contracts/extraction'
import { Badge } from '../../../components/ui/badge'
import { Button } from '../../../components/ui/button'

/** 'Selected Fields' (spec §2 step 3): each field's name and value, a count, remove by position. */
export function SelectedFieldsPanel({
  fields,
  notInSample,
  onRemove,
}: {
  fields: ExtractionField[]
  /** Field names the trainer could not find in the sample (from the live preview). */
  notInSample: string[]
  onRemove: (index: number) => void
}) {
  return (
    <section aria-labelledby="selected-fields-heading" className="grid h-fit gap-3 rounded-lg border bg-background p-4 lg:sticky lg:top-4">
      <div className="flex items-center justify-between gap-2">
        <h3 id="selected-fields-heading" className="font-semibold">
          Selected Fields
        </h3>
        <Badge variant="secondary" aria-label={`${fields.length} ${fields.length === 1 ? 'field' : 'fields'}`} data-testid="field-count">
          {fields.length}
        </Badge>
      </div>
      {fields.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No fields yet. Highlight a value in the email with your mouse to add your first field.
        </p>
      ) : (
        <ol className="grid gap-2">
          {fields.map((field, index) => (
            <li key={`${index}-${field.name}`} className="flex items-start justify-between gap-2 rounded-md border p-2">
              <div className="min-w-0">
                <p className="break-words text-sm font-medium">{field.name}</p>
                <p className="line-clamp-2 break-all text-xs text-muted-foreground">{field.value}</p>
                {notInSample.includes(field.name) && (
                  <p className="mt-1 flex items-center gap-1 text-xs text-destructive">
                    <TriangleAlert className="size-3" aria-hidden />
                    Not found in the sample text
                  </p>
                )}
              </div>
              <Button variant="ghost" size="icon" className="size-7 shrink-0" aria-label={`Remove field ${field.name}`} onClick={() => onRemove(index)}>
                <X />
              </Button>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
