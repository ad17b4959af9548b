import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { toast } from 'sonner'
import { z } from 'zod'
import { Button } from '@web/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog'
import { Field } from '@web/components/ui/field'
import { Input } from '@web/components/ui/input'
import { useAddPasskey } from '../api/add-passkey'
import { errorMessage } from '../api/auth-data'

const passkeyNameSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: 'Give the passkey a name' })
    .max(64, { error: 'Name too long' }),
})

type AddPasskeyDialogProps = { open: boolean; onOpenChange: (open: boolean) => void }

export function AddPasskeyDialog({ open, onOpenChange }: AddPasskeyDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <AddPasskeyForm onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  )
}

function AddPasskeyForm({ onDone }: { onDone: () => void }) {
  const addPasskey = useAddPasskey()
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(passkeyNameSchema), defaultValues: { name: '' } })

  async function add({ name }: { name: string }) {
    try {
      await addPasskey.mutateAsync({ name })
    } catch (error) {
      toast.error('Could not add passkey', { description: errorMessage(error) })
      return
    }
    toast.success('Passkey added', { description: 'You can now sign in with it instead of your password.' })
    onDone()
  }

  return (
    <form onSubmit={handleSubmit(add)} noValidate className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>Add a passkey</DialogTitle>
        <DialogDescription>
          Name it after the device or password manager that keeps it. Your browser will then ask you to confirm.
        </DialogDescription>
      </DialogHeader>
      <Field label="Passkey name" error={errors.name?.message}>
        {(control) => <Input {...control} autoFocus autoComplete="off" placeholder="e.g. MacBook Touch ID" {...register('name')} />}
      </Field>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={isSubmitting}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Waiting for your device...' : 'Add passkey'}
        </Button>
      </DialogFooter>
    </form>
  )
}
