import { z } from 'zod'

const optionalFilter = z
  .string()
  .trim()
  .max(500)
  .nullish()
  .transform((v) => (v ? v : null))

/** Wizard step 2 (spec §5). The user comes from the session, never from this body. */
export const emailFiltersSchema = z
  .object({
    filterFrom: optionalFilter.refine((v) => v === null || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), {
      error: 'Please enter a valid email address',
    }),
    filterSubject: optionalFilter,
    filterLabel: optionalFilter,
  })
  .refine((f) => f.filterFrom || f.filterSubject || f.filterLabel, {
    error: 'Please set at least one filter (From, Subject, or Label)',
  })
export type EmailFilters = z.infer<typeof emailFiltersSchema>

/** An email as the wizard shows it (spec §3 'Fetched email'); bodyHtml is sanitised. */
export type FetchedEmail = {
  id: string
  subject: string
  from: string
  date: string
  body: string
  bodyHtml: string | null
}

/** How many matching emails the wizard lists. */
export const MATCHING_EMAILS_LIMIT = 20

export type GmailConnectionStatus = {
  connected: boolean
  accountEmail: string | null
  needsReconnect: boolean
  reason: string | null
  missingScopes: string[]
  lastRefreshedAt: string | null
}
