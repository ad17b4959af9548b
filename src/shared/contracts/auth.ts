import { z } from 'zod'

/**
 * Sign-in form (spec §5): email trimmed and lowercased before sending, password at least 6.
 * The server validates the same schema, so it rejects exactly what the form would.
 */
export const loginSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: 'Please enter a valid email address' })),
  password: z.string().min(6, { error: 'Password must be at least 6 characters' }),
})
export type LoginInput = z.infer<typeof loginSchema>

/** The credentials part of sign-up (spec §5), shared by the form and the server. */
export const signupCredentialsSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: 'Invalid email address' }).max(255, { error: 'Email too long' })),
  password: z
    .string()
    .min(8, { error: 'Password must be at least 8 characters' })
    .max(128, { error: 'Password too long' })
    .regex(/[A-Z]/, { error: 'Password must contain at least one uppercase letter' })
    .regex(/[a-z]/, { error: 'Password must contain at least one lowercase letter' })
    .regex(/[0-9]/, { error: 'Password must contain at least one number' }),
})

/** Sign-up form: credentials plus the confirmation, which never leaves the browser. */
export const signupSchema = signupCredentialsSchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    error: "Passwords don't match",
    path: ['confirmPassword'],
  })
export type SignupInput = z.infer<typeof signupSchema>

/** Forgotten-password request. */
export const forgotPasswordSchema = z.object({
  email: loginSchema.shape.email,
})

/** New password chosen from a reset link: the sign-up password rules apply. */
export const resetPasswordSchema = z
  .object({
    password: signupCredentialsSchema.shape.password,
    confirmPassword: z.string(),
  })
  .refine((v) => v.password === v.confirmPassword, {
    error: "Passwords don't match",
    path: ['confirmPassword'],
  })

/** Changing the password in Settings: the current one, then a new one under the sign-up rules. */
export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, { error: 'Enter your current password' }),
    newPassword: signupCredentialsSchema.shape.password,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    error: "Passwords don't match",
    path: ['confirmPassword'],
  })
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>

/** A six-digit authenticator code, or a backup code. */
export const totpCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, { error: 'Enter the 6-digit code from your authenticator app' }),
})

/** The first message of a failed parse: forms show only one (spec §5). */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid input'
}
