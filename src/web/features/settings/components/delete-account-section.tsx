import { zodResolver } from '@hookform/resolvers/zod'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { z } from 'zod'
import type { AccountView } from '@shared/contracts/account'
import { paths } from '@shared/paths'
import { Button } from '@web/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog'
import { Field } from '@web/components/ui/field'
import { Input } from '@web/components/ui/input'
import { authClient } from '@web/lib/auth-client'
import { useDeleteAccount } from '../api/delete-account'
import { SettingsSection } from './settings-section'
import { useReturnFocus } from '@web/components/ui/use-return-focus'

/** GDPR erasure: the account and everything in it, after the password (or the email typed again). */
export function DeleteAccountSection({ account }: { account: AccountView }) {
  const returnFocus = useReturnFocus()
  const [open, setOpen] = useState(false)
  return (
    <SettingsSection id="delete-account" title="Delete account" description="Permanently erase your Mailrow account and its data.">
      <div className="flex flex-col gap-4 rounded-lg border border-destructive/40 bg-destructive/5 p-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm">
          Deletes your parsers, parsed-email history, sessions and Google connection. Spreadsheets stay in your Google Drive. This can't be
          undone.
        </p>
        <Button variant="destructive" className="sm:shrink-0" onClick={() => setOpen(true)}>
          Delete account
        </Button>
      </div>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent role="alertdialog" className="w-[calc(100%-1rem)]" {...returnFocus}>
          {/* Mounted only while open, so every opening starts empty. */}
          <DeleteAccountForm account={account} onCancel={() => setOpen(false)} />
        </DialogContent>
      </Dialog>
    </SettingsSection>
  )
}

function DeleteAccountForm({ account, onCancel }: { account: AccountView; onCancel: () => void }) {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const deleteAccount = useDeleteAccount()
  const usesPassword = account.hasPassword
  const schema = usesPassword
    ? z.object({ secret: z.string().min(1, { error: 'Enter your password' }) })
    : z.object({
        secret: z
          .string()
          .trim()
          .refine((value) => value.toLowerCase() === account.email.toLowerCase(), { error: "That isn't your account's email address" }),
      })
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors },
  } = useForm({ resolver: zodResolver(schema), defaultValues: { secret: '' } })
  const secret = useWatch({ control, name: 'secret' })

  const onSubmit = handleSubmit(({ secret }) =>
    deleteAccount.mutate(usesPassword ? { password: secret } : { confirmEmail: secret }, {
      onSuccess: () => {
        queryClient.clear()
        // The session was deleted with the account; tell the session hook to look again.
        authClient.$store.notify('$sessionSignal')
        toast.success('Account deleted', { description: 'Your account and all its data were erased.' })
        navigate(paths.home, { replace: true })
      },
      onError: (error) => setError('secret', { message: error.message || 'Could not delete your account. Please try again.' }),
    }),
  )

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
      <DialogHeader className="pr-6">
        <DialogTitle>Delete your account?</DialogTitle>
        <DialogDescription>
          Your parsers, parsed-email history and Google connection are erased for good. Rows already written stay in your spreadsheets.
        </DialogDescription>
      </DialogHeader>
      <Field
        label={usesPassword ? 'Password' : 'Type your email address to confirm'}
        hint={
          usesPassword ? undefined : (
            <>
              Type <span className="font-medium break-all text-foreground">{account.email}</span>
            </>
          )
        }
        error={errors.secret?.message}
      >
        {(control) => (
          <Input {...control} type={usesPassword ? 'password' : 'email'} autoComplete={usesPassword ? 'current-password' : 'off'} {...register('secret')} />
        )}
      </Field>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel} disabled={deleteAccount.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="destructive" disabled={deleteAccount.isPending || secret.trim() === ''}>
          {deleteAccount.isPending ? 'Deleting...' : 'Delete account'}
        </Button>
      </DialogFooter>
    </form>
  )
}
