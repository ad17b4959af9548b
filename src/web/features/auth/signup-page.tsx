import { zodResolver } from '@hookform/resolvers/zod'
import { ArrowLeft } from 'lucide-react'
import { useForm, type FieldErrors } from 'react-hook-form'
import { Link, useNavigate } from 'react-router'
import { toast } from 'sonner'
import type { z } from 'zod'
import { signupSchema } from '@shared/contracts/auth'
import { paths } from '@shared/paths'
import { Button } from '../../components/ui/button'
import { Field } from '../../components/ui/field'
import { Input } from '../../components/ui/input'
import { authClient, authErrorMessage } from '../../lib/auth-client'
import { firstFieldError } from '../../lib/first-field-error'
import { AuthLayout } from './components/auth-layout'
import { GoogleButton } from './components/google-button'
import { OrDivider } from './components/or-divider'
import type { LoginLocationState } from './login-page'
import { signInWithGoogle } from './sign-in-with-google'

type SignupForm = z.input<typeof signupSchema>
const FIELD_ORDER = ['email', 'password', 'confirmPassword'] as const

export function SignupPage() {
  const navigate = useNavigate()
  const form = useForm<SignupForm, unknown, z.output<typeof signupSchema>>({
    resolver: zodResolver(signupSchema),
    defaultValues: { email: '', password: '', confirmPassword: '' },
  })
  const shown = firstFieldError(form.formState.errors, FIELD_ORDER)
  const isSubmitting = form.formState.isSubmitting

  const onValid = async ({ email, password }: z.output<typeof signupSchema>) => {
    const { error } = await authClient.signUp.email({
      email,
      password,
      name: email.split('@')[0] ?? email,
      callbackURL: paths.dashboard,
    })
    if (error) {
      toast.error('Signup Failed', { description: authErrorMessage(error, 'Could not create your account') })
      return
    }
    // Issue 11: the address is confirmed from the email before the first sign-in.
    toast.success('Account Created!', { description: 'Check your email and open the confirmation link to sign in.' })
    navigate(paths.login, { state: { confirmEmail: email } satisfies LoginLocationState })
  }

  const onInvalid = (errors: FieldErrors<SignupForm>) => {
    const first = firstFieldError(errors, FIELD_ORDER)
    if (first) toast.error('Validation Error', { description: first.message })
  }

  const onGoogle = async () => {
    if (!(await signInWithGoogle())) {
      toast.error('Google Signup Failed', { description: 'Please contact support if this continues.' })
    }
  }

  // One message at a time, on the first field in error (the same one the toast names).
  const errorOf = (name: (typeof FIELD_ORDER)[number]) => (shown?.field === name ? shown.message : undefined)

  return (
    <AuthLayout
      title="Create your account"
      description="Start turning emails into rows. 50 emails a month free, no credit card."
      footer={
        <div className="grid gap-3 text-center text-sm text-muted-foreground">
          <p>
            Already have an account?{' '}
            <Link to={paths.login} className="font-medium text-primary hover:underline">
              Sign in
            </Link>
          </p>
          <Link to={paths.home} className="inline-flex items-center justify-center gap-1 hover:text-primary">
            <ArrowLeft className="size-3" aria-hidden />
            Back to home
          </Link>
        </div>
      }
    >
      <form noValidate onSubmit={form.handleSubmit(onValid, onInvalid)} className="grid gap-4">
        <Field label="Email" error={errorOf('email')}>
          {(control) => <Input {...control} type="email" autoComplete="email" placeholder="you@example.com" {...form.register('email')} />}
        </Field>
        <Field label="Password" hint="8 to 128 characters, with an uppercase letter, a lowercase letter and a number." error={errorOf('password')}>
          {(control) => <Input {...control} type="password" autoComplete="new-password" {...form.register('password')} />}
        </Field>
        <Field label="Confirm password" error={errorOf('confirmPassword')}>
          {(control) => <Input {...control} type="password" autoComplete="new-password" {...form.register('confirmPassword')} />}
        </Field>
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Creating Account...' : 'Create Account'}
        </Button>
      </form>
      <OrDivider />
      <GoogleButton onClick={() => void onGoogle()}>Sign up with Google</GoogleButton>
      <p className="mt-4 text-center text-xs text-muted-foreground">
        By creating an account you agree to our{' '}
        <Link to={paths.terms} className="underline hover:text-primary">
          Terms of Service
        </Link>{' '}
        and{' '}
        <Link to={paths.privacy} className="underline hover:text-primary">
          Privacy Policy
        </Link>
        .
      </p>
    </AuthLayout>
  )
}
