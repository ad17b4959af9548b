import { INITIAL_DRAFT, type WizardDraft } from './wizard-draft'

/** The wizard's step count (spec §2). */
export const STEP_COUNT = 5
const KEY_PREFIX = 'mailrow:wizard-draft:'

type Stored = { version: 1; draft: WizardDraft; reached: number }

/**
 * The draft lives in this tab's sessionStorage (docs/decisions/023): it survives a refresh, browser
 * Back and the trip to Google's consent page, and goes when the tab closes. It holds text from the
 * user's emails, so it is kept per user and never outlives the tab.
 */
function storageKey(userId: string) {
  return `${KEY_PREFIX}${userId}`
}

export function readStoredDraft(userId: string): { draft: WizardDraft; reached: number } {
  try {
    const stored = JSON.parse(sessionStorage.getItem(storageKey(userId)) ?? 'null') as Partial<Stored> | null
    if (stored?.version !== 1 || typeof stored.draft !== 'object' || stored.draft === null) return { draft: INITIAL_DRAFT, reached: 1 }
    const draft = { ...INITIAL_DRAFT, ...stored.draft }
    if (!Array.isArray(draft.fields)) return { draft: INITIAL_DRAFT, reached: 1 }
    const reached = Number.isInteger(stored.reached) ? Math.min(STEP_COUNT, Math.max(1, stored.reached!)) : 1
    return { draft, reached }
  } catch {
    // Storage blocked or the value unreadable: a fresh draft.
    return { draft: INITIAL_DRAFT, reached: 1 }
  }
}

export function writeStoredDraft(userId: string, value: { draft: WizardDraft; reached: number }) {
  try {
    sessionStorage.setItem(storageKey(userId), JSON.stringify({ version: 1, ...value } satisfies Stored))
  } catch {
    // Full or blocked storage: the wizard still works, it just won't survive a refresh.
  }
}

/** Forgets every wizard draft kept in this tab (after activation, Cancel, or signing out). */
export function clearWizardDrafts() {
  try {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith(KEY_PREFIX)) sessionStorage.removeItem(key)
  } catch {
    // nothing kept
  }
}
