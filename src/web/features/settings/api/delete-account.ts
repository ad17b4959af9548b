import { useMutation } from '@tanstack/react-query'
import type { z } from 'zod'
import type { deleteAccountInputSchema } from '@shared/contracts/account'
import { api, unwrap } from '@web/lib/api-client'

/** Erases the account and all its data (GDPR); the caller signs the browser out afterwards. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: async (input: z.input<typeof deleteAccountInputSchema>) => {
      const response = await api.account.delete.$post({ json: input })
      if (!response.ok) await unwrap(Promise.resolve(response))
    },
  })
}
