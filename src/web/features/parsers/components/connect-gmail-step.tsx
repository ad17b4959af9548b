import { CheckCircle2, Mail, RefreshCw, ShieldCheck, TriangleAlert } from 'lucide-react'
import { Button } from '@web/components/ui/button'
import { Spinner } from '@web/components/ui/spinner'
import { useGmailConnection, useStartGmailConnection } from '../../connections/api/gmail-connection'
import { toast } from 'sonner'

/** Wizard step 1 (spec §2): the privacy notice and the Gmail connection. */
export function ConnectGmailStep() {
  const connection = useGmailConnection()
  const start = useStartGmailConnection()

  const onConnect = () =>
    start.mutate(undefined, {
      onError: (error) => toast.error('Error connecting Gmail', { description: error.message }),
    })

  return (
    <div className="grid gap-6">
      <div className="flex gap-3 rounded-md border bg-accent/40 p-4 text-sm">
        <ShieldCheck className="size-5 shrink-0 text-primary" aria-hidden />
        <p>
          Mailrow only reads emails that match the filters you set. Nothing in your mailbox is modified, deleted or sent.
        </p>
      </div>
      {connection.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner label="Checking your Gmail connection" />
        </div>
      ) : connection.data?.connected && connection.data.missingScopes.length > 0 ? (
        // Partial consent (a permission left unticked): connected on paper, unusable in fact.
        <div role="alert" className="flex flex-wrap items-center justify-between gap-4 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950" data-testid="gmail-permissions-warning">
          <div className="flex items-start gap-3">
            <TriangleAlert className="mt-0.5 size-5 shrink-0" aria-hidden />
            <div>
              <p className="font-medium">Gmail access not granted</p>
              <p className="text-sm">
                {connection.data.accountEmail} is connected, but Mailrow was not allowed to {connection.data.missingScopes.map(scopeLabel).join(' or ')}. Choose
                Grant access and tick every permission on Google&apos;s page.
              </p>
            </div>
          </div>
          <Button onClick={onConnect} disabled={start.isPending}>
            <ShieldCheck />
            {start.isPending ? 'Connecting...' : 'Grant access'}
          </Button>
        </div>
      ) : connection.data?.connected ? (
        <div className="flex flex-wrap items-center justify-between gap-4 rounded-md border border-success/40 bg-success/5 p-4">
          <div className="flex items-center gap-3">
            <CheckCircle2 className="size-6 text-success" aria-hidden />
            <div>
              <p className="font-medium">Gmail Connected</p>
              <p className="text-sm text-muted-foreground">{connection.data.accountEmail}</p>
            </div>
          </div>
          <Button variant="outline" onClick={onConnect} disabled={start.isPending}>
            <RefreshCw />
            {start.isPending ? 'Connecting...' : 'Reconnect Account'}
          </Button>
        </div>
      ) : (
        <div className="flex flex-col items-center gap-4 rounded-md border border-dashed p-8 text-center">
          {connection.data?.needsReconnect ? (
            <p className="flex items-center gap-2 text-sm text-destructive">
              <TriangleAlert className="size-4" aria-hidden />
              {connection.data.reason ?? 'Your Gmail connection needs to be renewed.'}
            </p>
          ) : (
            <p className="text-sm text-muted-foreground">Connect the Gmail account that receives the emails you want in a spreadsheet.</p>
          )}
          <Button onClick={onConnect} disabled={start.isPending}>
            <Mail />
            {start.isPending ? 'Connecting...' : 'Connect Gmail Account'}
          </Button>
        </div>
      )}
    </div>
  )
}

function scopeLabel(scope: string) {
  if (scope.endsWith('gmail.readonly')) return 'read your emails'
  if (scope.endsWith('spreadsheets')) return 'write to Google Sheets'
  if (scope.endsWith('userinfo.email')) return 'see your email address'
  return scope
}
