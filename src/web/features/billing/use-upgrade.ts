import { useLocation, useNavigate } from 'react-router'
import type { PaidPlan } from '@shared/plans'
import { UPGRADE_PATH } from '../parsers/upgrade'
import { useStartCheckout } from './api/billing-redirects'
import { useBilling } from './api/get-billing'

/**
 * Every 'Upgrade Now': with billing on and no subscription yet, straight to Stripe Checkout (back to
 * this page afterwards); otherwise to Settings → Plan & billing (to change an existing
 * subscription, or to read that the administrator sets plans).
 */
export function useUpgrade() {
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const billing = useBilling()
  const checkout = useStartCheckout()
  const canCheckout = billing.data?.enabled === true && billing.data.subscription === null
  const upgrade = (plan: PaidPlan) => {
    if (canCheckout) checkout.mutate({ plan, returnTo: pathname })
    else void navigate(UPGRADE_PATH)
  }
  return { upgrade, isPending: checkout.isPending }
}
