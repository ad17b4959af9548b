import { zodResolver } from '@hookform/resolvers/zod'
import { MailCheck } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { forgotPasswordSchema } from '@shared/contracts/auth'
import { paths } from '@shared/paths'
import { Button } from '../../components/ui/button'
import { Field } from '../../components/ui/field'
import { Input } from '../../components/ui/input'
import { authClient, authErrorMessage } from '../../lib/auth-client'
import { usePublicConfig } from '../config/use-public-config'
import { AuthLayout } from './components/auth-layout'

const backToSignIn = (
  <Link to={paths.login} className="font-medium text-primary hover:underline">
    Back to sign in
  </Link>
)

export function ForgotPasswordPage() {
  const [isSent, setIsSent] = useState(false)
  const { data: config } = usePublicConfig()
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } })

  async function sendResetLink({ email }: { email: string }) {
    const { error } = await authClient.requestPasswordReset({
      email,
      redirectTo: `${window.location.origin}${paths.resetPassword}`,
    })
    // The server answers alike for known and unknown addresses, so an error here is about the
    // request itself (rate limit, network) and reveals nothing about accounts.
    if (error) {
      toast.error('Could not send the reset link', { description: authErrorMessage(error, 'Please try again in a moment.') })
      return
    }
    setIsSent(true)
  }

  if (isSent) {
    return (
      <AuthLayout title="Check your email" footer={backToSignIn}>
        <div className="flex flex-col items-center gap-4 text-center">
          <MailCheck className="size-10 text-primary" aria-hidden />
          <p role="status">If an account exists for that email, we've sent a link to reset your password.</p>
          <p className="text-sm text-muted-foreground">The link works for one hour. Check your spam folder if it doesn't arrive.</p>
          {config?.devOutbox ? (
            <Link to={paths.devOutbox} className="text-sm font-medium text-primary hover:underline">
              Open the development outbox
            </Link>
          ) : null}
        </div>
      </AuthLayout>
    )
  }

  if (config && !config.canSendMail) {
    return (
      <AuthLayout title="Forgot your password?" footer={backToSignIn}>
        <p role="alert" className="text-sm">
          This Mailrow server cannot send email, so it cannot send you a reset link. Ask the person who runs it to set up
          outgoing mail (SMTP), or sign in with Google if your account uses it.
        </p>
      </AuthLayout>
    )
  }

  return (
    <AuthLayout
      title="Forgot your password?"
      description="Enter the email you signed up with and we'll send you a link to choose a new password."
      footer={backToSignIn}
    >
      <form onSubmit={handleSubmit(sendResetLink)} noValidate className="flex flex-col gap-4">
        <Field label="Email" error={errors.email?.message}>
          {(control) => <Input {...control} type="email" autoComplete="email" autoFocus placeholder="you@example.com" {...register('email')} />}
        </Field>
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Sending...' : 'Send reset link'}
        </Button>
      </form>
    </AuthLayout>
  )
}
