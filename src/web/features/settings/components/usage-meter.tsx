import type { UsageView } from '@shared/contracts/account'
import { formatEmailsPerMonth } from '@shared/plans'
import { Progress } from '@web/components/ui/progress'
import { cn } from '@web/lib/utils'

/** 'YYYY-MM' (a UTC calendar month) as its name, e.g. 'November'. */
function monthName(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', timeZone: 'UTC' })
}

/** This month's processed emails against the plan's allowance. */
export function UsageMeter({ usage }: { usage: UsageView }) {
  const ratio = usage.limit > 0 ? usage.used / usage.limit : 1
  const isFull = usage.used >= usage.limit
  const isNearlyFull = !isFull && ratio >= 0.8
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p id="usage-label" className="text-sm font-medium">
          {formatEmailsPerMonth(usage.used)} of {formatEmailsPerMonth(usage.limit)} emails used in {monthName(usage.month)}
        </p>
        <p className="text-xs text-muted-foreground">{Math.min(100, Math.round(ratio * 100))}%</p>
      </div>
      <Progress
        value={usage.used}
        max={usage.limit}
        aria-labelledby="usage-label"
        indicatorClassName={cn(isFull && 'bg-destructive', isNearlyFull && 'bg-amber-500')}
      />
      {isFull ? (
        <p className="text-sm text-destructive">You've reached this month's limit. New emails wait until next month unless you upgrade.</p>
      ) : isNearlyFull ? (
        <p className="text-sm text-amber-700">You're close to this month's limit.</p>
      ) : (
        <p className="text-xs text-muted-foreground">Counts every email a parser processed this month, tests included. Resets on the 1st.</p>
      )}
    </div>
  )
}
