import { useId } from 'react'
import type { ParserView } from '@shared/contracts/parsers'
import { Progress } from '@web/components/ui/progress'
import { cn } from '@web/lib/utils'

/**
 * 'Parse Existing Emails' under way: how many of the matching emails are done. Shown from the
 * moment the parser is activated (the emails join the ledger then), pulsing until the first is done.
 */
export function BackfillProgress({ parser, className }: { parser: Pick<ParserView, 'name' | 'backfill'>; className?: string }) {
  const id = useId()
  const backfill = parser.backfill
  if (!backfill) return null
  const isStarting = backfill.done === 0
  return (
    <div className={cn('grid gap-1.5', className)}>
      <p id={id} className="text-xs text-muted-foreground">
        Parsing existing emails: {backfill.done} of {backfill.total}
      </p>
      <Progress
        aria-labelledby={id}
        aria-valuetext={`${backfill.done} of ${backfill.total} existing emails parsed`}
        value={isStarting ? Math.max(1, backfill.total / 50) : backfill.done}
        max={backfill.total}
        indicatorClassName={isStarting ? 'animate-pulse' : undefined}
      />
    </div>
  )
}
