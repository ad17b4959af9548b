import type { FetchedEmail } from '@shared/contracts/gmail'
import { cn } from '@web/lib/utils'
import { formatEmailDate } from './email-view'

/** Spec §9: the list previews the first 100 characters of each body. */
const PREVIEW_CHARS = 100

export function bodyPreview(body: string): string {
  const flat = body.replace(/\s+/g, ' ').trim()
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS)}…` : flat
}

/** Matching emails to train on; the chosen one is pressed. */
export function EmailList({ emails, selectedId, onSelect }: { emails: FetchedEmail[]; selectedId: string; onSelect: (id: string) => void }) {
  return (
    <ul className="max-h-72 divide-y overflow-y-auto rounded-md border" aria-label="Matching emails">
      {emails.map((email) => {
        const isSelected = email.id === selectedId
        return (
          <li key={email.id}>
            <button
              type="button"
              aria-pressed={isSelected}
              onClick={() => onSelect(email.id)}
              className={cn(
                'grid w-full grid-cols-1 gap-0.5 px-3 py-2 text-left text-sm transition-colors hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring',
                isSelected && 'bg-accent hover:bg-accent',
              )}
            >
              <span className="flex items-baseline justify-between gap-3">
                <span className="min-w-0 truncate font-medium">{email.subject || '(no subject)'}</span>
                <span className="shrink-0 text-xs text-muted-foreground">{formatEmailDate(email.date)}</span>
              </span>
              <span className="truncate text-xs text-muted-foreground">{email.from}</span>
              <span className="line-clamp-2 text-xs text-muted-foreground">{bodyPreview(email.body)}</span>
            </button>
          </li>
        )
      })}
    </ul>
  )
}
