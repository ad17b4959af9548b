import { ImageOff } from 'lucide-react'
import type { FetchedEmail } from '@shared/contracts/gmail'
import { Button } from '@web/components/ui/button'
import type { HighlightedValue } from '../selection-context'
import { EmailHtmlFrame, EmailTextBody, type MarkedFields } from './email-html-frame'

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

export function formatEmailDate(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date)
}

/** The chosen email: From, Subject, Date and the body the user highlights values in. */
export function EmailView({
  email,
  marked,
  onHighlight,
  onShowImages,
  isLoadingImages,
  areImagesShown = false,
}: {
  email: FetchedEmail
  /** Fields already highlighted in this email (each in its colour). */
  marked: MarkedFields
  onHighlight: (value: HighlightedValue) => void
  /** Absent when images can't be turned on (the built-in sample). */
  onShowImages?: () => void
  isLoadingImages?: boolean
  /** The user chose 'Show images' (the frame's policy then lets remote images load). */
  areImagesShown?: boolean
}) {
  const hasHiddenImages = Boolean(email.bodyHtml?.includes('data-remote-src'))
  return (
    <article className="grid min-w-0 gap-3" aria-label="Selected email">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 rounded-md border bg-muted/40 p-3 text-sm">
        <dt className="text-muted-foreground">From</dt>
        <dd className="break-words">{email.from}</dd>
        <dt className="text-muted-foreground">Subject</dt>
        <dd className="break-words font-medium">{email.subject || '(no subject)'}</dd>
        <dt className="text-muted-foreground">Date</dt>
        <dd>{formatEmailDate(email.date)}</dd>
      </dl>
      {hasHiddenImages && onShowImages && (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-dashed px-3 py-2 text-sm text-muted-foreground">
          <span className="flex items-center gap-2">
            <ImageOff className="size-4" aria-hidden />
            Remote images are hidden to protect your privacy.
          </span>
          <Button variant="outline" size="sm" onClick={onShowImages} disabled={isLoadingImages}>
            {isLoadingImages ? 'Loading images...' : 'Show images'}
          </Button>
        </div>
      )}
      {email.bodyHtml ? (
        <EmailHtmlFrame
          html={email.bodyHtml}
          title={`Email: ${email.subject || 'no subject'}`}
          marked={marked}
          onHighlight={onHighlight}
          allowRemoteImages={areImagesShown && !hasHiddenImages}
        />
      ) : (
        <EmailTextBody text={email.body} marked={marked} onHighlight={onHighlight} />
      )}
    </article>
  )
}
