import { describeDevice } from '@shared/contracts/sessions'
import { SECURITY_EVENT_LABELS, type SecurityEventType, type SecurityEventView } from '@shared/contracts/security-log'
import type { Db } from '../../db/client'
import type { Mailer } from '../mail/mailer'
import { insertSecurityEvent, listSecurityEventsByUser, listSignInUserAgents } from './security-log.queries'

/** How long the security log keeps an event (the privacy policy's 90 days). */
export const SECURITY_LOG_RETENTION_DAYS = 90
const LOG_LIMIT = 200
const DAY_MS = 24 * 60 * 60 * 1000

/** Changes the account's owner should hear about even when they weren't the one making them. */
const MAILED: Partial<Record<SecurityEventType, string>> = {
  password_changed: 'Your Mailrow password was changed',
  password_reset: 'Your Mailrow password was reset',
  two_factor_enabled: 'Two-factor authentication was turned on for your Mailrow account',
  two_factor_disabled: 'Two-factor authentication was turned off for your Mailrow account',
}

export type SecurityEventInput = {
  userId: string
  email: string
  type: SecurityEventType
  ip?: string | null
  userAgent?: string | null
}

/**
 * Records an event in the user's security log, and mails the owner about a sign-in from a new
 * device or a change to their password or second factor.
 */
export async function recordSecurityEvent(db: Db, mailer: Mailer, { userId, email, type, ip = null, userAgent = null }: SecurityEventInput) {
  const agent = userAgent?.slice(0, 512) ?? null
  const isNewDevice = type === 'sign_in' ? await isSignInFromNewDevice(db, userId, agent) : false
  await insertSecurityEvent(db, { userId, type, ip, userAgent: agent })
  const where = `${describeDevice(agent)}${ip ? `, address ${ip}` : ''}`
  const when = new Date().toUTCString()
  if (isNewDevice) {
    await mailer.send({
      to: email,
      subject: 'New sign-in to your Mailrow account',
      text: `Your Mailrow account was signed in to from a device it hasn't seen before:\n\n${where}\n${when}\n\nIf this was you, there is nothing to do. If not, change your password and sign out of all sessions in Settings, and turn on two-factor authentication.`,
    })
  }
  const subject = MAILED[type]
  if (subject) {
    await mailer.send({
      to: email,
      subject,
      text: `${SECURITY_EVENT_LABELS[type]} on your Mailrow account:\n\n${where}\n${when}\n\nIf this wasn't you, reset your password from the sign-in page and sign out of all sessions in Settings.`,
    })
  }
}

/**
 * New: the account signed in before, but never with this browser on this system (compared as
 * 'Chrome on Windows', so a browser update is not a new device). The first sign-in mails nothing.
 */
async function isSignInFromNewDevice(db: Db, userId: string, userAgent: string | null) {
  const earlier = await listSignInUserAgents(db, userId)
  const device = describeDevice(userAgent)
  return earlier.length > 0 && !earlier.some((agent) => describeDevice(agent) === device)
}

export async function listSecurityLog(db: Db, { userId, now = new Date() }: { userId: string; now?: Date }): Promise<SecurityEventView[]> {
  const rows = await listSecurityEventsByUser(db, userId, new Date(now.getTime() - SECURITY_LOG_RETENTION_DAYS * DAY_MS), LOG_LIMIT)
  return rows.map((row) => {
    const type = row.type as SecurityEventType
    return {
      id: row.id,
      type,
      label: SECURITY_EVENT_LABELS[type] ?? row.type,
      device: describeDevice(row.userAgent),
      ipAddress: row.ip,
      createdAt: row.createdAt.toISOString(),
    }
  })
}
