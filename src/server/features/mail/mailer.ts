import nodemailer from 'nodemailer'
import type { Db } from '../../db/client'
import { devOutbox } from '../../db/schema'
import type { Logger } from '../../lib/logger'

export type MailMessage = { to: string; subject: string; text: string; html?: string }

/** Sends account mail (password resets, sign-up notices). */
export type Mailer = {
  kind: 'smtp' | 'outbox' | 'none'
  send(message: MailMessage): Promise<void>
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl)
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({ from, ...message })
    },
  }
}

/**
 * Without SMTP, mail is logged and kept in the development outbox (/dev/outbox), so a
 * self-hoster on a laptop can still reset a password.
 */
export function createOutboxMailer(db: Db, logger: Logger): Mailer {
  return {
    kind: 'outbox',
    async send(message) {
      await db.insert(devOutbox).values(message)
      logger.info({ to: message.to, subject: message.subject }, `mail kept in the development outbox:\n${message.text}`)
    },
  }
}

/**
 * Production without SMTP: nothing can be delivered. Only the recipient and subject are logged —
 * never the text, which may hold a reset or verification link.
 */
export function createUndeliverableMailer(logger: Logger): Mailer {
  return {
    kind: 'none',
    async send(message) {
      logger.warn({ to: message.to, subject: message.subject }, 'mail not sent: SMTP_URL is not set')
    },
  }
}
