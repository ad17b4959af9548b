import { zodResolver } from '@hookform/resolvers/zod'
import { Fingerprint } from 'lucide-react'
import { useState } from 'react'
import { useForm, type FieldErrors } from 'react-hook-form'
import { Link, useLocation, useNavigate } from 'react-router'
import { toast } from 'sonner'
import type { z } from 'zod'
import { loginSchema } from '@shared/contracts/auth'
import { paths } from '@shared/paths'
import { Button } from '../../components/ui/button'
import { Field } from '../../components/ui/field'
import { Input } from '../../components/ui/input'
import { authClient, authErrorMessage } from '../../lib/auth-client'
import { firstFieldError } from '../../lib/first-field-error'
import { AuthLayout } from './components/auth-layout'
import { ConfirmEmailNotice } from './components/confirm-email-notice'
import { GoogleButton } from './components/google-button'
import { OrDivider } from './components/or-divider'
import { signInWithGoogle } from './sign-in-with-google'

type LoginForm = z.input<typeof loginSchema>
const FIELD_ORDER = ['email', 'password'] as const

/** Navigation state the sign-up page leaves: the address waiting for its confirmation. */
export type LoginLocationState = { confirmEmail?: string } | null

export function LoginPage() {
  const navigate = useNavigate()
  const location = useLocation()
  const [unconfirmedEmail, setUnconfirmedEmail] = useState((location.state as LoginLocationState)?.confirmEmail ?? null)
  const [isPasskeyBusy, setPasskeyBusy] = useState(false)
  const form = useForm<LoginForm, unknown, z.output<typeof loginSchema>>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  })
  const shown = firstFieldError(form.formState.errors, FIELD_ORDER)
  const isSubmitting = form.formState.isSubmitting

  const onValid = async (values: z.output<typeof loginSchema>) => {
    const { data, error } = await authClient.signIn.email(values)
    if (error?.code === 'EMAIL_NOT_VERIFIED') {
      // The server has mailed a fresh link with this answer.
      setUnconfirmedEmail(values.email)
      toast.error('Login Failed', { description: "Confirm your email address first: we've sent you a new link." })
      return
    }
    if (error) {
      toast.error('Login Failed', { description: authErrorMessage(error, 'Invalid email or password') })
      return
    }
    if (data && 'twoFactorRedirect' in data && data.twoFactorRedirect) {
      navigate(paths.twoFactor)
      return
    }
    toast.success('Welcome back!')
    navigate(paths.dashboard, { replace: true })
  }

  const onInvalid = (errors: FieldErrors<LoginForm>) => {
    const first = firstFieldError(errors, FIELD_ORDER)
    if (first) toast.error('Validation Error', { description: first.message })
  }

  const onGoogle = async () => {
    if (!(await signInWithGoogle())) {
      toast.error('Error', { description: 'Failed to sign in with Google. Please contact support if this continues.' })
    }
  }

  const onPasskey = async () => {
    setPasskeyBusy(true)
    const result = await authClient.signIn.passkey().catch((error: unknown) => ({ error: error as { message?: string } }))
    setPasskeyBusy(false)
    if (result?.error) {
      toast.error('Login Failed', { description: authErrorMessage(result.error, 'Passkey sign-in was cancelled') })
      return
    }
    toast.success('Welcome back!')
    navigate(paths.dashboard, { replace: true })
  }

  return (
    <AuthLayout
      title="Welcome back"
      description="Sign in to your Mailrow account"
      footer={
        <p className="text-sm text-muted-foreground">
          Don&apos;t have an account?{' '}
          <Link to={paths.signup} className="font-medium text-primary hover:underline">
            Sign up
          </Link>
        </p>
      }
    >
      {unconfirmedEmail ? <ConfirmEmailNotice email={unconfirmedEmail} /> : null}
      <form noValidate onSubmit={form.handleSubmit(onValid, onInvalid)} className="grid gap-4">
        <Field label="Email" error={shown?.field === 'email' ? shown.message : undefined}>
          {(control) => <Input {...control} type="email" autoComplete="username webauthn" placeholder="you@example.com" {...form.register('email')} />}
        </Field>
        <div className="grid gap-2">
          <Field label="Password" error={shown?.field === 'password' ? shown.message : undefined}>
            {(control) => <Input {...control} type="password" autoComplete="current-password" {...form.register('password')} />}
          </Field>
          {/* After the field, so Tab goes Email → Password → this → Sign In. */}
          <Link to={paths.forgotPassword} className="justify-self-end text-xs text-muted-foreground hover:text-primary hover:underline">
            Forgot password?
          </Link>
        </div>
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Signing in...' : 'Sign In'}
        </Button>
      </form>
      <OrDivider />
      <div className="grid gap-2">
        <GoogleButton onClick={() => void onGoogle()}>Sign in with Google</GoogleButton>
        <Button type="button" variant="outline" className="w-full" disabled={isPasskeyBusy} onClick={() => void onPasskey()}>
          <Fingerprint />
          Sign in with a passkey
        </Button>
      </div>
    </AuthLayout>
  )
}
