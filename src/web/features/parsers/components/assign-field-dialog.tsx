import { useState } from 'react'
import { Button } from '@web/components/ui/button'
import { Field } from '@web/components/ui/field'
import { Input } from '@web/components/ui/input'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog'
import type { HighlightedValue } from '../selection-context'

/** 'Train on this email': which of the parser's fields the highlighted text is. */
export function AssignFieldDialog({
  highlight,
  fieldNames,
  suggested,
  onAssign,
  onCancel,
  onCloseAutoFocus,
}: {
  highlight: HighlightedValue
  fieldNames: string[]
  /** Preselected: the first field without a value. */
  suggested: string
  onAssign: (name: string) => void
  onCancel: () => void
  /** Where focus goes when the dialog closes (see useReturnFocus). */
  onCloseAutoFocus?: (event: Event) => void
}) {
  const [name, setName] = useState(suggested)
  // A new field (issue 12 item 3): its value comes from this email; it becomes a new sheet column.
  const [isNew, setNew] = useState(false)
  const [newName, setNewName] = useState('')
  const trimmed = newName.trim()
  const clash = fieldNames.some((field) => field.toLowerCase() === trimmed.toLowerCase())
  const chosen = isNew ? trimmed : name
  return (
    <Dialog open onOpenChange={(open) => !open && onCancel()}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault()
            if (isNew && (!trimmed || clash)) return
            onAssign(chosen)
          }}
        >
          <DialogHeader>
            <DialogTitle>Which field is this?</DialogTitle>
            <DialogDescription className="break-words">
              Selected text: <span className="font-medium text-foreground">{highlight.value}</span>
            </DialogDescription>
          </DialogHeader>
          <fieldset className="grid gap-2">
            <legend className="sr-only">Field</legend>
            {fieldNames.map((field) => (
              <label key={field} className="flex items-center gap-2 rounded-md border p-2 text-sm has-[:checked]:border-primary">
                <input
                  type="radio"
                  name="field"
                  value={field}
                  checked={!isNew && name === field}
                  onChange={() => {
                    setNew(false)
                    setName(field)
                  }}
                  className="size-4"
                />
                {field}
              </label>
            ))}
            <label className="flex items-center gap-2 rounded-md border p-2 text-sm has-[:checked]:border-primary">
              <input type="radio" name="field" value="" checked={isNew} onChange={() => setNew(true)} className="size-4" />
              A new field (a new column in the sheet)
            </label>
            {isNew && (
              <Field label="New field name" error={clash ? `The parser already has a field named ${trimmed}.` : undefined} className="gap-1">
                {(control) => <Input {...control} value={newName} onChange={(event) => setNewName(event.target.value)} maxLength={200} autoFocus />}
              </Field>
            )}
          </fieldset>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" disabled={isNew && (!trimmed || clash)}>
              {isNew ? `Add ${trimmed || 'field'}` : `Use for ${name}`}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
