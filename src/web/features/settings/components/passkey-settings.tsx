import { KeyRound, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '@web/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog'
import { Spinner } from '@web/components/ui/spinner'
import { errorMessage } from '../api/auth-data'
import { useDeletePasskey } from '../api/delete-passkey'
import { usePasskeys } from '../api/list-passkeys'
import { AddPasskeyDialog } from './add-passkey-dialog'
import { formatLongDate } from './format'

type PasskeyToDelete = { id: string; name: string }

export function PasskeySettings() {
  const passkeys = usePasskeys()
  const deletePasskey = useDeletePasskey()
  const [isAdding, setIsAdding] = useState(false)
  const [toDelete, setToDelete] = useState<PasskeyToDelete | null>(null)
  const canUsePasskeys = typeof window !== 'undefined' && typeof window.PublicKeyCredential !== 'undefined'

  async function confirmDelete() {
    if (!toDelete) return
    try {
      await deletePasskey.mutateAsync({ id: toDelete.id })
    } catch (error) {
      toast.error('Could not delete passkey', { description: errorMessage(error) })
      return
    }
    toast.success('Passkey deleted')
    setToDelete(null)
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex items-start gap-3">
          <KeyRound className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
          <div className="flex flex-col gap-1">
            <h3 className="font-medium">Passkeys</h3>
            <p className="text-sm text-muted-foreground">
              Sign in with your fingerprint, face or device PIN instead of a password.
            </p>
          </div>
        </div>
        <Button variant="outline" onClick={() => setIsAdding(true)} disabled={!canUsePasskeys}>
          <Plus aria-hidden />
          Add passkey
        </Button>
      </div>

      {!canUsePasskeys ? <p className="text-sm text-muted-foreground">This browser doesn't support passkeys.</p> : null}

      {passkeys.isPending ? (
        <Spinner label="Loading passkeys" />
      ) : passkeys.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-destructive">
          {errorMessage(passkeys.error, 'Could not load your passkeys')}
          <Button variant="outline" size="sm" onClick={() => void passkeys.refetch()}>
            Try again
          </Button>
        </div>
      ) : passkeys.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">No passkeys yet.</p>
      ) : (
        <ul className="divide-y rounded-lg border" aria-label="Your passkeys">
          {passkeys.data.map((passkey) => {
            const name = passkey.name?.trim() || 'Unnamed passkey'
            return (
              <li key={passkey.id} className="flex items-center justify-between gap-3 px-4 py-3">
                <div className="min-w-0">
                  <p className="truncate font-medium">{name}</p>
                  <p className="text-sm text-muted-foreground">Added {formatLongDate(passkey.createdAt)}</p>
                </div>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Delete passkey ${name}`}
                  onClick={() => setToDelete({ id: passkey.id, name })}
                >
                  <Trash2 aria-hidden />
                  Delete
                </Button>
              </li>
            )
          })}
        </ul>
      )}

      <AddPasskeyDialog open={isAdding} onOpenChange={setIsAdding} />

      <Dialog
        open={toDelete !== null}
        onOpenChange={(open) => {
          if (!open) setToDelete(null)
        }}
      >
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete passkey?</DialogTitle>
            <DialogDescription>
              You won't be able to sign in with “{toDelete?.name}” any more. Remove it from your device or password
              manager as well.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setToDelete(null)} disabled={deletePasskey.isPending}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => void confirmDelete()} disabled={deletePasskey.isPending}>
              {deletePasskey.isPending ? 'Deleting...' : 'Delete passkey'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  )
}
