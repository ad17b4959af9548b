import { ChevronLeft, ChevronRight, GraduationCap, RotateCw, Search } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { PARSER_EMAIL_FILTERS, type ParserEmailFilter, type ParserEmailRow, type ParserView, type ReprocessInput, type ReprocessResult } from '@shared/contracts/parsers'
import { trainOnEmailPath } from '@shared/paths'
import { Badge } from '@web/components/ui/badge'
import { Button } from '@web/components/ui/button'
import { Field } from '@web/components/ui/field'
import { Input } from '@web/components/ui/input'
import { Spinner } from '@web/components/ui/spinner'
import { useParserEmails, useReprocessEmails } from '../api/parser-pages'
import { formatEmailDate } from './email-view'
import { DEFAULT_NOT_FOUND_REASON } from './live-preview-panel'

type Query = { page: number; pageSize: number; q: string; status: ParserEmailFilter }

const STATUS_BADGE: Record<string, { label: string; variant: 'success' | 'outline' | 'destructive' | 'secondary' }> = {
  success: { label: 'Success', variant: 'success' },
  partial: { label: 'Partial', variant: 'outline' },
  failed: { label: 'Failed', variant: 'destructive' },
  pending: { label: 'Waiting', variant: 'secondary' },
  processing: { label: 'Processing', variant: 'secondary' },
  quota_exceeded: { label: 'Waiting for allowance', variant: 'secondary' },
  skipped: { label: 'Skipped', variant: 'secondary' },
}

const FINISHED = ['success', 'partial', 'failed']

export function reprocessSummary(result: ReprocessResult): string {
  const { success, partial, failed, waiting, skipped } = result.outcomes
  const parts = [
    success && `${success} succeeded`,
    partial && `${partial} partial`,
    failed && `${failed} failed`,
    skipped && `${skipped} skipped`,
    waiting && `${waiting} waiting to be processed`,
  ].filter(Boolean)
  return parts.join(', ') || 'Nothing to reprocess'
}

/** A parser's emails: one column per field, a search, a status filter, pages, and reprocessing. */
export function ParserEmailsTable({
  parser,
  query,
  filterLabels,
  onQueryChange,
}: {
  parser: ParserView
  query: Query
  filterLabels: Record<ParserEmailFilter, string>
  onQueryChange: (patch: Partial<Query>) => void
}) {
  const emails = useParserEmails(parser.id, query)
  const reprocess = useReprocessEmails(parser.id)
  const [search, setSearch] = useState(query.q)
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const rows = emails.data?.emails ?? []
  const selectedHere = rows.filter((row) => selected.has(row.id)).map((row) => row.id)
  const incomplete = (emails.data?.counts.failed ?? 0) + (emails.data?.counts.partial ?? 0)
  const total = emails.data?.total ?? 0
  const pages = Math.max(1, Math.ceil(total / query.pageSize))
  const fieldNames = parser.extraction_fields.map((f) => f.name)

  const run = (input: ReprocessInput, what: string) =>
    reprocess.mutate(input, {
      onSuccess: (result) => {
        setSelected(new Set())
        toast.success(result.reprocessed === 1 ? '1 email reprocessed' : `${result.reprocessed} emails reprocessed`, { description: `${what}: ${reprocessSummary(result)}` })
      },
      onError: (error) => toast.error('Could not reprocess', { description: error.message || 'Please try again.' }),
    })

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })

  return (
    <div className="grid gap-4">
      <div className="flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
        <form
          role="search"
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault()
            onQueryChange({ q: search.trim() })
          }}
        >
          <Field label="Search emails" className="gap-1">
            {(control) => <Input {...control} type="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Subject, sender or a value" className="w-64" />}
          </Field>
          <Button type="submit" variant="outline">
            <Search aria-hidden />
            Search
          </Button>
          <Field label="Status" className="gap-1">
            {(control) => (
              <select
                {...control}
                className="h-10 rounded-md border border-input bg-background px-3 text-sm"
                value={query.status}
                onChange={(event) => onQueryChange({ status: event.target.value as ParserEmailFilter })}
              >
                {PARSER_EMAIL_FILTERS.map((filter) => (
                  <option key={filter} value={filter}>
                    {filterLabels[filter]}
                    {emails.data ? ` (${emails.data.counts[filter]})` : ''}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </form>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" disabled={selectedHere.length === 0 || reprocess.isPending} onClick={() => run({ ids: selectedHere }, 'Selected emails')}>
            <RotateCw aria-hidden className={reprocess.isPending ? 'animate-spin' : undefined} />
            Reprocess selected ({selectedHere.length})
          </Button>
          <Button disabled={incomplete === 0 || reprocess.isPending} onClick={() => run({ allFailed: true }, 'Failed and partial emails')}>
            <RotateCw aria-hidden className={reprocess.isPending ? 'animate-spin' : undefined} />
            Reprocess all failed ({incomplete})
          </Button>
        </div>
      </div>

      {emails.isPending ? (
        <div className="flex min-h-40 items-center justify-center">
          <Spinner label="Loading emails" />
        </div>
      ) : emails.isError ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the emails: {emails.error.message}
        </p>
      ) : rows.length === 0 ? (
        <p className="py-10 text-center text-sm text-muted-foreground">{query.q || query.status !== 'all' ? 'No emails match your search.' : 'No emails parsed yet'}</p>
      ) : (
        <div className="overflow-x-auto rounded-md border" aria-busy={emails.isFetching}>
          <table className="w-full min-w-max text-left text-sm">
            <caption className="sr-only">Emails of {parser.name}</caption>
            <thead className="bg-muted text-xs uppercase tracking-wide text-muted-foreground">
              <tr>
                <th scope="col" className="w-10 px-3 py-2">
                  <span className="sr-only">Select</span>
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Email
                </th>
                {fieldNames.map((name) => (
                  <th key={name} scope="col" className="px-3 py-2 font-medium normal-case">
                    {name}
                  </th>
                ))}
                <th scope="col" className="px-3 py-2 font-medium">
                  Status
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {rows.map((row) => (
                <EmailRow
                  key={row.id}
                  row={row}
                  parserId={parser.id}
                  fieldNames={fieldNames}
                  isSelected={selected.has(row.id)}
                  onToggle={() => toggle(row.id)}
                  onReprocess={() => run({ ids: [row.id] }, row.subject || 'The email')}
                  isBusy={reprocess.isPending}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}

      {total > 0 && (
        <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <p aria-live="polite">
            Showing {(query.page - 1) * query.pageSize + 1}–{Math.min(query.page * query.pageSize, total)} of {total} · Page {query.page} of {pages}
          </p>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" disabled={query.page <= 1} onClick={() => onQueryChange({ page: query.page - 1 })}>
              <ChevronLeft aria-hidden />
              Previous
            </Button>
            <Button variant="outline" size="sm" disabled={query.page >= pages} onClick={() => onQueryChange({ page: query.page + 1 })}>
              Next
              <ChevronRight aria-hidden />
            </Button>
          </div>
        </nav>
      )}
    </div>
  )
}

function EmailRow({
  row,
  parserId,
  fieldNames,
  isSelected,
  onToggle,
  onReprocess,
  isBusy,
}: {
  row: ParserEmailRow
  parserId: string
  fieldNames: string[]
  isSelected: boolean
  onToggle: () => void
  onReprocess: () => void
  isBusy: boolean
}) {
  const badge = STATUS_BADGE[row.status] ?? { label: row.status, variant: 'secondary' as const }
  const isFinished = FINISHED.includes(row.status)
  const subject = row.subject || '(no subject)'
  const canReprocess = row.status !== 'pending' && row.status !== 'processing' && row.gmailMessageId !== null
  return (
    <tr className={row.status === 'partial' || row.status === 'failed' ? 'bg-destructive/5' : undefined}>
      <td className="px-3 py-2 align-top">
        <input type="checkbox" className="size-4" checked={isSelected} onChange={onToggle} disabled={!canReprocess} aria-label={`Select ${subject}`} />
      </td>
      <td className="max-w-64 px-3 py-2 align-top">
        <p className="truncate font-medium" title={subject}>
          {subject}
        </p>
        <p className="text-xs text-muted-foreground">{formatEmailDate(row.receivedAt ?? row.processedAt)}</p>
      </td>
      {fieldNames.map((name) => (
        <td key={name} className="max-w-56 px-3 py-2 align-top">
          {!isFinished ? (
            <span className="text-muted-foreground">—</span>
          ) : row.values[name] != null ? (
            <span className="line-clamp-2 break-words">{row.values[name]}</span>
          ) : (
            <span className="grid gap-0.5">
              <span className="font-semibold text-destructive">Not found</span>
              <span className="text-xs text-muted-foreground">{row.reasons[name] || DEFAULT_NOT_FOUND_REASON}</span>
            </span>
          )}
        </td>
      ))}
      <td className="max-w-56 px-3 py-2 align-top">
        <Badge variant={badge.variant}>{badge.label}</Badge>
        {row.status !== 'success' && row.error ? <p className="mt-1 text-xs text-muted-foreground">{row.error}</p> : null}
      </td>
      <td className="px-3 py-2 align-top">
        <div className="flex flex-wrap gap-2">
          {isFinished && row.gmailMessageId ? (
            <Button size="sm" variant={row.status === 'success' ? 'outline' : 'default'} asChild>
              <Link to={trainOnEmailPath(parserId, row.id)} aria-label={`Train on this email: ${subject}`}>
                <GraduationCap aria-hidden />
                Train on this email
              </Link>
            </Button>
          ) : null}
          <Button size="sm" variant="outline" disabled={!canReprocess || isBusy} onClick={onReprocess} aria-label={`Reprocess ${subject}`}>
            <RotateCw aria-hidden />
            Reprocess
          </Button>
        </div>
      </td>
    </tr>
  )
}
