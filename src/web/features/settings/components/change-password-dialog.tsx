import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { toast } from 'sonner'
import { changePasswordSchema, type ChangePasswordInput } from '@shared/contracts/auth'
import { Button } from '@web/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog'
import { Field } from '@web/components/ui/field'
import { Input } from '@web/components/ui/input'
import { errorMessage } from '../api/auth-data'
import { useChangePassword } from '../api/sessions'

export function ChangePasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        {/* Mounted only while open, so every opening starts empty. */}
        <ChangePasswordForm onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  )
}

const FIELDS: Array<{ name: keyof ChangePasswordInput; label: string; autoComplete: string }> = [
  { name: 'currentPassword', label: 'Current password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'Confirm new password', autoComplete: 'new-password' },
]

function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const changePassword = useChangePassword()
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  })

  async function submit(input: ChangePasswordInput) {
    try {
      await changePassword.mutateAsync(input)
    } catch (error) {
      toast.error('Could not change your password', { description: errorMessage(error) })
      return
    }
    toast.success('Password changed', { description: 'You were signed out everywhere else.' })
    onDone()
  }

  return (
    <form onSubmit={handleSubmit(submit)} noValidate className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>Change password</DialogTitle>
        <DialogDescription>
          At least 8 characters with an uppercase letter, a lowercase letter and a number. Every other session is signed out.
        </DialogDescription>
      </DialogHeader>
      {FIELDS.map(({ name, label, autoComplete }, index) => (
        <Field key={name} label={label} error={errors[name]?.message}>
          {(control) => <Input {...control} type="password" autoComplete={autoComplete} autoFocus={index === 0} {...register(name)} />}
        </Field>
      ))}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Changing...' : 'Change password'}
        </Button>
      </DialogFooter>
    </form>
  )
}
