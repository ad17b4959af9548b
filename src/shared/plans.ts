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
  },
}

/** Reads a stored plan value; anything unexpected is free (spec §3). */
export function toPlan(value: unknown): Plan {
  return PLANS.includes(value as Plan) ? (value as Plan) : 'free'
}

export function formatEmailsPerMonth(n: number): string {
  return n.toLocaleString('en-US')
}
