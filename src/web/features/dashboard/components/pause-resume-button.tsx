import { Pause, Play } from 'lucide-react'
import { useState } from 'react'
import type { ParserView } from '@shared/contracts/parsers'
import { Button } from '@web/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog'
import { useReturnFocus } from '@web/components/ui/use-return-focus'
import { useToggleParser } from '../api/set-parser-active'
import { formatDateTime } from '../format'

/**
 * Pause, or Resume with a question: mail that arrived while the parser was paused is processed
 * only if the user says so (decision 024). Used by the dashboard's parser list and the parser's page.
 */
export function PauseResumeButton({ parser }: { parser: Pick<ParserView, 'id' | 'name' | 'active' | 'paused_at'> }) {
  const { pause, resume, isPending } = useToggleParser(parser)
  const [isAsking, setAsking] = useState(false)
  const returnFocus = useReturnFocus()
  return (
    <>
      <Button
        size="sm"
        variant="outline"
        onClick={() => (parser.active ? pause() : setAsking(true))}
        disabled={isPending}
        aria-label={`${parser.active ? 'Pause' : 'Resume'} ${parser.name}`}
      >
        {parser.active ? <Pause aria-hidden /> : <Play aria-hidden />}
        {parser.active ? 'Pause' : 'Resume'}
      </Button>
      <Dialog open={isAsking} onOpenChange={setAsking}>
        <DialogContent {...returnFocus}>
          <DialogHeader>
            <DialogTitle>Resume {parser.name}?</DialogTitle>
            <DialogDescription>
              {parser.paused_at ? `It has been paused since ${formatDateTime(parser.paused_at)}. ` : ''}
              Matching emails that arrived while it was paused can be processed now and written to your spreadsheet, or skipped. New emails are processed
              either way.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setAsking(false)}>
              Cancel
            </Button>
            <Button variant="outline" disabled={isPending} onClick={() => resume('skip', () => setAsking(false))}>
              Skip them
            </Button>
            <Button disabled={isPending} onClick={() => resume('process', () => setAsking(false))}>
              Process them
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  )
}
