import { ShieldCheck } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import type { AccountView } from '@shared/contracts/account'
import { Badge } from '@web/components/ui/badge'
import { Button } from '@web/components/ui/button'
import { errorMessage } from '../api/auth-data'
import { useDisableTwoFactor } from '../api/disable-two-factor'
import { useEnableTwoFactor } from '../api/enable-two-factor'
import { useGenerateBackupCodes } from '../api/generate-backup-codes'
import { BackupCodesList } from './backup-codes-list'
import { PasswordDialog } from './password-dialog'
import { TwoFactorSetup } from './two-factor-setup'

type PasswordAction = 'enable' | 'disable' | 'regenerate'

const PASSWORD_ACTIONS: Record<
  PasswordAction,
  { title: string; description: string; submitLabel: string; errorTitle: string; isDestructive?: boolean }
> = {
  enable: {
    title: 'Enable two-factor authentication',
    description: 'Enter your password to set up an authenticator app.',
    submitLabel: 'Continue',
    errorTitle: 'Could not enable two-factor authentication',
  },
  regenerate: {
    title: 'Regenerate backup codes',
    description: 'Your current backup codes will stop working. Enter your password to continue.',
    submitLabel: 'Regenerate',
    errorTitle: 'Could not regenerate backup codes',
  },
  disable: {
    title: 'Disable two-factor authentication',
    description: 'Signing in will no longer ask for a code. Enter your password to confirm.',
    submitLabel: 'Disable',
    errorTitle: 'Could not disable two-factor authentication',
    isDestructive: true,
  },
}

type PendingSetup = { totpURI: string; backupCodes: string[] }

export function TwoFactorSettings({ account }: { account: AccountView }) {
  const [action, setAction] = useState<PasswordAction | null>(null)
  const [pendingSetup, setPendingSetup] = useState<PendingSetup | null>(null)
  const [newBackupCodes, setNewBackupCodes] = useState<string[] | null>(null)
  const enableTwoFactor = useEnableTwoFactor()
  const disableTwoFactor = useDisableTwoFactor()
  const generateBackupCodes = useGenerateBackupCodes()
  const isEnabled = account.twoFactorEnabled
  const dialog = PASSWORD_ACTIONS[action ?? 'enable']

  /** Accounts without a password (Google-only) act from their session; others confirm with it. */
  function start(next: PasswordAction) {
    if (account.hasPassword) setAction(next)
    else void run(next)
  }

  async function runWithPassword(password: string) {
    if (action) await run(action, password)
  }

  async function run(action: PasswordAction, password?: string) {
    try {
      if (action === 'enable') {
        setPendingSetup(await enableTwoFactor.mutateAsync({ password }))
      } else if (action === 'regenerate') {
        const { backupCodes } = await generateBackupCodes.mutateAsync({ password })
        setNewBackupCodes(backupCodes)
        toast.success('New backup codes created', { description: 'Your old backup codes no longer work.' })
      } else {
        await disableTwoFactor.mutateAsync({ password })
        setNewBackupCodes(null)
        toast.success('Two-factor authentication disabled')
      }
      setAction(null)
    } catch (error) {
      toast.error(PASSWORD_ACTIONS[action].errorTitle, { description: errorMessage(error) })
    }
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-start gap-3">
        <ShieldCheck className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
        <div className="flex flex-col gap-1">
          <div className="flex items-center gap-2">
            <h3 className="font-medium">Two-factor authentication</h3>
            <Badge variant={isEnabled ? 'success' : 'secondary'}>{isEnabled ? 'Enabled' : 'Off'}</Badge>
          </div>
          <p className="text-sm text-muted-foreground">
            After your password, signing in asks for a 6-digit code from an authenticator app.
          </p>
        </div>
      </div>

      {isEnabled ? (
        <>
          {newBackupCodes ? (
            <div className="flex flex-col gap-3 rounded-lg border p-4">
              <h4 className="font-medium">Your new backup codes</h4>
              <p className="text-sm text-muted-foreground">Save them now: they are shown only once.</p>
              <BackupCodesList codes={newBackupCodes} />
              <Button type="button" variant="secondary" className="self-start" onClick={() => setNewBackupCodes(null)}>
                I've saved them
              </Button>
            </div>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => start('regenerate')}>
              Regenerate backup codes
            </Button>
            <Button variant="destructive" onClick={() => start('disable')}>
              Disable two-factor authentication
            </Button>
          </div>
        </>
      ) : pendingSetup ? (
        <TwoFactorSetup
          totpURI={pendingSetup.totpURI}
          backupCodes={pendingSetup.backupCodes}
          onEnabled={() => setPendingSetup(null)}
          onCancel={() => setPendingSetup(null)}
        />
      ) : (
        <Button className="self-start" onClick={() => start('enable')}>
          Enable two-factor authentication
        </Button>
      )}

      <PasswordDialog
        open={action !== null}
        onOpenChange={(open) => {
          if (!open) setAction(null)
        }}
        title={dialog.title}
        description={dialog.description}
        submitLabel={dialog.submitLabel}
        isDestructive={dialog.isDestructive}
        onSubmit={runWithPassword}
      />
    </div>
  )
}
