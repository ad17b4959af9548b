import { PLAN_INFO, type ParserType, type Plan } from '@shared/plans'
import type { DraftPatch } from './wizard-draft'

export type ParserTypeInfo = {
  id: ParserType
  name: string
  badge: string
  description: string
  cost: string
}

/** The three parser cards (spec §1, §2 step 3). */
export const PARSER_TYPE_INFO: Record<ParserType, ParserTypeInfo> = {
  template: {
    id: 'template',
    name: 'Template Parser',
    badge: 'FREE',
    description: 'Pattern matching on the values you highlight. Best for emails that always look the same.',
    cost: 'No AI cost',
  },
  smart_ai: {
    id: 'smart_ai',
    name: 'Smart AI Parser',
    badge: 'STARTER',
    description: 'AI fills in what patterns miss, for semi-structured emails whose layout varies.',
    cost: '~$0.002 per email',
  },
  full_ai: {
    id: 'full_ai',
    name: 'Full AI Parser',
    badge: 'PRO',
    description: 'Handles any format and can read PDF attachments.',
    cost: '~$0.01 per email',
  },
}

/** Spec §6: what a click on a locked card says. */
export const LOCKED_TYPE_MESSAGES = {
  smart_ai: `Smart AI Parser requires Starter plan ($${PLAN_INFO.starter.priceMonthly}/month)`,
  full_ai: `Full AI Parser with PDF support requires Pro plan ($${PLAN_INFO.pro.priceMonthly}/month)`,
} as const

export function isParserTypeAvailable(plan: Plan, type: ParserType): boolean {
  return PLAN_INFO[plan].parserTypes.includes(type)
}

/**
 * Choosing a card (spec §4): template always, smart_ai on starter and pro, full_ai only on pro.
 * Template and smart_ai clear the PDF switch.
 */
export function chooseParserType(plan: Plan, type: ParserType): { patch: DraftPatch } | { locked: string } {
  if (type !== 'template' && !isParserTypeAvailable(plan, type)) return { locked: LOCKED_TYPE_MESSAGES[type] }
  return { patch: type === 'full_ai' ? { parserType: type } : { parserType: type, parseAttachments: false } }
}
