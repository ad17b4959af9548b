import { Sparkles } from 'lucide-react'
import { Fragment } from 'react'
import type { PreviewRow } from '@shared/contracts/parsers'
import { Badge } from '@web/components/ui/badge'
import { Spinner } from '@web/components/ui/spinner'
import { cn } from '@web/lib/utils'
import { formatEmailDate } from './email-view'

const STATUS_BADGE = {
  success: { label: 'Complete', variant: 'success' },
  partial: { label: 'Partial', variant: 'outline' },
  failed: { label: 'Failed', variant: 'destructive' },
} as const

/** Said when the engine gives no reason of its own. */
export const DEFAULT_NOT_FOUND_REASON = 'Not found in this email'

export function previewSummary(rows: PreviewRow[]): string {
  const complete = rows.filter((row) => row.status === 'success').length
  return `${complete} of ${rows.length} ${rows.length === 1 ? 'email' : 'emails'} fully extracted`
}

/**
 * Beyond the spec: what the template trained so far pulls out of the other matching emails, so
 * misses show up before activation rather than as empty cells in the sheet: per field found or
 * not found and why, and each email's line items.
 */
export function LivePreviewPanel({
  fieldNames,
  lineItemFields,
  rows,
  isUpdating,
  error,
}: {
  fieldNames: string[]
  /** Fields the trainer learned as repeated rows; their values show as a small table per email. */
  lineItemFields: string[]
  /** Undefined until the first run answers. */
  rows: PreviewRow[] | undefined
  isUpdating: boolean
  error: string | null
}) {
  return (
    <section aria-labelledby="live-preview-heading" aria-busy={isUpdating} className="grid gap-3 rounded-lg border bg-background p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 id="live-preview-heading" className="flex items-center gap-2 font-semibold">
            <Sparkles className="size-4 text-primary" aria-hidden />
            Live preview
          </h3>
          <p className="text-sm text-muted-foreground">What your template extracts from the other matching emails.</p>
        </div>
        <div className="flex min-h-6 items-center gap-2 text-sm" aria-live="polite">
          {isUpdating && <Spinner className="size-4" label="Updating preview" />}
          {rows && rows.length > 0 && (
            <span className="font-medium" data-testid="preview-summary">
              {previewSummary(rows)}
            </span>
          )}
        </div>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          Preview unavailable: {error}
        </p>
      ) : !rows ? (
        <div className="flex min-h-32 items-center justify-center gap-2 text-sm text-muted-foreground">
          <Spinner className="size-4" label="Running your template" />
          Running your template on the other emails...
        </div>
      ) : rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">No other matching emails to try the template on.</p>
      ) : (
        <div className="max-h-96 overflow-auto rounded-md border">
          <table className="w-full min-w-max text-left text-sm">
            <thead className="sticky top-0 bg-muted text-xs uppercase tracking-wide text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-2 align-top font-medium">
                  Email
                </th>
                {fieldNames.map((name) => {
                  const found = rows.filter((row) => row.fields[name] != null).length
                  return (
                    <th key={name} scope="col" className="px-3 py-2 font-medium normal-case">
                      <span className="block text-foreground">{name}</span>
                      {lineItemFields.includes(name) && <span className="block text-[11px] font-normal text-muted-foreground">line items</span>}
                      <span className={cn('block text-[11px] font-normal', found < rows.length ? 'text-destructive' : 'text-muted-foreground')}>
                        found in {found}/{rows.length}
                      </span>
                    </th>
                  )
                })}
                <th scope="col" className="px-3 py-2 align-top font-medium">
                  Status
                </th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {rows.map((row) => {
                const badge = STATUS_BADGE[row.status]
                const itemColumns = lineItemFields.filter((name) => fieldNames.includes(name))
                return (
                  <Fragment key={row.messageId}>
                    <tr className={row.status === 'success' ? undefined : 'bg-destructive/5'}>
                      <td className="max-w-64 px-3 py-2 align-top">
                        <p className="truncate font-medium" title={row.subject}>
                          {row.subject || '(no subject)'}
                        </p>
                        <p className="text-xs text-muted-foreground">{formatEmailDate(row.date)}</p>
                      </td>
                      {fieldNames.map((name) => (
                        <td key={name} className="max-w-56 px-3 py-2 align-top">
                          <FieldCell row={row} name={name} isLineItem={itemColumns.includes(name)} />
                        </td>
                      ))}
                      <td className="px-3 py-2 align-top">
                        <Badge variant={badge.variant} title={row.error ?? undefined}>
                          {badge.label}
                        </Badge>
                      </td>
                    </tr>
                    {row.items && row.items.length > 0 && itemColumns.length > 0 && (
                      <tr className={row.status === 'success' ? undefined : 'bg-destructive/5'}>
                        <td colSpan={fieldNames.length + 2} className="px-3 pb-3 pt-0">
                          <LineItemsTable items={row.items} columns={itemColumns} subject={row.subject} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

/** One field of one email: its text, or 'Not found' and why. */
function FieldCell({ row, name, isLineItem }: { row: PreviewRow; name: string; isLineItem: boolean }) {
  if (!(name in row.fields)) return <span className="text-muted-foreground">…</span>
  const value = row.details[name]?.value ?? row.fields[name] ?? null
  if (value === null) {
    return (
      <span className="grid gap-0.5">
        <span className="font-semibold text-destructive">Not found</span>
        <span className="text-xs text-muted-foreground">{row.details[name]?.reason || DEFAULT_NOT_FOUND_REASON}</span>
      </span>
    )
  }
  if (isLineItem && row.items && row.items.length > 0) {
    const count = row.items.length
    return <span className="text-muted-foreground">{count === 1 ? '1 item' : `${count} items`} (below)</span>
  }
  return <span className="line-clamp-2 break-words">{value}</span>
}

/** The line items found in one email, one row each. */
function LineItemsTable({ items, columns, subject }: { items: NonNullable<PreviewRow['items']>; columns: string[]; subject: string }) {
  return (
    <table className="ml-4 w-auto min-w-64 rounded-md border text-left text-xs" aria-label={`Line items in ${subject || 'this email'}`}>
      <caption className="px-2 py-1 text-left font-medium text-muted-foreground">
        {items.length === 1 ? '1 line item' : `${items.length} line items`}
      </caption>
      <thead className="bg-muted/60 text-muted-foreground">
        <tr>
          <th scope="col" className="px-2 py-1 font-medium">
            #
          </th>
          {columns.map((name) => (
            <th key={name} scope="col" className="px-2 py-1 font-medium">
              {name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y">
        {items.map((item, index) => (
          <tr key={index}>
            <td className="px-2 py-1 text-muted-foreground">{index + 1}</td>
            {columns.map((name) => (
              <td key={name} className="max-w-56 break-words px-2 py-1">
                {item[name] ?? <span className="text-destructive">Not found</span>}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
