import { Button } from '@web/components/ui/button'
import { Spinner } from '@web/components/ui/spinner'
import { errorMessage } from '../api/auth-data'
import { useSecurityLog } from '../api/security-log'

const FAILURES = new Set(['sign_in_failed'])

/** The last 90 days of sign-ins and security changes, newest first. */
export function SecurityLog() {
  const log = useSecurityLog()
  if (log.isPending) return <Spinner label="Loading the security log" />
  if (log.isError) {
    return (
      <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-destructive">
        {errorMessage(log.error, 'Could not load the security log')}
        <Button variant="outline" size="sm" onClick={() => void log.refetch()}>
          Try again
        </Button>
      </div>
    )
  }
  if (log.data.length === 0) return <p className="text-sm text-muted-foreground">Nothing yet.</p>
  return (
    <ol className="flex flex-col divide-y rounded-md border text-sm" aria-label="Security log">
      {log.data.map((event) => (
        <li key={event.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 p-3">
          <span className={FAILURES.has(event.type) ? 'font-medium text-destructive' : 'font-medium'}>{event.label}</span>
          <span className="text-muted-foreground">
            {event.device}
            {event.ipAddress ? ` · ${event.ipAddress}` : ''} ·{' '}
            <time dateTime={event.createdAt}>{new Date(event.createdAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</time>
          </span>
        </li>
      ))}
    </ol>
  )
}
