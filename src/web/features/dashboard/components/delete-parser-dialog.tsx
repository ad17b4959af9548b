import { toast } from 'sonner'
import type { ParserView } from '@shared/contracts/parsers'
import { Button } from '@web/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog'
import { useDeleteParser } from '../api/delete-parser'
import { useReturnFocus } from '@web/components/ui/use-return-focus'

type DeleteParserDialogProps = {
  /** The parser to delete; null keeps the dialog closed. */
  parser: ParserView | null
  onOpenChange: (open: boolean) => void
  /** After the parser is gone (its own page leaves for the list). */
  onDeleted?: () => void
}

export function DeleteParserDialog({ parser, onOpenChange, onDeleted }: DeleteParserDialogProps) {
  const returnFocus = useReturnFocus(() => document.getElementById('parsers-heading') ?? document.getElementById('recent-emails-heading'))
  const remove = useDeleteParser()

  const onDelete = (target: ParserView) =>
    remove.mutate(target.id, {
      onSuccess: () => {
        toast.success('Parser deleted', { description: `${target.name} will no longer process emails.` })
        onOpenChange(false)
        onDeleted?.()
      },
      onError: (error) => toast.error('Could not delete parser', { description: error.message || 'Please try again.' }),
    })

  return (
    <Dialog open={parser !== null} onOpenChange={(open) => !remove.isPending && onOpenChange(open)}>
      <DialogContent role="alertdialog" className="w-[calc(100%-1rem)]" {...returnFocus}>
        {parser ? (
          <>
            <DialogHeader className="pr-6">
              <DialogTitle className="break-words">Delete {parser.name}?</DialogTitle>
              <DialogDescription>
                The parser stops processing emails and is removed for good. Rows already written stay in your spreadsheet, and its
                parsed emails are listed under 'Unknown Parser'.
              </DialogDescription>
            </DialogHeader>
            <DialogFooter>
              <Button variant="outline" onClick={() => onOpenChange(false)} disabled={remove.isPending}>
                Cancel
              </Button>
              <Button variant="destructive" onClick={() => onDelete(parser)} disabled={remove.isPending}>
                {remove.isPending ? 'Deleting...' : 'Delete parser'}
              </Button>
            </DialogFooter>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  )
}
