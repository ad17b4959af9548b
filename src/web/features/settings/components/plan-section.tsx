import { useState } from 'react'
import type { AccountView } from '../../../../shared/contracts/account'
import { formatEmailsPerMonth, PLAN_INFO, PLANS, type Plan } from '../../../../shared/plans'
import { Badge } from '../../../components/ui/badge'
import { Button } from '../../../components/ui/button'
import { cn } from '../../../lib/utils'
import { formatMonthlyPrice } from './format'
import { SettingsSection } from './settings-section'
import { UpgradeDialog } from './upgrade-dialog'
import { UsageMeter } from './usage-meter'

/** The target of every 'Upgrade Now' action (/settings#plan): plan, this month's usage, upgrades. */
export function PlanSection({ account }: { account: AccountView }) {
  const [upgradeTo, setUpgradeTo] = useState<Plan | null>(null)
  const current = PLAN_INFO[account.plan]
  const currentRank = PLANS.indexOf(account.plan)
  return (
    <SettingsSection id="plan" title="Plan" description="What your account can process each month.">
      <div className="flex flex-col gap-6">
        <div className="flex flex-col gap-4 rounded-lg border bg-muted/40 p-4">
          <div className="flex flex-wrap items-end justify-between gap-4">
            <div>
              <p className="text-sm text-muted-foreground">Current plan</p>
              <p className="text-2xl font-semibold" data-testid="current-plan">
                {current.name}
              </p>
            </div>
            <div className="text-right">
              <p className="font-semibold">{formatMonthlyPrice(current.priceMonthly)}</p>
              <p className="text-sm text-muted-foreground">{formatEmailsPerMonth(current.emailsPerMonth)} emails/month</p>
            </div>
          </div>
          <UsageMeter usage={account.usage} />
        </div>

        <ul className="grid gap-3 sm:grid-cols-3" aria-label="Plans">
          {PLANS.map((id, rank) => {
            const info = PLAN_INFO[id]
            const isCurrent = id === account.plan
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
                {rank > currentRank ? (
                  <Button className="mt-auto" variant={info.badge ? 'default' : 'outline'} onClick={() => setUpgradeTo(id)}>
                    Upgrade to {info.name}
                  </Button>
                ) : null}
              </li>
            )
          })}
        </ul>

        <p className="text-sm text-muted-foreground">
          Contact your Mailrow administrator to upgrade. Self-hosting? An operator sets a plan with{' '}
          <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs whitespace-nowrap">npm run mailrow -- set-plan EMAIL PLAN</code>.
        </p>
      </div>
      <UpgradeDialog plan={upgradeTo} email={account.email} onOpenChange={(open) => !open && setUpgradeTo(null)} />
    </SettingsSection>
  )
}
