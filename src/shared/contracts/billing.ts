import { z } from 'zod'
import { PAID_PLANS, type Plan } from '../plans'
import type { UsageView } from './account'

/** 'Upgrade Now' and the plan cards: which paid plan, and the page to come back to afterwards. */
export const checkoutInputSchema = z.object({
  plan: z.enum(PAID_PLANS, { error: 'Choose the Starter or Pro plan' }),
  /** A path of the app (e.g. /parsers/new); anything else returns to /settings. */
  returnTo: z.string().max(200).optional(),
})
export type CheckoutInput = z.infer<typeof checkoutInputSchema>

/** Which part of the Billing Portal to open: its home page, the cancel step or the plan switcher. */
export const portalInputSchema = z.object({ flow: z.enum(['cancel', 'change']).optional() })
export type PortalInput = z.infer<typeof portalInputSchema>

/** One invoice, with Stripe's hosted page and PDF. */
export type InvoiceView = {
  id: string
  number: string | null
  date: string
  amount: number
  currency: string
  status: string
  url: string | null
  pdfUrl: string | null
}

/** Settings → Plan & billing. `enabled` is false when the operator sets plans (no Stripe). */
export type BillingView = {
  enabled: boolean
  plan: Plan
  subscription: {
    plan: Plan
    status: string
    cancelAtPeriodEnd: boolean
    /** The renewal date, or the end date when canceled at period end. */
    currentPeriodEnd: string | null
  } | null
  /** A renewal failed: the plan is kept until graceEndsAt while the card is retried. */
  paymentIssue: { failedAt: string; graceEndsAt: string } | null
  invoices: InvoiceView[]
  usage: UsageView
}

/** Settings' note when billing is off (self-hosted without Stripe). */
export const PLAN_SET_BY_ADMIN = 'Your plan is set by the administrator'
