import type { AccountView } from '@shared/contracts/account'
import { formatLongDate } from './format'
import { SettingsSection } from './settings-section'

const SIGN_IN_METHOD_NAMES: Record<string, string> = {
  credential: 'Email and password',
  google: 'Google',
}

export function AccountSection({ account }: { account: AccountView }) {
  const signInMethods = account.signInMethods.map((method) => SIGN_IN_METHOD_NAMES[method] ?? method)
  return (
    <SettingsSection id="account" title="Account" description="The account you sign in with.">
      <dl className="grid gap-4 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="text-muted-foreground">Email</dt>
        <dd className="font-medium break-all">{account.email}</dd>
        <dt className="text-muted-foreground">Member since</dt>
        <dd className="font-medium">{formatLongDate(account.createdAt)}</dd>
        {signInMethods.length > 0 ? (
          <>
            <dt className="text-muted-foreground">Sign-in methods</dt>
            <dd className="font-medium">{signInMethods.join(', ')}</dd>
          </>
        ) : null}
      </dl>
    </SettingsSection>
  )
}
