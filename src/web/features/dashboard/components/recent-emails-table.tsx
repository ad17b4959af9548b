import { Badge } from '../../../components/ui/badge'
import { Button } from '../../../components/ui/button'
import type { RecentParsedEmail } from '../../../../shared/contracts/dashboard'

export function RecentEmailsTable({ emails }: { emails: RecentParsedEmail[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b text-muted-foreground">
          <tr>
            <th className="py-2 pr-4 font-medium">Timestamp</th>
            <th className="py-2 pr-4 font-medium">Parser</th>
            <th className="py-2 pr-4 font-medium">Subject</th>
            <th className="py-2 pr-4 font-medium">Status</th>
            <th className="py-2 font-medium">Actions</th>
          </tr>
        </thead>
        <tbody>
          {emails.map((email) => (
            <tr key={email.id} className="border-b last:border-0">
              <td className="py-3 pr-4 whitespace-nowrap">{new Date(email.processedAt).toLocaleString()}</td>
              <td className="py-3 pr-4">{email.parserName ?? 'Unknown Parser'}</td>
              <td className="py-3 pr-4">{email.emailSubject || 'No subject'}</td>
              <td className="py-3 pr-4">
                {/* Spec §3: any status other than success counts as failed. */}
                {email.status === 'success' ? <Badge variant="success">Success</Badge> : <Badge variant="destructive">Failed</Badge>}
              </td>
              <td className="py-3">
                <Button variant="ghost" size="sm">
                  View
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
