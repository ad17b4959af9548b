import { useState } from 'react'
import { Button } from '@web/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog'
import { Field } from '@web/components/ui/field'
import { Input } from '@web/components/ui/input'
import type { HighlightedValue } from '../selection-context'

/** 'Name This Field' (spec §2 step 3): opens on a highlight; Enter confirms. */
export function NameFieldDialog({
  highlight,
  existingNames,
  onAdd,
  onCancel,
  onCloseAutoFocus,
}: {
  highlight: HighlightedValue
  existingNames: string[]
  onAdd: (name: string) => void
  onCancel: () => void
  /** Where focus goes when the dialog closes (see useReturnFocus). */
  onCloseAutoFocus?: (event: Event) => void
}) {
  const [name, setName] = useState('')
  const trimmed = name.trim()
  // Names become column headers: two that differ only in case would be confusing.
  const isDuplicate = existingNames.some((existing) => existing.trim().toLowerCase() === trimmed.toLowerCase())
  const error = trimmed && isDuplicate ? `A field named "${trimmed}" already exists. Choose another name.` : undefined
  const canAdd = Boolean(trimmed) && !isDuplicate

  return (
    <Dialog open onOpenChange={(open) => !open && onCancel()}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault()
            if (canAdd) onAdd(trimmed)
          }}
        >
          <DialogHeader>
            <DialogTitle>Name This Field</DialogTitle>
            <DialogDescription>This name becomes a column in your spreadsheet.</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <p className="text-sm font-medium">Selected text</p>
            <p
              className="max-h-32 overflow-auto whitespace-pre-wrap break-words rounded-md border bg-muted/60 px-3 py-2 font-mono text-sm"
              data-testid="selected-text"
            >
              {highlight.value}
            </p>
          </div>
          <Field label="Field Name" error={error}>
            {(control) => (
              <Input
                {...control}
                autoFocus
                autoComplete="off"
                maxLength={200}
                placeholder="e.g., Amount, Invoice Number, Customer Name"
                value={name}
                onChange={(event) => setName(event.target.value)}
              />
            )}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" disabled={!canAdd}>
              Add Field
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
