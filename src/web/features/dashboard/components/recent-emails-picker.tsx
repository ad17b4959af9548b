import { Check } from 'lucide-react'
import { Spinner } from '@web/components/ui/spinner'
import { cn } from '@web/lib/utils'
import { useParserRecentEmails } from '../api/get-parser-recent-emails'
import { formatDateTime } from '../format'

type RecentEmailsPickerProps = {
  parserId: string
  selectedId: string
  onPick: (emailId: string) => void
  disabled?: boolean
}

/** Recent emails matching the parser's filters; picking one fills the Gmail message ID. */
export function RecentEmailsPicker({ parserId, selectedId, onPick, disabled }: RecentEmailsPickerProps) {
  const { data: emails, isPending, error } = useParserRecentEmails(parserId)

  return (
    <div className="flex flex-col gap-2">
      <p id="recent-emails-label" className="text-sm font-medium">
        Or pick a recent matching email
      </p>
      {/* A fixed height, so the dialog doesn't jump when the list arrives. */}
      <div className="h-44 overflow-y-auto rounded-md border">
        {isPending ? (
          <div className="flex h-full items-center justify-center">
            <Spinner label="Loading recent emails" />
          </div>
        ) : error ? (
          <p role="alert" className="p-3 text-sm text-destructive">
            Could not load recent emails: {error.message}
          </p>
        ) : emails.length === 0 ? (
          <p className="p-3 text-sm text-muted-foreground">No recent emails match this parser's filters.</p>
        ) : (
          <ul aria-labelledby="recent-emails-label" className="divide-y">
            {emails.map((email) => {
              const isSelected = email.id === selectedId
              return (
                <li key={email.id}>
                  <button
                    type="button"
                    disabled={disabled}
                    aria-pressed={isSelected}
                    onClick={() => onPick(email.id)}
                    className={cn(
                      'flex w-full items-start gap-2 px-3 py-2 text-left text-sm transition-colors hover:bg-muted focus-visible:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset disabled:opacity-50',
                      isSelected && 'bg-accent hover:bg-accent',
                    )}
                  >
                    <Check className={cn('mt-0.5 size-4 shrink-0 text-primary', !isSelected && 'invisible')} aria-hidden />
                    <span className="min-w-0 flex-1">
                      <span className="block truncate font-medium">{email.subject || 'No subject'}</span>
                      <span className="block truncate text-xs text-muted-foreground">
                        {email.from} · {formatDateTime(email.date)}
                      </span>
                    </span>
                  </button>
                </li>
              )
            })}
          </ul>
        )}
      </div>
    </div>
  )
}
