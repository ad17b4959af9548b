import { AlertCircle, ExternalLink } from 'lucide-react'
import type { ParsedEmailView } from '@shared/contracts/parsers'
import { Button } from '@web/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog'
import { Spinner } from '@web/components/ui/spinner'
import { useParsedEmail } from '../api/get-parsed-email'
import { describeStatus, formatDateTime, formatExtractionMethod } from '../format'
import { EmailStatusBadge } from './status-badges'
import { useReturnFocus } from '@web/components/ui/use-return-focus'

type ParsedEmailDialogProps = {
  /** The ledger row to show; null keeps the dialog closed. */
  parsedEmailId: string | null
  onOpenChange: (open: boolean) => void
  /** Where focus goes on close when the element that opened the dialog is gone. */
  returnFocusTo?: () => HTMLElement | null
}

/** 'View' on a parsed email: what was extracted, how, and where it went. */
export function ParsedEmailDialog({ parsedEmailId, onOpenChange, returnFocusTo }: ParsedEmailDialogProps) {
  const returnFocus = useReturnFocus(returnFocusTo)
  return (
    <Dialog open={parsedEmailId !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] w-[calc(100%-1rem)] max-w-2xl overflow-y-auto" {...returnFocus}>
        {parsedEmailId ? <ParsedEmailDetail id={parsedEmailId} /> : null}
      </DialogContent>
    </Dialog>
  )
}

function ParsedEmailDetail({ id }: { id: string }) {
  const { data: email, isPending, error } = useParsedEmail(id)

  if (isPending || error) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Parsed email</DialogTitle>
          <DialogDescription>{error ? 'Could not load this email.' : 'Loading details...'}</DialogDescription>
        </DialogHeader>
        <div className="flex min-h-48 items-center justify-center">
          {error ? (
            <p role="alert" className="text-sm text-destructive">
              {error.message || 'Failed to fetch data'}
            </p>
          ) : (
            <Spinner className="size-6" label="Loading parsed email" />
          )}
        </div>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
        </DialogFooter>
      </>
    )
  }

  const statusDetail = describeStatus(email.status)
  return (
    <>
      <DialogHeader className="pr-6">
        <DialogTitle className="break-words">{email.emailSubject || 'No subject'}</DialogTitle>
        <DialogDescription>{email.parserName ?? 'Unknown Parser'}</DialogDescription>
      </DialogHeader>

      <div className="flex flex-wrap items-center gap-2">
        <EmailStatusBadge status={email.status} />
        {statusDetail ? <span className="text-sm text-muted-foreground">{statusDetail}</span> : null}
      </div>

      {email.error ? (
        <div role="alert" className="flex gap-2 rounded-md border border-destructive/30 bg-destructive/5 p-3 text-sm">
          <AlertCircle className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
          <div>
            <p className="font-medium text-destructive">Why it failed</p>
            <p className="break-words">{email.error}</p>
          </div>
        </div>
      ) : null}

      <ExtractedDataTable data={email.extractedData} />

      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-muted-foreground">From</dt>
        <dd className="break-all">{email.emailFrom || '—'}</dd>
        <dt className="text-muted-foreground">Received</dt>
        <dd>{email.receivedAt ? formatDateTime(email.receivedAt) : '—'}</dd>
        <dt className="text-muted-foreground">Processed</dt>
        <dd>{formatDateTime(email.processedAt)}</dd>
        <dt className="text-muted-foreground">Extraction method</dt>
        <dd>{formatExtractionMethod(email.extractionMethod)}</dd>
        <dt className="text-muted-foreground">Spreadsheet</dt>
        <dd>{email.writtenToSheets ? 'Row written' : 'Not written'}</dd>
        {email.gmailMessageId ? (
          <>
            <dt className="text-muted-foreground">Gmail message ID</dt>
            <dd className="font-mono text-xs break-all">{email.gmailMessageId}</dd>
          </>
        ) : null}
      </dl>

      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Close</Button>
        </DialogClose>
        {email.spreadsheetUrl ? (
          <Button asChild>
            <a href={email.spreadsheetUrl} target="_blank" rel="noopener noreferrer">
              <ExternalLink aria-hidden />
              Open spreadsheet
            </a>
          </Button>
        ) : null}
      </DialogFooter>
    </>
  )
}

function ExtractedDataTable({ data }: { data: ParsedEmailView['extractedData'] }) {
  const entries = Object.entries(data ?? {})
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">No data was extracted.</p>
  return (
    <div className="overflow-x-auto rounded-md border">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Extracted data</caption>
        <thead className="bg-muted/60 text-muted-foreground">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Field
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Value
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map(([name, value]) => (
            <tr key={name} className="border-t">
              <th scope="row" className="px-3 py-2 align-top font-medium">
                {name}
              </th>
              <td className="px-3 py-2 break-words">
                {value === null || value === undefined || value === '' ? (
                  <span className="text-muted-foreground italic">Not found</span>
                ) : typeof value === 'object' ? (
                  JSON.stringify(value)
                ) : (
                  String(value)
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
