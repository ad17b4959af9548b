import { AlertTriangle, ExternalLink } from 'lucide-react'
import { useState } from 'react'
import type { AccountView } from '@shared/contracts/account'
import { PLAN_SET_BY_ADMIN, type BillingView } from '@shared/contracts/billing'
import { formatEmailsPerMonth, PAID_PLANS, PLAN_INFO, PLANS, type PaidPlan, type Plan } from '@shared/plans'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog'
import { Spinner } from '../../components/ui/spinner'
import { useReturnFocus } from '../../components/ui/use-return-focus'
import { cn } from '../../lib/utils'
import { formatLongDate, formatMonthlyPrice } from '../settings/components/format'
import { SettingsSection } from '../settings/components/settings-section'
import { UsageMeter } from '../settings/components/usage-meter'
import { useOpenPortal, useStartCheckout } from './api/billing-redirects'
import { useBilling } from './api/get-billing'
import { useCheckoutReturn } from './use-checkout-return'

const isPaidPlan = (plan: Plan): plan is PaidPlan => (PAID_PLANS as readonly Plan[]).includes(plan)

function formatMoney(cents: number, currency: string) {
  return (cents / 100).toLocaleString('en-US', { style: 'currency', currency: currency.toUpperCase() })
}

/**
 * Settings → Plan & billing, the target of every 'Upgrade Now' (/settings#plan): the plan, this
 * month's usage, renewal or end date, invoices, and upgrade / change / cancel / resume through
 * Stripe. Without Stripe the administrator sets plans, and it says so.
 */
export function PlanBillingSection({ account }: { account: AccountView }) {
  useCheckoutReturn()
  const billing = useBilling()
  return (
    <SettingsSection id="plan" title="Plan & billing" description="Your plan, what it processes each month, and your invoices.">
      {billing.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner className="size-6" label="Loading your plan" />
        </div>
      ) : (
        <PlanBillingBody account={account} billing={billing.data ?? null} />
      )}
    </SettingsSection>
  )
}

function PlanBillingBody({ account, billing }: { account: AccountView; billing: BillingView | null }) {
  const [adminDialogFor, setAdminDialogFor] = useState<Plan | null>(null)
  const checkout = useStartCheckout()
  const portal = useOpenPortal()
  const plan = billing?.plan ?? account.plan
  const current = PLAN_INFO[plan]
  const currentRank = PLANS.indexOf(plan)
  const subscription = billing?.subscription ?? null
  const isEnabled = billing?.enabled === true
  const busy = checkout.isPending || portal.isPending

  return (
    <div className="flex flex-col gap-6">
      {billing?.paymentIssue && subscription ? (
        <div role="alert" className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex items-start gap-3">
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
            <div>
              <p className="font-medium">Your last payment failed</p>
              <p className="text-sm">
                Update your card by {formatLongDate(billing.paymentIssue.graceEndsAt)} to keep the {PLAN_INFO[subscription.plan].name} plan. After that your
                account moves to Free; your parsers and rows are kept.
              </p>
            </div>
          </div>
          <Button size="sm" disabled={busy} onClick={() => portal.mutate({})}>
            Update payment method
          </Button>
        </div>
      ) : null}

      <div className="flex flex-col gap-4 rounded-lg border bg-muted/40 p-4">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <p className="text-sm text-muted-foreground">Current plan</p>
            <p className="text-2xl font-semibold" data-testid="current-plan">
              {current.name}
            </p>
            {subscription?.currentPeriodEnd ? (
              <p className="text-sm text-muted-foreground" data-testid="plan-renewal">
                {subscription.cancelAtPeriodEnd
                  ? `Ends on ${formatLongDate(subscription.currentPeriodEnd)}; you'll move to Free then.`
                  : `Renews on ${formatLongDate(subscription.currentPeriodEnd)}.`}
              </p>
            ) : null}
          </div>
          <div className="text-right">
            <p className="font-semibold">{formatMonthlyPrice(current.priceMonthly)}</p>
            <p className="text-sm text-muted-foreground">{formatEmailsPerMonth(current.emailsPerMonth)} emails/month</p>
          </div>
        </div>
        <UsageMeter usage={billing?.usage ?? account.usage} />
        {isEnabled && subscription ? (
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" disabled={busy} onClick={() => portal.mutate({})}>
              Manage billing
              <ExternalLink aria-hidden />
            </Button>
            {subscription.cancelAtPeriodEnd ? (
              <Button size="sm" disabled={busy} onClick={() => portal.mutate({})}>
                Resume plan
              </Button>
            ) : (
              <Button variant="outline" size="sm" disabled={busy} onClick={() => portal.mutate({ flow: 'cancel' })}>
                Cancel plan
              </Button>
            )}
          </div>
        ) : null}
      </div>

      <ul className="grid gap-3 sm:grid-cols-3" aria-label="Plans">
        {PLANS.map((id, rank) => {
          const info = PLAN_INFO[id]
          const isCurrent = id === plan
          return (
            <li
              key={id}
              className={cn('flex flex-col gap-2 rounded-lg border p-4', isCurrent && 'border-primary ring-1 ring-primary')}
              aria-current={isCurrent ? 'true' : undefined}
            >
              <div className="flex items-center justify-between gap-2">
                <h3 className="font-semibold">{info.name}</h3>
                {isCurrent ? <Badge>Current plan</Badge> : info.badge ? <Badge variant="secondary">{info.badge}</Badge> : null}
              </div>
              <p className="text-xl font-bold">{formatMonthlyPrice(info.priceMonthly)}</p>
              <p className="text-sm text-muted-foreground">{formatEmailsPerMonth(info.emailsPerMonth)} emails/month</p>
              <ul className="mt-1 mb-2 list-disc pl-4 text-sm text-muted-foreground">
                {info.features.map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
              {isCurrent || !isPaidPlan(id) ? null : !isEnabled ? (
                rank > currentRank ? (
                  <Button className="mt-auto" variant={info.badge ? 'default' : 'outline'} onClick={() => setAdminDialogFor(id)}>
                    Upgrade to {info.name}
                  </Button>
                ) : null
              ) : subscription ? (
                <Button className="mt-auto" variant="outline" disabled={busy} onClick={() => portal.mutate({ flow: 'change' })}>
                  Switch to {info.name}
                </Button>
              ) : (
                <Button className="mt-auto" variant={info.badge ? 'default' : 'outline'} disabled={busy} onClick={() => checkout.mutate({ plan: id })}>
                  Upgrade to {info.name}
                </Button>
              )}
            </li>
          )
        })}
      </ul>

      {isEnabled ? <Invoices billing={billing!} /> : <p className="text-sm text-muted-foreground">{PLAN_SET_BY_ADMIN}.</p>}
      <AdministratorDialog plan={adminDialogFor} onOpenChange={(open) => !open && setAdminDialogFor(null)} />
    </div>
  )
}

function Invoices({ billing }: { billing: BillingView }) {
  if (billing.invoices.length === 0) return <p className="text-sm text-muted-foreground">No invoices yet.</p>
  return (
    <div className="flex flex-col gap-2">
      <h3 className="font-semibold">Invoices</h3>
      <div className="overflow-x-auto">
        <table className="w-full text-sm" aria-label="Invoices">
          <thead className="text-left text-muted-foreground">
            <tr>
              <th className="py-1 pr-4 font-medium">Date</th>
              <th className="py-1 pr-4 font-medium">Invoice</th>
              <th className="py-1 pr-4 font-medium">Amount</th>
              <th className="py-1 pr-4 font-medium">Status</th>
              <th className="py-1 font-medium">
                <span className="sr-only">Links</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {billing.invoices.map((invoice) => (
              <tr key={invoice.id} className="border-t">
                <td className="py-2 pr-4">{formatLongDate(invoice.date)}</td>
                <td className="py-2 pr-4">{invoice.number ?? '—'}</td>
                <td className="py-2 pr-4">{formatMoney(invoice.amount, invoice.currency)}</td>
                <td className="py-2 pr-4 capitalize">{invoice.status}</td>
                <td className="py-2 whitespace-nowrap">
                  {invoice.url ? (
                    <a href={invoice.url} target="_blank" rel="noreferrer" className="underline underline-offset-4">
                      View
                    </a>
                  ) : null}
                  {invoice.pdfUrl ? (
                    <a href={invoice.pdfUrl} target="_blank" rel="noreferrer" className="ml-3 underline underline-offset-4">
                      PDF
                    </a>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}

/** Billing off (self-hosted without Stripe): upgrading is the administrator's job, and the dialog says only that. */
function AdministratorDialog({ plan, onOpenChange }: { plan: Plan | null; onOpenChange: (open: boolean) => void }) {
  const returnFocus = useReturnFocus()
  const info = plan ? PLAN_INFO[plan] : null
  return (
    <Dialog open={plan !== null} onOpenChange={onOpenChange}>
      <DialogContent className="w-[calc(100%-1rem)]" {...returnFocus}>
        {info ? (
          <>
            <DialogHeader className="pr-6">
              <DialogTitle>Upgrade to {info.name}</DialogTitle>
              <DialogDescription>
                {PLAN_SET_BY_ADMIN}. Ask them to move your account to {info.name} ({formatMonthlyPrice(info.priceMonthly)}).
              </DialogDescription>
            </DialogHeader>
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline">Close</Button>
              </DialogClose>
            </DialogFooter>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  )
}
