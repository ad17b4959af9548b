import { LockKeyhole } from 'lucide-react'
import { useState } from 'react'
import type { AccountView } from '@shared/contracts/account'
import { Button } from '@web/components/ui/button'
import { ChangePasswordDialog } from './change-password-dialog'

export function PasswordSettings({ account }: { account: AccountView }) {
  const [isChanging, setIsChanging] = useState(false)
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="flex items-start gap-3">
        <LockKeyhole className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
        <div className="flex flex-col gap-1">
          <h3 className="font-medium">Password</h3>
          <p className="text-sm text-muted-foreground">
            {account.hasPassword
              ? 'Changing it signs you out everywhere else.'
              : 'You sign in with Google. To add a password, use "Forgot password?" on the sign-in page.'}
          </p>
        </div>
      </div>
      {account.hasPassword ? (
        <Button variant="outline" onClick={() => setIsChanging(true)}>
          Change password
        </Button>
      ) : null}
      <ChangePasswordDialog open={isChanging} onOpenChange={setIsChanging} />
    </div>
  )
}
