import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@web/lib/api-client'

export const billingQuery = queryOptions({
  queryKey: ['billing'],
  queryFn: async () => (await unwrap(api.billing.$get())).billing,
  // Read by the banner on every signed-in page, and each read lists invoices at Stripe: once in a while is enough.
  staleTime: 30_000,
})

/** Plan & billing; `refetchInterval` while waiting for Stripe's word after Checkout or the portal. */
export function useBilling(options: { refetchInterval?: number | false } = {}) {
  return useQuery({ ...billingQuery, refetchInterval: options.refetchInterval })
}
