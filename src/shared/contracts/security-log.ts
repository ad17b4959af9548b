/** What the security log records (Settings shows each with a sentence). */
export type SecurityEventType =
  | 'sign_in'
  | 'sign_in_failed'
  | 'two_factor_enabled'
  | 'two_factor_disabled'
  | 'password_changed'
  | 'password_reset'
  | 'gmail_connected'
  | 'gmail_disconnected'

export const SECURITY_EVENT_LABELS: Record<SecurityEventType, string> = {
  sign_in: 'Signed in',
  sign_in_failed: 'Failed sign-in',
  two_factor_enabled: 'Two-factor authentication turned on',
  two_factor_disabled: 'Two-factor authentication turned off',
  password_changed: 'Password changed',
  password_reset: 'Password reset from an email link',
  gmail_connected: 'Gmail connected',
  gmail_disconnected: 'Gmail disconnected',
}

export type SecurityEventView = {
  id: string
  type: SecurityEventType
  label: string
  device: string
  ipAddress: string | null
  createdAt: string
}
