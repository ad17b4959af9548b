import { useState } from 'react'
import { Button } from '../../../components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog'
import type { HighlightedValue } from '../selection-context'

/** 'Train on this email': which of the parser's fields the highlighted text is. */
export function AssignFieldDialog({
  highlight,
  fieldNames,
  suggested,
  onAssign,
  onCancel,
}: {
  highlight: HighlightedValue
  fieldNames: string[]
  /** Preselected: the first field without a value. */
  suggested: string
  onAssign: (name: string) => void
  onCancel: () => void
}) {
  const [name, setName] = useState(suggested)
  return (
    <Dialog open onOpenChange={(open) => !open && onCancel()}>
      <DialogContent>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault()
            onAssign(name)
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
                <input type="radio" name="field" value={field} checked={name === field} onChange={() => setName(field)} className="size-4" />
                {field}
              </label>
            ))}
          </fieldset>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit">Use for {name}</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
