import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import type { z } from 'zod'
import { resetPasswordSchema } from '@shared/contracts/auth'
import { paths } from '@shared/paths'
import { Button } from '../../components/ui/button'
import { Field } from '../../components/ui/field'
import { Input } from '../../components/ui/input'
import { authClient, authErrorMessage } from '../../lib/auth-client'
import { AuthLayout } from './components/auth-layout'

type ResetPasswordValues = z.infer<typeof resetPasswordSchema>

const FIELDS = ['password', 'confirmPassword'] as const

/** Landing page of the emailed reset link: Better Auth puts `token` (or `error`) in the query. */
export function ResetPasswordPage() {
  const [searchParams] = useSearchParams()
  const token = searchParams.get('token')
  const [isTokenRejected, setIsTokenRejected] = useState(false)

  if (!token || searchParams.get('error') || isTokenRejected) return <InvalidLink />
  return <ResetPasswordForm token={token} onTokenRejected={() => setIsTokenRejected(true)} />
}

function InvalidLink() {
  return (
    <AuthLayout
      title="Reset link invalid"
      footer={
        <Link to={paths.login} className="font-medium text-primary hover:underline">
          Back to sign in
        </Link>
      }
    >
      <div className="flex flex-col gap-4 text-center">
        <p role="alert">This reset link is invalid or has expired.</p>
        <Button asChild className="w-full">
          <Link to={paths.forgotPassword}>Request a new link</Link>
        </Button>
      </div>
    </AuthLayout>
  )
}

function ResetPasswordForm({ token, onTokenRejected }: { token: string; onTokenRejected: () => void }) {
  const navigate = useNavigate()
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(resetPasswordSchema), defaultValues: { password: '', confirmPassword: '' } })
  // Forms show one message at a time (spec §5): the first field that fails.
  const firstInvalid = FIELDS.find((field) => errors[field])

  async function resetPassword({ password }: ResetPasswordValues) {
    const { error } = await authClient.resetPassword({ newPassword: password, token })
    if (error) {
      if (error.code === 'INVALID_TOKEN') {
        onTokenRejected()
        return
      }
      toast.error('Could not update your password', { description: authErrorMessage(error, 'Please try again.') })
      return
    }
    toast.success('Password updated', { description: 'You can now sign in with your new password.' })
    navigate(paths.login, { replace: true })
  }

  return (
    <AuthLayout
      title="Choose a new password"
      description="At least 8 characters, with an uppercase letter, a lowercase letter and a number."
      footer={
        <Link to={paths.login} className="font-medium text-primary hover:underline">
          Back to sign in
        </Link>
      }
    >
      <form onSubmit={handleSubmit(resetPassword)} noValidate className="flex flex-col gap-4">
        <Field label="New password" error={firstInvalid === 'password' ? errors.password?.message : undefined}>
          {(control) => <Input {...control} type="password" autoComplete="new-password" autoFocus {...register('password')} />}
        </Field>
        <Field label="Confirm new password" error={firstInvalid === 'confirmPassword' ? errors.confirmPassword?.message : undefined}>
          {(control) => <Input {...control} type="password" autoComplete="new-password" {...register('confirmPassword')} />}
        </Field>
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Updating...' : 'Update password'}
        </Button>
      </form>
    </AuthLayout>
  )
}
