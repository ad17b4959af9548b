import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { paths } from '@shared/paths'
import { authClient, authErrorMessage, signOutState } from '../../lib/auth-client'
import { clearWizardDrafts } from '../parsers/wizard-draft-storage'

/** Sign-out with the spec's toasts (§2 dashboard): success goes home, failure stays put. */
export function useSignOut() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  return async function signOut() {
    signOutState.inProgress = true
    try {
      const { error } = await authClient.signOut()
      if (error) throw error
    } catch (error) {
      signOutState.inProgress = false
      toast.error('Error', { description: authErrorMessage(error as { message?: string }, 'Failed to log out') })
      return
    }
    queryClient.clear()
    clearWizardDrafts()
    toast.success('Logged out successfully', { description: 'See you next time!' })
    navigate(paths.home)
    // The navigation home is a transition; keep protected pages quiet until it has committed.
    setTimeout(() => {
      signOutState.inProgress = false
    }, 1000)
  }
}
