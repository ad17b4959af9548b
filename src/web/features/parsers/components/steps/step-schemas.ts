import { z } from 'zod'
import { extractionFieldsSchema } from '@shared/contracts/extraction'
import { emailFiltersSchema } from '@shared/contracts/gmail'
import { createParserInputSchema, destinationInputSchema, planViolation } from '@shared/contracts/parsers'
import type { Plan } from '@shared/plans'
import type { WizardDraft } from '../../wizard-draft'
import { toEmailFilters } from '../../wizard-draft'

/** What a blocked Next (or Activate) says in its toast (spec §5). */
export type StepBlock = { title: string; description: string; isUpgrade?: boolean }

export const STEP_BLOCKS = {
  gmail: { title: 'Gmail not connected', description: 'Please connect your Gmail account before proceeding.' },
  permissions: { title: 'Gmail access not granted', description: 'Choose Grant access and allow every permission Mailrow asks for before proceeding.' },
  filters: { title: 'Invalid filter configuration', description: 'Please fix the errors and ensure at least one filter is set.' },
  fields: { title: 'No fields selected', description: 'Please select at least one field to extract from emails.' },
  sheets: { title: 'Google Sheets not connected', description: 'Please connect your Google Sheets account before proceeding.' },
  spreadsheet: { title: 'No spreadsheet specified', description: 'Please enter a spreadsheet ID or URL.' },
  name: { title: 'Parser name required', description: 'Please enter a name for your parser.' },
} as const satisfies Record<string, StepBlock>

/** Step 1 → 2. */
export const connectStepSchema = z.object({ isGmailConnected: z.literal(true) })
/** Step 2 → 3: the server's own filter rules and messages. */
export const filtersStepSchema = emailFiltersSchema
/** Step 3 → 4. */
export const trainStepSchema = z.object({ fields: extractionFieldsSchema })
/** Step 4 → 5 (an existing spreadsheet is also checked with Google before moving on). */
export const destinationStepSchema = z.object({ isSheetsConnected: z.literal(true), destination: destinationInputSchema })
/** Activation. */
export const reviewStepSchema = z.object({ name: createParserInputSchema.in.shape.name })

export type StepFacts = {
  draft: WizardDraft
  isGmailConnected: boolean
  /** Google's consent was given only in part (a permission left unticked): connected, but unusable. */
  hasMissingPermissions?: boolean
  isSheetsConnected: boolean
  plan: Plan
}

/** Inline messages of step 2, by field; `filters` is the form-level 'at least one filter' message. */
export function filterErrors(filters: WizardDraft['filters']): { filterFrom?: string; filters?: string } {
  const result = filtersStepSchema.safeParse(toEmailFilters(filters))
  if (result.success) return {}
  const errors: { filterFrom?: string; filters?: string } = {}
  for (const issue of result.error.issues) {
    if (issue.path[0] === 'filterFrom') errors.filterFrom ??= issue.message
    else if (issue.path.length === 0) errors.filters ??= issue.message
  }
  return errors
}

/** Why Next (or, on step 5, Activate) can't go on from `step`; null when it can. */
export function stepBlock(step: number, { draft, isGmailConnected, hasMissingPermissions = false, isSheetsConnected, plan }: StepFacts): StepBlock | null {
  switch (step) {
    case 1:
      if (!connectStepSchema.safeParse({ isGmailConnected }).success) return STEP_BLOCKS.gmail
      return hasMissingPermissions ? STEP_BLOCKS.permissions : null
    case 2:
      return filtersStepSchema.safeParse(toEmailFilters(draft.filters)).success ? null : STEP_BLOCKS.filters
    case 3: {
      const result = trainStepSchema.safeParse({ fields: draft.fields })
      if (result.success) return null
      return draft.fields.length === 0 ? STEP_BLOCKS.fields : { title: 'Invalid fields', description: result.error.issues[0]?.message ?? '' }
    }
    case 4: {
      const destination = draft.destination.type === 'new' ? { type: 'new' } : { type: 'existing', spreadsheet: draft.destination.spreadsheet }
      const result = destinationStepSchema.safeParse({ isSheetsConnected, destination })
      if (result.success) return null
      return result.error.issues[0]?.path[0] === 'isSheetsConnected' ? STEP_BLOCKS.sheets : STEP_BLOCKS.spreadsheet
    }
    case 5: {
      if (!reviewStepSchema.safeParse({ name: draft.name }).success) return STEP_BLOCKS.name
      const violation = planViolation(plan, { parserType: draft.parserType, parseHistorical: draft.parseHistorical })
      return violation ? { title: 'Upgrade required', description: violation, isUpgrade: true } : null
    }
    default:
      return null
  }
}
