import { useEffect } from 'react'
import { useLocation } from 'react-router'
import { paths } from '@shared/paths'
import { AppHeader } from '../../components/layout/app-header'
import { useGmailCallback } from '../connections/use-gmail-callback'
import { Button } from '../../components/ui/button'
import { Spinner } from '../../components/ui/spinner'
import { errorMessage } from './api/auth-data'
import { PlanBillingSection } from '../billing/plan-billing-section'
import { useAccount } from './api/get-account'
import { AccountSection } from './components/account-section'
import { ApiKeysSection } from './components/api-keys-section'
import { ConnectionsSection } from './components/connections-section'
import { DeleteAccountSection } from './components/delete-account-section'
import { PasskeySettings } from './components/passkey-settings'
import { PasswordSettings } from './components/password-settings'
import { SecurityLog } from './components/security-log'
import { SessionsSettings } from './components/sessions-settings'
import { SettingsSection } from './components/settings-section'
import { TwoFactorSettings } from './components/two-factor-settings'
import { WebhooksSection } from './components/webhooks-section'

export function SettingsPage() {
  // Reconnect started here comes back here (issue 12), to the connections section.
  useGmailCallback(`${paths.settings}#connections`, 'Your parsers read emails and write rows with it.')
  const account = useAccount()
  const { hash } = useLocation()

  // The router does not scroll to a #fragment, and the sections only exist once the account has
  // loaded, so links such as /settings#plan are honoured here.
  useEffect(() => {
    if (account.isSuccess && hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView()
  }, [account.isSuccess, hash])

  return (
    <div className="min-h-screen bg-muted/30">
      <AppHeader />
      <main className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-8">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Settings</h1>
          <p className="text-muted-foreground">Manage your account, plan and sign-in security</p>
        </div>

        {account.isPending ? (
          <div className="flex justify-center py-12">
            <Spinner className="size-8" label="Loading your settings" />
          </div>
        ) : account.isError ? (
          <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border bg-card p-6">
            <p className="font-medium">Could not load your settings</p>
            <p className="text-sm text-muted-foreground">{errorMessage(account.error)}</p>
            <Button variant="outline" onClick={() => void account.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <>
            <AccountSection account={account.data} />
            <PlanBillingSection account={account.data} />
            <ConnectionsSection />
            <ApiKeysSection account={account.data} />
            <WebhooksSection account={account.data} />
            <SettingsSection id="security" title="Security" description="How you prove it's you when you sign in.">
              <div className="flex flex-col gap-8">
                <PasswordSettings account={account.data} />
                <hr />
                <TwoFactorSettings account={account.data} />
                <hr />
                <PasskeySettings />
              </div>
            </SettingsSection>
            <SettingsSection id="sessions" title="Sessions" description="Where you are signed in.">
              <SessionsSettings />
            </SettingsSection>
            <SettingsSection
              id="security-log"
              title="Security log"
              description="Sign-ins, failed sign-ins and security changes of the last 90 days."
            >
              <SecurityLog />
            </SettingsSection>
            <DeleteAccountSection account={account.data} />
          </>
        )}
      </main>
    </div>
  )
}
