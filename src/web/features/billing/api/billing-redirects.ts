import { useMutation } from '@tanstack/react-query'
import { toast } from 'sonner'
import type { CheckoutInput, PortalInput } from '@shared/contracts/billing'
import { api, unwrap } from '@web/lib/api-client'

/** Leaves for a Stripe page (Checkout, the Billing Portal); the pending state lasts until the page unloads. */
function goTo(url: string) {
  window.location.assign(url)
  return new Promise<never>(() => {})
}

/** 'Upgrade Now' with billing on: Stripe Checkout for the plan, coming back to `returnTo`. */
export function useStartCheckout() {
  return useMutation({
    mutationFn: async (input: CheckoutInput) => goTo((await unwrap(api.billing.checkout.$post({ json: input }))).url),
    onError: (error) => toast.error('Could not open checkout', { description: error.message || 'Please try again.' }),
  })
}

/** Manage billing, change, cancel or resume the plan: Stripe's Billing Portal. */
export function useOpenPortal() {
  return useMutation({
    mutationFn: async (input: PortalInput) => goTo((await unwrap(api.billing.portal.$post({ json: input }))).url),
    onError: (error) => toast.error('Could not open billing', { description: error.message || 'Please try again.' }),
  })
}
