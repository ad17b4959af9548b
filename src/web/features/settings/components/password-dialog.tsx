import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
import { Button } from '@web/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog'
import { Field } from '@web/components/ui/field'
import { Input } from '@web/components/ui/input'

const currentPasswordSchema = z.object({
  password: z.string().min(1, { error: 'Enter your current password' }),
})

type PasswordDialogProps = {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  description: string
  submitLabel: string
  isDestructive?: boolean
  /** Runs the action; the caller closes the dialog on success and reports failures. */
  onSubmit: (password: string) => Promise<void>
}

/** Asks for the current password before a security change (Better Auth checks it again). */
export function PasswordDialog({ open, onOpenChange, ...formProps }: PasswordDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        {/* Mounted only while open, so every opening starts with an empty field. */}
        <PasswordForm {...formProps} onCancel={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  )
}

type PasswordFormProps = Omit<PasswordDialogProps, 'open' | 'onOpenChange'> & { onCancel: () => void }

function PasswordForm({ title, description, submitLabel, isDestructive, onSubmit, onCancel }: PasswordFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(currentPasswordSchema), defaultValues: { password: '' } })

  return (
    <form onSubmit={handleSubmit(({ password }) => onSubmit(password))} noValidate className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      <Field label="Current password" error={errors.password?.message}>
        {(control) => <Input {...control} type="password" autoComplete="current-password" autoFocus {...register('password')} />}
      </Field>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant={isDestructive ? 'destructive' : 'default'} disabled={isSubmitting}>
          {isSubmitting ? 'Checking...' : submitLabel}
        </Button>
      </DialogFooter>
    </form>
  )
}
