import { AlertTriangle, Bell, BellOff, PlugZap } from 'lucide-react'
import { useRef, useState } from 'react'
import { Link } from 'react-router'
import type { NotificationItem } from '@shared/contracts/notifications'
import { paths } from '@shared/paths'
import { Button } from '@web/components/ui/button'
import { Popover, PopoverContent, PopoverDescription, PopoverTitle, PopoverTrigger } from '@web/components/ui/popover'
import { Spinner } from '@web/components/ui/spinner'
import { ParsedEmailDialog } from '../../dashboard/components/parsed-email-dialog'
import { useNotifications } from '../api/get-notifications'
import { useMarkNotificationsSeen } from '../api/mark-seen'

/** The top bar's bell: connection problems and the week's failed emails. */
export function NotificationsMenu() {
  const { data: items, isPending, error } = useNotifications()
  const [open, setOpen] = useState(false)
  const [viewing, setViewing] = useState<string | null>(null)
  const bell = useRef<HTMLButtonElement>(null)
  const markSeen = useMarkNotificationsSeen()

  const unread = (items ?? []).filter((item) => item.unread).length

  const onOpenChange = (next: boolean) => {
    setOpen(next)
    // Marking as seen on close keeps the 'new' markers visible while the list is open.
    const unreadFailures = (items ?? []).filter((item) => item.kind === 'failure' && item.unread)
    if (!next && unreadFailures.length > 0) {
      // The newest item's own (server) time, so a skewed browser clock can't hide or resurrect items.
      const newest = items!.reduce((latest, item) => (item.at > latest ? item.at : latest), items![0]!.at)
      markSeen.mutate(newest)
    }
  }

  const openDetail = (item: NotificationItem) => {
    if (!item.parsedEmailId) return
    onOpenChange(false)
    setViewing(item.parsedEmailId)
  }

  return (
    <div className="sm:relative">
      <Popover open={open} onOpenChange={onOpenChange}>
        <PopoverTrigger asChild>
          <Button ref={bell} variant="ghost" size="icon" className="relative" aria-label={unread > 0 ? `Notifications, ${unread} new` : 'Notifications'}>
            <Bell />
            {unread > 0 ? (
              <span
                aria-hidden
                data-testid="notifications-count"
                className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] leading-none font-semibold text-destructive-foreground"
              >
                {unread > 9 ? '9+' : unread}
              </span>
            ) : null}
          </Button>
        </PopoverTrigger>
        <PopoverContent aria-describedby="notifications-description">
          <div className="border-b px-4 py-3">
            <PopoverTitle>Notifications</PopoverTitle>
            <PopoverDescription id="notifications-description">Connection problems and failed emails from the last 7 days</PopoverDescription>
          </div>
          <div className="min-h-24 overflow-y-auto">
            {isPending ? (
              <div className="flex h-24 items-center justify-center">
                <Spinner label="Loading notifications" />
              </div>
            ) : error ? (
              <p role="alert" className="p-4 text-sm text-destructive">
                Could not load notifications: {error.message}
              </p>
            ) : items.length === 0 ? (
              <div className="flex flex-col items-center gap-2 p-6 text-center text-sm text-muted-foreground">
                <BellOff className="size-6" aria-hidden />
                <p>You're all caught up. Failed emails and connection problems show up here.</p>
              </div>
            ) : (
              <ul className="divide-y">
                {items.map((item) => (
                  <li key={item.id}>
                    <NotificationRow item={item} isNew={item.unread} onOpenDetail={() => openDetail(item)} onNavigate={() => onOpenChange(false)} />
                  </li>
                ))}
              </ul>
            )}
          </div>
        </PopoverContent>
      </Popover>
      <ParsedEmailDialog parsedEmailId={viewing} onOpenChange={(next) => !next && setViewing(null)} returnFocusTo={() => bell.current} />
    </div>
  )
}

const rowClass =
  'flex w-full gap-3 px-4 py-3 text-left transition-colors hover:bg-muted focus-visible:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset'

function NotificationRow({ item, isNew, onOpenDetail, onNavigate }: { item: NotificationItem; isNew: boolean; onOpenDetail: () => void; onNavigate: () => void }) {
  const body = (
    <>
      {item.kind === 'connection' || item.kind === 'webhook' ? (
        <PlugZap className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
      ) : (
        <AlertTriangle className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
      )}
      <span className="min-w-0 flex-1">
        <span className="flex items-center gap-2">
          <span className="truncate text-sm font-medium">{item.title}</span>
          {isNew ? <span className="size-2 shrink-0 rounded-full bg-primary" aria-label="New" role="img" /> : null}
        </span>
        <span className="line-clamp-2 text-xs break-words text-muted-foreground">{item.message}</span>
        <span className="mt-0.5 block text-[11px] text-muted-foreground">{new Date(item.at).toLocaleString()}</span>
      </span>
    </>
  )
  if (item.kind === 'connection' || item.kind === 'webhook') {
    return (
      <Link to={`${paths.settings}#${item.kind === 'webhook' ? 'webhooks' : 'connections'}`} onClick={onNavigate} className={rowClass}>
        {body}
      </Link>
    )
  }
  return (
    <button type="button" onClick={onOpenDetail} className={rowClass} disabled={!item.parsedEmailId}>
      {body}
    </button>
  )
}
