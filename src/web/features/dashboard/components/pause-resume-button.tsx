import { Pause, Play } from 'lucide-react'
import type { ParserView } from '../../../../shared/contracts/parsers'
import { Button } from '../../../components/ui/button'
import { useToggleParser } from '../api/set-parser-active'

/** Pause or Resume a parser, with the toasts that say what happened (dashboard list and parser page). */
export function PauseResumeButton({ parser }: { parser: Pick<ParserView, 'id' | 'name' | 'active'> }) {
  const { toggle, isPending } = useToggleParser(parser)
  return (
    <Button size="sm" variant="outline" onClick={toggle} disabled={isPending} aria-label={`${parser.active ? 'Pause' : 'Resume'} ${parser.name}`}>
      {parser.active ? <Pause aria-hidden /> : <Play aria-hidden />}
      {parser.active ? 'Pause' : 'Resume'}
    </Button>
  )
}
