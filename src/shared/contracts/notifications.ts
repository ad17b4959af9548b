import { z } from 'zod'

/** Something the user should look at: a connection that needs them, a webhook turned off for failing, or an email that failed. */
export type NotificationItem = {
  id: string
  kind: 'connection' | 'webhook' | 'failure'
  title: string
  message: string
  at: string
  parserId: string | null
  parsedEmailId: string | null
  /** Not seen yet: a connection problem until it is fixed, a failure until the list was opened after it. */
  unread: boolean
}

/** The list was seen up to `through` (the newest item's time as the server gave it). */
export const markNotificationsSeenSchema = z.object({ through: z.iso.datetime({ offset: true, error: 'Give the time of the newest notification seen' }) })
