import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ChangePasswordInput } from '@shared/contracts/auth'
import { api, unwrap } from '@web/lib/api-client'
import { authClient } from '@web/lib/auth-client'
import { authData } from './auth-data'

export const sessionsQuery = queryOptions({
  queryKey: ['sessions'],
  queryFn: async () => (await unwrap(api.sessions.$get())).sessions,
})

export function useSessions() {
  return useQuery(sessionsQuery)
}

async function expectNoContent(response: Promise<Response>) {
  const answer = await response
  if (!answer.ok) await unwrap(Promise.resolve(answer))
}

export function useRevokeSession() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => expectNoContent(api.sessions[':id'].$delete({ param: { id } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey }),
  })
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => expectNoContent(api.sessions['revoke-others'].$post()),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey }),
  })
}

/** Every session ends, this browser's too; the caller signs the browser out afterwards. */
export function useRevokeAllSessions() {
  return useMutation({ mutationFn: () => expectNoContent(api.sessions['revoke-all'].$post()) })
}

/** The server ends every other session on a password change. */
export function useChangePassword() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ currentPassword, newPassword }: ChangePasswordInput) =>
      authData(authClient.changePassword({ currentPassword, newPassword, revokeOtherSessions: true }), 'Could not change your password'),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey })
      await queryClient.invalidateQueries({ queryKey: ['security-log'] })
    },
  })
}
