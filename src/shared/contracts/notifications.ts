/** Something the user should look at: a connection that needs them, or an email that failed. */
export type NotificationItem = {
  id: string
  kind: 'connection' | 'failure'
  title: string
  message: string
  at: string
  parserId: string | null
  parsedEmailId: string | null
}
