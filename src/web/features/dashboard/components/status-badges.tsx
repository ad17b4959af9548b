import type { ParserView } from '@shared/contracts/parsers'
import { Badge } from '@web/components/ui/badge'
import { isSuccess } from '../format'

/**
 * A parsed email's status. Spec §3 shows anything but success as failed; an email held back by
 * the monthly allowance is neither parsed nor failed, so it says so (issue 12).
 */
export function EmailStatusBadge({ status }: { status: string }) {
  if (isSuccess(status)) return <Badge variant="success">Success</Badge>
  if (status === 'quota_exceeded') return <Badge variant="secondary">Waiting for allowance</Badge>
  return <Badge variant="destructive">Failed</Badge>
}

/** What a parser is doing: paused, in trouble, held back by the allowance, or running. */
export function ParserStateBadge({ parser }: { parser: ParserView }) {
  // Kept but paused by the plan after a downgrade: paused, whatever else is true (the alert says why).
  if (!parser.active || parser.paused_by_plan) return <Badge variant="secondary">Paused</Badge>
  if (parser.alert) return <Badge variant="destructive">Needs attention</Badge>
  if (parser.layout_changed) return <Badge variant="destructive">Layout changed</Badge>
  if (parser.waiting_for_allowance > 0) return <Badge variant="secondary">Waiting for allowance</Badge>
  return <Badge variant="success">Running</Badge>
}
