import type { RecentParsedEmail } from '@shared/contracts/dashboard'
import { Button } from '@web/components/ui/button'
import { formatDateTime } from '../format'
import { EmailStatusBadge } from './status-badges'

type RecentEmailsTableProps = {
  emails: RecentParsedEmail[]
  onView: (parsedEmailId: string) => void
}

const StatusBadge = EmailStatusBadge

/** 'Recent Parsed Emails' (spec §2): the last 10 ledger rows; a stacked list on small screens. */
export function RecentEmailsTable({ emails, onView }: RecentEmailsTableProps) {
  return (
    <>
      <ul className="divide-y sm:hidden" aria-label="Recent parsed emails">
        {emails.map((email) => {
          const subject = email.emailSubject || 'No subject'
          return (
            <li key={email.id} className="flex items-center gap-3 py-3">
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium">{subject}</p>
                <p className="truncate text-xs text-muted-foreground">
                  {email.parserName ?? 'Unknown Parser'} · {formatDateTime(email.processedAt)}
                </p>
              </div>
              <StatusBadge status={email.status} />
              <Button variant="ghost" size="sm" onClick={() => onView(email.id)}>
                View<span className="sr-only"> {subject}</span>
              </Button>
            </li>
          )
        })}
      </ul>
      <div className="relative hidden overflow-x-auto sm:block">
        <table className="w-full text-left text-sm">
          <thead className="border-b text-muted-foreground">
            <tr>
              <th scope="col" className="py-2 pr-4 font-medium">
                Timestamp
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Parser
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Subject
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Status
              </th>
              <th scope="col" className="py-2 font-medium">
                Actions
              </th>
            </tr>
          </thead>
          <tbody>
            {emails.map((email) => {
              const subject = email.emailSubject || 'No subject'
              return (
                <tr key={email.id} className="border-b last:border-0">
                  <td className="py-3 pr-4 whitespace-nowrap">{formatDateTime(email.processedAt)}</td>
                  <td className="py-3 pr-4">{email.parserName ?? 'Unknown Parser'}</td>
                  <td className="max-w-xs truncate py-3 pr-4" title={subject}>
                    {subject}
                  </td>
                  <td className="py-3 pr-4">
                    <StatusBadge status={email.status} />
                  </td>
                  <td className="py-3">
                    <Button variant="ghost" size="sm" onClick={() => onView(email.id)}>
                      View<span className="sr-only"> {subject}</span>
                    </Button>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
    </>
  )
}
