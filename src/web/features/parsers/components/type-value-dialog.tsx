import { useState } from 'react'
import { Button } from '@web/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog'
import { Field } from '@web/components/ui/field'
import { Input } from '@web/components/ui/input'
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
          <Field label="Value in the email" error={error}>
            {(control) => (
              <Input
                {...control}
                autoFocus
                autoComplete="off"
                value={typed}
                onChange={(event) => {
                  setTyped(event.target.value)
                  setError(undefined)
                }}
              />
            )}
          </Field>
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
