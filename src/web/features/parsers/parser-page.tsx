import { ArrowLeft, ExternalLink, FlaskConical, Pencil, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Link, useNavigate, useParams, useSearchParams } from 'react-router'
import { PARSER_EMAIL_FILTERS, PARSER_EMAILS_PAGE_SIZE, type ParserEmailFilter, type ParserView} from '@shared/contracts/parsers'
import { editParserPath, paths } from '@shared/paths'
import { AppHeader } from '../../components/layout/app-header'
import { ParserStateBadge } from '../dashboard/components/status-badges'
import { Button } from '../../components/ui/button'
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card'
import { Spinner } from '../../components/ui/spinner'
import { ApiError } from '../../lib/api-client'
import { usePageTitle } from '../../lib/document-title'
import { PauseResumeButton } from '../dashboard/components/pause-resume-button'
import { BackfillProgress } from '../dashboard/components/backfill-progress'
import { DeleteParserDialog } from '../dashboard/components/delete-parser-dialog'
import { TestParserDialog } from '../dashboard/components/test-parser-dialog'
import { useParser } from './api/parser-pages'
import { ExportButtons } from './components/export-buttons'
import { ParserEmailsTable } from './components/parser-emails-table'

/** A parser's page: what it is, its emails as a table of their values, and what can be done with them. */
export function ParserPage() {
  const { parserId = '' } = useParams()
  const navigate = useNavigate()
  const parser = useParser(parserId)
  const [isTesting, setTesting] = useState(false)
  const [isDeleting, setDeleting] = useState(false)
  usePageTitle(parser.data?.name)

  if (parser.isPending) {
    return (
      <Frame>
        <div className="flex min-h-56 items-center justify-center">
          <Spinner label="Loading parser" />
        </div>
      </Frame>
    )
  }
  if (parser.isError) {
    const isMissing = parser.error instanceof ApiError && parser.error.status === 404
    return (
      <Frame>
        <div className="grid justify-items-center gap-3 rounded-lg border bg-background p-8 text-center">
          <h1 className="text-2xl font-bold">{isMissing ? 'Parser not found' : 'Could not load the parser'}</h1>
          <p className="text-sm text-muted-foreground">{isMissing ? 'It may have been deleted.' : parser.error.message}</p>
          <Button variant="outline" asChild>
            <Link to={paths.parsers}>Back to parsers</Link>
          </Button>
        </div>
      </Frame>
    )
  }

  const view = parser.data
  return (
    <Frame>
      <ParserSummary parser={view} onTest={() => setTesting(true)} onDelete={() => setDeleting(true)} />
      <ParserEmailsSection parser={view} />
      <TestParserDialog parser={isTesting ? view : null} onOpenChange={(open) => !open && setTesting(false)} />
      <DeleteParserDialog parser={isDeleting ? view : null} onOpenChange={(open) => !open && setDeleting(false)} onDeleted={() => navigate(paths.parsers)} />
    </Frame>
  )
}

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <div className="min-h-screen bg-muted/40">
      <AppHeader />
      <main className="mx-auto grid max-w-6xl grid-cols-1 gap-6 px-4 py-8">
        <Link to={paths.parsers} className="flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
          <ArrowLeft className="size-4" aria-hidden />
          All parsers
        </Link>
        {children}
      </main>
    </div>
  )
}

function ParserSummary({ parser, onTest, onDelete }: { parser: ParserView; onTest: () => void; onDelete: () => void }) {
  const filters = [parser.filter_from && `From ${parser.filter_from}`, parser.filter_subject && `Subject "${parser.filter_subject}"`, parser.filter_label && `Label ${parser.filter_label}`].filter(Boolean)
  const sheetUrl = parser.destination_config?.spreadsheetUrl

  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-3xl font-bold tracking-tight break-words">{parser.name}</h1>
          <ParserStateBadge parser={parser} />
        </div>
        <p className="text-sm text-muted-foreground">
          Type: {parser.parser_type} • {parser.active ? 'Active' : 'Inactive'}
          {filters.length > 0 ? ` • ${filters.join(' · ')}` : ''}
        </p>
        <p className="text-sm text-muted-foreground">Fields: {parser.extraction_fields.map((f) => f.name).join(', ')}</p>
        <BackfillProgress parser={parser} className="mt-2 max-w-md" />
        {parser.alert ? (
          <p role="alert" className="mt-2 text-sm text-destructive">
            {parser.alert}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2 sm:shrink-0 sm:justify-end">
        {sheetUrl ? (
          <Button size="sm" variant="outline" asChild>
            <a href={sheetUrl} target="_blank" rel="noreferrer">
              <ExternalLink aria-hidden />
              Open in Sheets
            </a>
          </Button>
        ) : null}
        <Button size="sm" variant="outline" asChild>
          <Link to={editParserPath(parser.id)} aria-label={`Edit ${parser.name}`}>
            <Pencil aria-hidden />
            Edit
          </Link>
        </Button>
        <Button size="sm" onClick={onTest} aria-label={`Test Parser: ${parser.name}`}>
          <FlaskConical aria-hidden />
          Test Parser
        </Button>
        <PauseResumeButton parser={parser} />
        <Button size="sm" variant="outline" onClick={onDelete} aria-label={`Delete ${parser.name}`} className="text-destructive hover:text-destructive">
          <Trash2 aria-hidden />
          Delete
        </Button>
      </div>
    </div>
  )
}

const FILTER_LABELS: Record<ParserEmailFilter, string> = {
  all: 'All',
  success: 'Success',
  partial: 'Partial',
  failed: 'Failed',
  waiting: 'Waiting',
  skipped: 'Skipped',
}

function readFilter(value: string | null): ParserEmailFilter {
  return (PARSER_EMAIL_FILTERS as readonly string[]).includes(value ?? '') ? (value as ParserEmailFilter) : 'all'
}

/** The parser's emails; page, search and filter live in the address so a reload keeps them. */
function ParserEmailsSection({ parser }: { parser: ParserView }) {
  const [params, setParams] = useSearchParams()
  const page = Math.max(1, Number(params.get('page')) || 1)
  const q = params.get('q') ?? ''
  const status = readFilter(params.get('status'))
  const update = (patch: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current)
        for (const [key, value] of Object.entries(patch)) {
          if (value === null || value === '' || (key === 'page' && value === '1') || (key === 'status' && value === 'all')) next.delete(key)
          else next.set(key, value)
        }
        return next
      },
      { replace: true },
    )

  return (
    <section aria-labelledby="parser-emails-heading">
      <Card>
        <CardHeader className="p-4 sm:p-6">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="grid gap-1.5">
              <h2 id="parser-emails-heading" className="text-lg font-semibold leading-none tracking-tight">
                Emails
              </h2>
              <CardDescription>Every email this parser received, with the values it extracted. Open one it got wrong to teach it.</CardDescription>
            </div>
            <ExportButtons parserId={parser.id} parserName={parser.name} q={q} status={status} />
          </div>
        </CardHeader>
        <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
          <ParserEmailsTable
            parser={parser}
            query={{ page, pageSize: PARSER_EMAILS_PAGE_SIZE, q, status }}
            filterLabels={FILTER_LABELS}
            onQueryChange={(patch) =>
              update({
                ...(patch.q !== undefined ? { q: patch.q, page: '1' } : {}),
                ...(patch.status !== undefined ? { status: patch.status, page: '1' } : {}),
                ...(patch.page !== undefined ? { page: String(patch.page) } : {}),
              })
            }
          />
        </CardContent>
      </Card>
    </section>
  )
}
