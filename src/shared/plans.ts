/** Plans and their limits (spec §6, §9). Any unknown plan value is treated as free. */
export const PLANS = ['free', 'starter', 'pro'] as const
export type Plan = (typeof PLANS)[number]

export type PlanInfo = {
  id: Plan
  name: string
  priceMonthly: number
  emailsPerMonth: number
  features: string[]
  badge?: string
  historicalEmails: number
  parserTypes: ParserType[]
  /** Signed webhooks (issue 13). */
  webhooks: boolean
  /** Mailbox passes take reserved worker slots and go first when the queue is busy (docs/decisions/020). */
  priorityProcessing: boolean
}

export const PARSER_TYPES = ['template', 'smart_ai', 'full_ai'] as const
export type ParserType = (typeof PARSER_TYPES)[number]

export const PLAN_INFO: Record<Plan, PlanInfo> = {
  free: {
    id: 'free',
    name: 'Free',
    priceMonthly: 0,
    emailsPerMonth: 50,
    features: ['Gmail integration', 'Basic AI extraction', 'Google Sheets export', 'Email support'],
    historicalEmails: 0,
    parserTypes: ['template'],
    webhooks: false,
    priorityProcessing: false,
  },
  starter: {
    id: 'starter',
    name: 'Starter',
    priceMonthly: 29,
    emailsPerMonth: 500,
    features: ['Everything in Free', 'Priority support', 'Advanced filters', 'Custom fields'],
    badge: 'Most Popular',
    historicalEmails: 100,
    parserTypes: ['template', 'smart_ai'],
    webhooks: false,
    priorityProcessing: false,
  },
  pro: {
    id: 'pro',
    name: 'Pro',
    priceMonthly: 79,
    emailsPerMonth: 5000,
    features: [
      'Everything in Starter',
      'API access',
      'Webhooks',
      'Priority processing',
      'Dedicated support',
    ],
    historicalEmails: 100,
    parserTypes: ['template', 'smart_ai', 'full_ai'],
    webhooks: true,
    priorityProcessing: true,
  },
}

/** Plans whose mailbox passes go first (the scheduler's claim compares the stored value). */
export const PRIORITY_PLANS = PLANS.filter((plan) => PLAN_INFO[plan].priorityProcessing)

/** Reads a stored plan value; anything unexpected is free (spec §3). */
export function toPlan(value: unknown): Plan {
  return PLANS.includes(value as Plan) ? (value as Plan) : 'free'
}

export function formatEmailsPerMonth(n: number): string {
  return n.toLocaleString('en-US')
}

/** Plans that are paid for (bought through Checkout when billing is on). */
export const PAID_PLANS = ['starter', 'pro'] as const satisfies readonly Plan[]
export type PaidPlan = (typeof PAID_PLANS)[number]

/** Days a paid plan is kept after a renewal payment fails, while Stripe retries the card. */
export const GRACE_PERIOD_DAYS = 7

export function planAllowsParserType(plan: Plan, type: ParserType): boolean {
  return PLAN_INFO[plan].parserTypes.includes(type)
}

const PAUSE_REASONS: Record<ParserType, string> = {
  template: '',
  smart_ai: 'Paused: Smart AI Parser requires Starter plan. It resumes when you upgrade.',
  full_ai: 'Paused: Full AI Parser requires Pro plan. It resumes when you upgrade.',
}

/**
 * Why a parser is paused by the plan: after a downgrade, a parser of a type the plan no longer
 * allows is kept (with its rows) but takes no new mail until the plan allows it again.
 */
export function planPauseReason(plan: Plan, type: ParserType): string | null {
  return planAllowsParserType(plan, type) ? null : PAUSE_REASONS[type]
}
