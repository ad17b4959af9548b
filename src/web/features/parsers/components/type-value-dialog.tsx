import { useState } from 'react'
import { Button } from '../../../components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog'
import { FieldError } from '../../../components/ui/form-error'
import { Input } from '../../../components/ui/input'
import { Label } from '../../../components/ui/label'
import { highlightFromTypedValue, type HighlightedValue } from '../selection-context'

/** The keyboard way to pick a value: type it as it appears in the email, then name it as usual. */
export function TypeValueDialog({
  emailText,
  onFound,
  onCancel,
  onCloseAutoFocus,
}: {
  emailText: string
  onFound: (value: HighlightedValue) => void
  onCancel: () => void
  /** Where focus goes when the dialog closes (see useReturnFocus). */
  onCloseAutoFocus?: (event: Event) => void
}) {
  const [typed, setTyped] = useState('')
  const [error, setError] = useState<string>()
  return (
    <Dialog open onOpenChange={(open) => !open && onCancel()}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault()
            const found = highlightFromTypedValue(emailText, typed)
            if (found) onFound(found)
            else setError('That text does not appear in this email. Type it exactly as shown.')
          }}
        >
          <DialogHeader>
            <DialogTitle>Add field by typing</DialogTitle>
            <DialogDescription>Type a value exactly as it appears in the email, for example an amount or an order number. You name it next.</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="typed-value">Value in the email</Label>
            <Input
              id="typed-value"
              autoFocus
              autoComplete="off"
              value={typed}
              onChange={(event) => {
                setTyped(event.target.value)
                setError(undefined)
              }}
              aria-invalid={Boolean(error)}
              aria-describedby={error ? 'typed-value-error' : undefined}
            />
            <FieldError id="typed-value-error" message={error} />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" disabled={!typed.trim()}>
              Continue
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
