import { AlertTriangle } from 'lucide-react'
import { Link } from 'react-router'
import { PLAN_INFO } from '@shared/plans'
import { paths } from '@shared/paths'
import { formatLongDate } from '../settings/components/format'
import { useBilling } from './api/get-billing'

/** Under the top bar of signed-in pages while a failed renewal's grace period runs. */
export function PaymentIssueBanner() {
  const billing = useBilling()
  const issue = billing.data?.paymentIssue
  const plan = billing.data?.subscription?.plan
  if (!issue || !plan) return null
  return (
    <div role="alert" className="flex flex-wrap items-center justify-center gap-2 border-b border-amber-300 bg-amber-50 px-4 py-2 text-center text-sm text-amber-950">
      <AlertTriangle className="size-4 shrink-0" aria-hidden />
      <span>
        Your last payment failed. Update your card by {formatLongDate(issue.graceEndsAt)} to keep the {PLAN_INFO[plan].name} plan; after that your account
        moves to Free.
      </span>
      <Link to={`${paths.settings}#plan`} className="font-medium underline underline-offset-4">
        Update payment
      </Link>
    </div>
  )
}
