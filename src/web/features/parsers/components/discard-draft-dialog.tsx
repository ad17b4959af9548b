import { useRef } from 'react'
import { Button } from '@web/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog'
import { useReturnFocus } from '@web/components/ui/use-return-focus'

/**
 * The wizard's Cancel with trained fields: asks before throwing them away. Focus starts on the
 * safe choice and goes back to Cancel when the user keeps editing.
 */
export function DiscardDraftDialog({ open, fieldCount, onOpenChange, onDiscard }: { open: boolean; fieldCount: number; onOpenChange: (open: boolean) => void; onDiscard: () => void }) {
  const returnFocus = useReturnFocus()
  const keepRef = useRef<HTMLButtonElement>(null)
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        role="alertdialog"
        className="w-[calc(100%-1rem)]"
        onOpenAutoFocus={(event) => {
          returnFocus.onOpenAutoFocus()
          event.preventDefault()
          keepRef.current?.focus()
        }}
        onCloseAutoFocus={returnFocus.onCloseAutoFocus}
      >
        <DialogHeader className="pr-6">
          <DialogTitle>Discard this parser?</DialogTitle>
          <DialogDescription>
            {fieldCount === 1 ? 'The field you trained' : `The ${fieldCount} fields you trained`} and the rest of this parser&apos;s set-up will be lost.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button ref={keepRef} variant="outline" onClick={() => onOpenChange(false)}>
            Keep editing
          </Button>
          <Button variant="destructive" onClick={onDiscard}>
            Discard
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
