import { Mail } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Badge } from '@web/components/ui/badge'
import { Button } from '@web/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog'
import { Spinner } from '@web/components/ui/spinner'
import { useDisconnectGmail, useGmailConnection, useStartGmailConnection } from '../../connections/api/gmail-connection'
import { SettingsSection } from './settings-section'
import { useReturnFocus } from '@web/components/ui/use-return-focus'

/** The Gmail / Google Sheets connection: status, reconnect, and a way to revoke it. */
export function ConnectionsSection() {
  const connection = useGmailConnection()
  // Reconnect from Settings comes back to Settings (useGmailCallback on the settings page).
  const start = useStartGmailConnection('settings')
  const [isConfirmingDisconnect, setIsConfirmingDisconnect] = useState(false)

  const onConnect = () => start.mutate(undefined, { onError: (error) => toast.error('Error connecting Gmail', { description: error.message }) })
  const isLinked = connection.data && (connection.data.connected || connection.data.needsReconnect)

  return (
    <SettingsSection id="connections" title="Connected accounts" description="Where Mailrow reads emails and writes rows.">
      <div className="min-h-12">
        {connection.isPending ? (
          <Spinner label="Loading connections" />
        ) : connection.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Error checking Gmail connection: {connection.error.message}
          </p>
        ) : !isLinked ? (
          <div className="flex flex-wrap items-center justify-between gap-4">
            <div className="flex items-center gap-3">
              <Mail className="size-5 text-muted-foreground" aria-hidden />
              <div>
                <p className="font-medium">Gmail and Google Sheets</p>
                <p className="text-sm text-muted-foreground">No Gmail account connected. Your parsers can't read emails until you connect one.</p>
              </div>
            </div>
            <Button onClick={onConnect} disabled={start.isPending}>
              {start.isPending ? 'Connecting...' : 'Connect Gmail'}
            </Button>
          </div>
        ) : (
          <div className="flex flex-wrap items-center justify-between gap-4">
            <div className="flex min-w-0 items-center gap-3">
              <Mail className="size-5 shrink-0 text-muted-foreground" aria-hidden />
              <div className="min-w-0">
                <div className="flex flex-wrap items-center gap-2">
                  <p className="font-medium">Gmail and Google Sheets</p>
                  {connection.data.needsReconnect ? <Badge variant="destructive">Needs reconnect</Badge> : <Badge variant="success">Connected</Badge>}
                </div>
                <p className="text-sm break-all text-muted-foreground">{connection.data.accountEmail}</p>
                {connection.data.needsReconnect && connection.data.reason ? <p className="text-sm text-destructive">{connection.data.reason}</p> : null}
              </div>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button variant={connection.data.needsReconnect ? 'default' : 'outline'} onClick={onConnect} disabled={start.isPending}>
                {start.isPending ? 'Connecting...' : 'Reconnect'}
              </Button>
              <Button variant="outline" onClick={() => setIsConfirmingDisconnect(true)}>
                Disconnect
              </Button>
            </div>
          </div>
        )}
      </div>
      <DisconnectDialog open={isConfirmingDisconnect} onOpenChange={setIsConfirmingDisconnect} accountEmail={connection.data?.accountEmail ?? null} />
    </SettingsSection>
  )
}

function DisconnectDialog({ open, onOpenChange, accountEmail }: { open: boolean; onOpenChange: (open: boolean) => void; accountEmail: string | null }) {
  const returnFocus = useReturnFocus(() => document.querySelector<HTMLElement>('#connections button'))
  const disconnect = useDisconnectGmail()
  const onDisconnect = () =>
    disconnect.mutate(undefined, {
      onSuccess: () => {
        toast.success('Gmail disconnected', { description: "Mailrow's access to your Google account was revoked." })
        onOpenChange(false)
      },
      onError: (error) => toast.error('Could not disconnect Gmail', { description: error.message }),
    })
  return (
    <Dialog open={open} onOpenChange={(next) => !disconnect.isPending && onOpenChange(next)}>
      <DialogContent role="alertdialog" className="w-[calc(100%-1rem)]" {...returnFocus}>
        <DialogHeader className="pr-6">
          <DialogTitle>Disconnect Gmail?</DialogTitle>
          <DialogDescription>
            Mailrow's access to {accountEmail ?? 'your Google account'} is revoked and your parsers stop reading emails and writing rows until you
            connect again. Your parsers and spreadsheets are kept.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={disconnect.isPending}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={onDisconnect} disabled={disconnect.isPending}>
            {disconnect.isPending ? 'Disconnecting...' : 'Disconnect'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
