import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useNavigate, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { gmailConnectionQuery } from './api/gmail-connection'

/**
 * Back from Google's consent page (?step=gmail-callback) on the page the connection started from:
 * report, refresh the connection, and clean the address (to `cleanPath`).
 */
export function useGmailCallback(cleanPath: string, successDescription = 'You can now proceed to the next step.') {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const isCallback = params.get('step') === 'gmail-callback'
  const error = params.get('error')
  const missing = params.get('missing')
  useEffect(() => {
    if (!isCallback) return
    if (error) toast.error('Error connecting Gmail', { description: error })
    else if (missing) toast.warning('Gmail connected with missing permissions', { description: 'Reconnect and allow every permission Mailrow asks for.' })
    else toast.success('Gmail connected successfully!', { description: successDescription })
    void queryClient.invalidateQueries({ queryKey: gmailConnectionQuery.queryKey })
    navigate(cleanPath, { replace: true })
  }, [isCallback, error, missing, navigate, queryClient, cleanPath, successDescription])
}
