import { useEffect, useState } from 'react'
import { useSearchParams } from 'react-router'
import { useSession } from '../../lib/auth-client'
import type { WizardDraft } from './wizard-draft'
import { readStoredDraft, STEP_COUNT, writeStoredDraft } from './wizard-draft-storage'

function readStep(value: string | null) {
  const step = Number(value)
  return Number.isInteger(step) && step >= 1 && step <= STEP_COUNT ? step : 1
}

/**
 * The wizard's step (in the address: `?step=3`, each step a history entry so browser Back goes to
 * the previous step) and its draft (kept in sessionStorage). A step the user hasn't reached through
 * Next can't be opened by editing the address.
 */
export function useWizardState() {
  const userId = useSession().data?.user.id ?? 'anonymous'
  const [params, setParams] = useSearchParams()
  const [state, setState] = useState(() => readStoredDraft(userId))
  const step = Math.min(readStep(params.get('step')), state.reached)

  useEffect(() => writeStoredDraft(userId, state), [userId, state])

  const setStep = (next: number) => {
    const target = Math.min(STEP_COUNT, Math.max(1, next))
    setState((s) => (target > s.reached ? { ...s, reached: target } : s))
    setParams((current) => {
      const updated = new URLSearchParams(current)
      updated.set('step', String(target))
      return updated
    })
  }
  const setDraft = (update: (draft: WizardDraft) => WizardDraft) => setState((s) => ({ ...s, draft: update(s.draft) }))
  return { step, setStep, draft: state.draft, setDraft }
}
