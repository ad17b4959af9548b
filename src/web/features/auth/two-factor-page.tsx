import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { z } from 'zod'
import { totpCodeSchema } from '@shared/contracts/auth'
import { paths } from '@shared/paths'
import { Button } from '../../components/ui/button'
import { Field } from '../../components/ui/field'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { authClient, authErrorMessage, useSession } from '../../lib/auth-client'
import { AuthLayout } from './components/auth-layout'

type Mode = 'totp' | 'backup'

const totpFormSchema = totpCodeSchema.extend({ trustDevice: z.boolean() })
const backupFormSchema = z.object({
  code: z.string().trim().min(1, { error: 'Enter one of your backup codes' }),
  trustDevice: z.boolean(),
})
type CodeFormValues = z.infer<typeof totpFormSchema>

const DESCRIPTIONS: Record<Mode, string> = {
  totp: 'Enter the 6-digit code from your authenticator app.',
  backup: 'Enter one of the backup codes you saved when you turned on two-factor authentication.',
}

/** Second sign-in step for accounts with 2FA, reached after the password was accepted. */
export function TwoFactorPage() {
  const navigate = useNavigate()
  const { refetch: refetchSession } = useSession()
  const [mode, setMode] = useState<Mode>('totp')
  const [signInGoneMessage, setSignInGoneMessage] = useState<string | null>(null)

  async function verify({ code, trustDevice }: CodeFormValues) {
    const { error } =
      mode === 'totp'
        ? await authClient.twoFactor.verifyTotp({ code, trustDevice })
        : await authClient.twoFactor.verifyBackupCode({ code: normaliseBackupCode(code), trustDevice })
    if (error) {
      const message = authErrorMessage(error, 'Invalid code')
      toast.error('Verification failed', { description: message })
      // These two mean the pending sign-in is gone (cookie expired, or too many tries): another
      // code cannot help, only signing in again.
      if (error.code === 'INVALID_TWO_FACTOR_COOKIE') setSignInGoneMessage('This sign-in attempt has expired.')
      else if (error.code === 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE') setSignInGoneMessage(message)
      return
    }
    // The protected route reads the session atom; load it before going there so it does not
    // bounce the new session back to /login.
    await refetchSession()
    toast.success('Welcome back!')
    navigate(paths.dashboard, { replace: true })
  }

  if (signInGoneMessage) {
    return (
      <AuthLayout title="Two-factor authentication">
        <div className="flex flex-col gap-4">
          <div role="alert" className="rounded-md border border-destructive/30 bg-destructive/10 p-3 text-sm">
            <p className="font-medium text-destructive">{signInGoneMessage}</p>
            <p className="mt-1 text-muted-foreground">Sign in again with your email and password, then enter a new code.</p>
          </div>
          <Button asChild className="w-full">
            <Link to={paths.login} replace>
              Back to sign in
            </Link>
          </Button>
        </div>
      </AuthLayout>
    )
  }

  return (
    <AuthLayout
      title="Two-factor authentication"
      description={DESCRIPTIONS[mode]}
      footer={
        <Link to={paths.login} className="font-medium text-primary hover:underline">
          Back to sign in
        </Link>
      }
    >
      <CodeForm key={mode} mode={mode} onVerify={verify} />
      <Button
        type="button"
        variant="link"
        className="mt-2 w-full"
        onClick={() => setMode(mode === 'totp' ? 'backup' : 'totp')}
      >
        {mode === 'totp' ? 'Use a backup code instead' : 'Use your authenticator app instead'}
      </Button>
    </AuthLayout>
  )
}

function CodeForm({ mode, onVerify }: { mode: Mode; onVerify: (values: CodeFormValues) => Promise<void> }) {
  const isTotp = mode === 'totp'
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(isTotp ? totpFormSchema : backupFormSchema),
    defaultValues: { code: '', trustDevice: false },
  })

  return (
    <form onSubmit={handleSubmit(onVerify)} noValidate className="flex flex-col gap-4">
      <Field label={isTotp ? 'Verification code' : 'Backup code'} error={errors.code?.message}>
        {(control) => (
          <Input
            {...control}
            autoFocus
            autoComplete={isTotp ? 'one-time-code' : 'off'}
            inputMode={isTotp ? 'numeric' : 'text'}
            placeholder={isTotp ? '123456' : 'xxxxx-xxxxx'}
            className="font-mono tracking-widest"
            {...register('code')}
          />
        )}
      </Field>
      <div className="flex items-center gap-2">
        <input
          id="trust-device"
          type="checkbox"
          className="size-4 rounded border-input accent-primary"
          {...register('trustDevice')}
        />
        <Label htmlFor="trust-device" className="font-normal">
          Trust this device for 30 days
        </Label>
      </div>
      <Button type="submit" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? 'Verifying...' : 'Verify'}
      </Button>
    </form>
  )
}

/**
 * Backup codes are upper case from an alphabet without look-alikes, so `k7rta-x4mwp` typed in lower
 * case is meant as `K7RTA-X4MWP`. Older codes (mixed case, any letter) are sent as typed.
 */
function normaliseBackupCode(code: string): string {
  const upper = code.trim().toUpperCase()
  return /^[347ACEFHJKMNPRTWXY]{5}-?[347ACEFHJKMNPRTWXY]{5}$/.test(upper) ? `${upper.replace('-', '').slice(0, 5)}-${upper.replace('-', '').slice(5)}` : code
}
