import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { PLAN_INFO, type Plan } from '@shared/plans'
import { accountQuery } from '../settings/api/get-account'
import { billingQuery } from './api/get-billing'

const POLL_MS = 1000
const POLL_LIMIT = 30

/**
 * Back from Stripe Checkout (?checkout=success|cancelled). The plan changes when Stripe's webhook
 * arrives, which can be a moment after the redirect: until then the plan is read again each second.
 */
export function useCheckoutReturn() {
  const { search, pathname, hash } = useLocation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const outcome = new URLSearchParams(search).get('checkout')
  const handled = useRef(false)
  const timer = useRef<ReturnType<typeof setInterval>>(undefined)
  useEffect(() => () => clearInterval(timer.current), [])

  useEffect(() => {
    if (!outcome || handled.current) return
    handled.current = true
    void navigate({ pathname, hash }, { replace: true })
    if (outcome !== 'success') {
      toast('Checkout cancelled', { description: 'Your plan has not changed.' })
      return
    }
    let tries = 0
    const toastId = toast.loading('Confirming your payment…')
    // Checkout is only offered without a subscription, so any paid plan means Stripe has confirmed.
    timer.current = setInterval(async () => {
      tries += 1
      const account = await queryClient.fetchQuery({ ...accountQuery, staleTime: 0 }).catch(() => null)
      const plan: Plan | undefined = account?.plan
      if (plan && plan !== 'free') {
        clearInterval(timer.current)
        await queryClient.invalidateQueries({ queryKey: billingQuery.queryKey })
        toast.success(`You're on the ${PLAN_INFO[plan].name} plan`, { id: toastId, description: 'Thanks! Your new features are ready.' })
      } else if (tries >= POLL_LIMIT) {
        clearInterval(timer.current)
        toast.info('Payment received', { id: toastId, description: 'Your plan updates as soon as Stripe confirms it. Refresh in a minute.' })
      }
    }, POLL_MS)
  }, [outcome, pathname, hash, navigate, queryClient])
}
