import { useQueryClient } from '@tanstack/react-query'
import { Laptop, LogOut } from 'lucide-react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { paths } from '@shared/paths'
import { Badge } from '@web/components/ui/badge'
import { Button } from '@web/components/ui/button'
import { Spinner } from '@web/components/ui/spinner'
import { authClient } from '@web/lib/auth-client'
import { errorMessage } from '../api/auth-data'
import { useRevokeAllSessions, useRevokeOtherSessions, useRevokeSession, useSessions } from '../api/sessions'

function formatLastUsed(value: string): string {
  return new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

/** Where the account is signed in, with a way out for each, the others, or all of them. */
export function SessionsSettings() {
  const sessions = useSessions()
  const revokeSession = useRevokeSession()
  const revokeOthers = useRevokeOtherSessions()
  const revokeAll = useRevokeAllSessions()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const others = sessions.data?.filter((s) => !s.isCurrent) ?? []

  async function signOutOne(id: string) {
    try {
      await revokeSession.mutateAsync(id)
      toast.success('Session signed out')
    } catch (error) {
      toast.error('Could not sign that session out', { description: errorMessage(error) })
    }
  }

  async function signOutOthers() {
    try {
      await revokeOthers.mutateAsync()
      toast.success('Signed out of other sessions')
    } catch (error) {
      toast.error('Could not sign out the other sessions', { description: errorMessage(error) })
    }
  }

  async function signOutEverywhere() {
    try {
      await revokeAll.mutateAsync()
    } catch (error) {
      toast.error('Could not sign out everywhere', { description: errorMessage(error) })
      return
    }
    // This browser's session is gone on the server too: have the session store read that, then
    // leave the protected page.
    queryClient.clear()
    authClient.$store.notify('$sessionSignal')
    toast.success('Signed out everywhere', { description: 'Sign in again to continue.' })
    navigate(paths.login, { replace: true })
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-start gap-3">
        <Laptop className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
        <div className="flex flex-col gap-1">
          <h3 className="font-medium">Active sessions</h3>
          <p className="text-sm text-muted-foreground">Browsers and devices signed in to your account.</p>
        </div>
      </div>
      {sessions.isPending ? (
        <Spinner label="Loading sessions" />
      ) : sessions.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-destructive">
          {errorMessage(sessions.error, 'Could not load your sessions')}
          <Button variant="outline" size="sm" onClick={() => void sessions.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <ul className="flex flex-col divide-y rounded-md border" aria-label="Active sessions">
          {sessions.data.map((session) => (
            <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
              <div className="flex flex-col gap-0.5">
                <span className="flex items-center gap-2 font-medium">
                  {session.device}
                  {session.isCurrent ? <Badge variant="success">This device</Badge> : null}
                </span>
                <span className="text-sm text-muted-foreground">
                  {session.ipAddress ? `${session.ipAddress} · ` : ''}Last used {formatLastUsed(session.lastUsedAt)}
                </span>
              </div>
              {session.isCurrent ? null : (
                <Button variant="outline" size="sm" onClick={() => void signOutOne(session.id)} aria-label={`Sign out ${session.device}`}>
                  Sign out
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => void signOutOthers()} disabled={others.length === 0 || revokeOthers.isPending}>
          Sign out of other sessions
        </Button>
        <Button variant="destructive" onClick={() => void signOutEverywhere()} disabled={revokeAll.isPending}>
          <LogOut aria-hidden />
          Sign out everywhere
        </Button>
      </div>
    </div>
  )
}
