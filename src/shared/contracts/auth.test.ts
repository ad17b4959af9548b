import { describe, expect, it } from 'vitest'
import { firstIssueMessage, loginSchema, signupSchema } from './auth'

const first = (result: { success: boolean; error?: Parameters<typeof firstIssueMessage>[0] }) =>
  result.success ? undefined : firstIssueMessage(result.error!)

describe('loginSchema', () => {
  it('trims and lowercases the email', () => {
    expect(loginSchema.parse({ email: '  Me@Example.COM ', password: 'secret' }).email).toBe('me@example.com')
  })
  it('shows the spec messages', () => {
    expect(first(loginSchema.safeParse({ email: 'x', password: 'secret1' }))).toBe('Please enter a valid email address')
    expect(first(loginSchema.safeParse({ email: 'a@b.co', password: '12345' }))).toBe('Password must be at least 6 characters')
  })
})

describe('signupSchema', () => {
  const ok = { email: 'a@b.co', password: 'Abcdefg1', confirmPassword: 'Abcdefg1' }
  it('accepts a valid sign-up', () => {
    expect(signupSchema.safeParse(ok).success).toBe(true)
  })
  it.each([
    [{ email: 'nope' }, 'Invalid email address'],
    [{ email: `${'a'.repeat(250)}@b.com` }, 'Email too long'],
    [{ password: 'Abc1', confirmPassword: 'Abc1' }, 'Password must be at least 8 characters'],
    [{ password: `Ab1${'c'.repeat(126)}`, confirmPassword: `Ab1${'c'.repeat(126)}` }, 'Password too long'],
    [{ password: 'abcdefg1', confirmPassword: 'abcdefg1' }, 'Password must contain at least one uppercase letter'],
    [{ password: 'ABCDEFG1', confirmPassword: 'ABCDEFG1' }, 'Password must contain at least one lowercase letter'],
    [{ password: 'Abcdefgh', confirmPassword: 'Abcdefgh' }, 'Password must contain at least one number'],
    [{ confirmPassword: 'Abcdefg2' }, "Passwords don't match"],
  ])('%j → %s', (change, message) => {
    expect(first(signupSchema.safeParse({ ...ok, ...change }))).toBe(message)
  })
  it('allows exactly 128 characters and an email of 255', () => {
    const pw = `Ab1${'c'.repeat(125)}`
    expect(signupSchema.safeParse({ ...ok, password: pw, confirmPassword: pw }).success).toBe(true)
    expect(signupSchema.safeParse({ ...ok, email: `${'a'.repeat(243)}@example.com` }).success).toBe(true)
  })
})
