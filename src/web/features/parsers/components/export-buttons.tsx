import { Download } from 'lucide-react'
import { useId, useState } from 'react'
import type { ExportFormat } from '@shared/contracts/exports'
import type { ParserEmailFilter } from '@shared/contracts/parsers'
import { Button } from '@web/components/ui/button'

/** The export's address: the server streams the file and names it (Content-Disposition). */
export function exportUrl(parserId: string, format: ExportFormat, view: { q: string; status: ParserEmailFilter } | null) {
  const params = new URLSearchParams({ format })
  if (view?.q) params.set('q', view.q)
  if (view && view.status !== 'all') params.set('status', view.status)
  return `/api/parsers/${parserId}/export?${params}`
}

/** CSV and XLSX downloads of a parser's emails: all of them, or the search and filter the table shows. */
export function ExportButtons({ parserId, parserName, q, status }: { parserId: string; parserName: string; q: string; status: ParserEmailFilter }) {
  const isFiltered = q !== '' || status !== 'all'
  const [scope, setScope] = useState<'view' | 'all'>('view')
  const name = useId()
  const view = isFiltered && scope === 'view' ? { q, status } : null
  const what = view ? 'this view' : 'all emails'

  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
      {isFiltered ? (
        <fieldset className="flex flex-wrap items-center gap-3 text-sm">
          <legend className="sr-only">Rows to download</legend>
          {(['view', 'all'] as const).map((value) => (
            <label key={value} className="flex items-center gap-1.5">
              <input type="radio" name={name} value={value} checked={scope === value} onChange={() => setScope(value)} className="accent-primary" />
              {value === 'view' ? 'This view' : 'All emails'}
            </label>
          ))}
        </fieldset>
      ) : null}
      <div className="flex gap-2">
        {(['csv', 'xlsx'] as const).map((format) => (
          <Button key={format} size="sm" variant="outline" asChild>
            <a href={exportUrl(parserId, format, view)} download aria-label={`Download ${format.toUpperCase()} of ${what}: ${parserName}`}>
              <Download aria-hidden />
              {format.toUpperCase()}
            </a>
          </Button>
        ))}
      </div>
    </div>
  )
}
