import { Mail } from 'lucide-react'
import { toast } from 'sonner'
import { Badge } from '../../../components/ui/badge'
import { Button } from '../../../components/ui/button'
import { Spinner } from '../../../components/ui/spinner'
import { useDisconnectGmail, useGmailConnection } from '../../connections/api/gmail-connection'
import { SettingsSection } from './settings-section'

/** The Gmail / Google Sheets connection, and a way to revoke it. */
export function ConnectionsSection() {
  const connection = useGmailConnection()
  const disconnect = useDisconnectGmail()

  const onDisconnect = () =>
    disconnect.mutate(undefined, {
      onSuccess: () => toast.success('Gmail disconnected', { description: "Mailrow's access to your Google account was revoked." }),
      onError: (error) => toast.error('Could not disconnect Gmail', { description: error.message }),
    })

  return (
    <SettingsSection id="connections" title="Connected accounts" description="Where Mailrow reads emails and writes rows.">
      {connection.isPending ? (
        <Spinner label="Loading connections" />
      ) : !connection.data || (!connection.data.connected && !connection.data.needsReconnect) ? (
        <p className="text-sm text-muted-foreground">No Gmail account connected. Connect one when you create a parser.</p>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-4">
          <div className="flex items-center gap-3">
            <Mail className="size-5 text-muted-foreground" aria-hidden />
            <div>
              <p className="font-medium">Gmail and Google Sheets</p>
              <p className="text-sm text-muted-foreground">{connection.data.accountEmail}</p>
              {connection.data.needsReconnect && <p className="text-sm text-destructive">{connection.data.reason}</p>}
            </div>
            {connection.data.needsReconnect ? <Badge variant="destructive">Needs reconnect</Badge> : <Badge variant="success">Connected</Badge>}
          </div>
          <Button variant="outline" onClick={onDisconnect} disabled={disconnect.isPending}>
            {disconnect.isPending ? 'Disconnecting...' : 'Disconnect'}
          </Button>
        </div>
      )}
    </SettingsSection>
  )
}
