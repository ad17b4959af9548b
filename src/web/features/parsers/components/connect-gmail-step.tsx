import { CheckCircle2, Mail, RefreshCw, ShieldCheck, TriangleAlert } from 'lucide-react'
import { Button } from '../../../components/ui/button'
import { Spinner } from '../../../components/ui/spinner'
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
          {connection.data.missingScopes.length > 0 && (
            <p className="w-full text-sm text-destructive">
              Some permissions were not granted ({connection.data.missingScopes.map(scopeLabel).join(', ')}). Reconnect and allow them
              all so Mailrow can read matching emails and write to Google Sheets.
            </p>
          )}
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
  if (scope.endsWith('gmail.readonly')) return 'read Gmail'
  if (scope.endsWith('spreadsheets')) return 'Google Sheets'
  if (scope.endsWith('userinfo.email')) return 'email address'
  return scope
}
