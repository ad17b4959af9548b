import type { NotificationItem } from '../../../shared/contracts/notifications'

const STORAGE_KEY = 'mailrow.notifications.lastSeenAt'

/** When the user last opened the notifications, kept per browser (there is no read state on the server). */
export function readLastSeenAt(): number {
  try {
    return Number(localStorage.getItem(STORAGE_KEY)) || 0
  } catch {
    return 0
  }
}

export function writeLastSeenAt(at: number) {
  try {
    localStorage.setItem(STORAGE_KEY, String(at))
  } catch {
    // Storage can be unavailable (private mode); the badge then counts everything, which is safe.
  }
}

/** Connection problems count until fixed; failures count until the list has been opened. */
export function isUnread(item: NotificationItem, lastSeenAt: number): boolean {
  return item.kind === 'connection' || new Date(item.at).getTime() > lastSeenAt
}
