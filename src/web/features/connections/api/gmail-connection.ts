import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@web/lib/api-client'

export const gmailConnectionQuery = queryOptions({
  queryKey: ['connections', 'gmail'],
  queryFn: async () => (await unwrap(api.connections.gmail.$get())).connection,
})

export function useGmailConnection() {
  return useQuery(gmailConnectionQuery)
}

/**
 * Starts the Google consent flow; the browser leaves the page on success and comes back to
 * `returnTo` (the wizard by default), which confirms with useGmailCallback.
 */
export function useStartGmailConnection(returnTo?: 'wizard' | 'settings' | 'dashboard') {
  return useMutation({
    mutationFn: async () => {
      const { authorizationUrl } = await unwrap(api.connections.gmail.start.$post({ query: returnTo ? { returnTo } : {} }))
      window.location.assign(authorizationUrl)
      // Keep the button busy while the browser navigates away.
      await new Promise(() => {})
    },
  })
}

export function useDisconnectGmail() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async () => {
      const response = await api.connections.gmail.$delete()
      if (!response.ok) await unwrap(Promise.resolve(response))
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: gmailConnectionQuery.queryKey }),
  })
}
