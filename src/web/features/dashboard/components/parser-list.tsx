import { AlertTriangle, FlaskConical, Trash2 } from 'lucide-react'
import { Link } from 'react-router'
import { toast } from 'sonner'
import type { ParserView } from '@shared/contracts/parsers'
import { parserPath, trainOnEmailPath } from '@shared/paths'
import { Button } from '@web/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card'
import { useStartGmailConnection } from '../../connections/api/gmail-connection'
import { BackfillProgress } from './backfill-progress'
import { ParserStateBadge } from './status-badges'
import { UPGRADE_PATH } from '../../parsers/upgrade'
import { PauseResumeButton } from './pause-resume-button'

type ParserListProps = {
  parsers: ParserView[]
  onTest: (parser: ParserView) => void
  onDelete: (parser: ParserView) => void
  /** Opens one parsed email's detail (the emails a layout change affected). */
  onView: (parsedEmailId: string) => void
}

/** 'Your Parsers' (spec §2), with pause / resume and delete. The id is the top bar's 'Parsers' target. */
export function ParserList({ parsers, onTest, onDelete, onView }: ParserListProps) {
  return (
    <section id="parsers" aria-labelledby="parsers-heading" className="scroll-mt-6">
      <Card>
        <CardHeader className="p-4 sm:p-6">
          <h2 id="parsers-heading" tabIndex={-1} className="text-lg font-semibold leading-none tracking-tight focus-visible:outline-none">
            Your Parsers
          </h2>
          <CardDescription>
            {parsers.length === 1 ? '1 parser' : `${parsers.length} parsers`} · {parsers.filter((p) => p.active).length} active
          </CardDescription>
        </CardHeader>
        <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
          <ul className="grid gap-3">
            {parsers.map((parser) => (
              <ParserRow key={parser.id} parser={parser} onTest={() => onTest(parser)} onDelete={() => onDelete(parser)} onView={onView} />
            ))}
          </ul>
        </CardContent>
      </Card>
    </section>
  )
}

function ParserRow({ parser, onTest, onDelete, onView }: { parser: ParserView; onTest: () => void; onDelete: () => void; onView: (id: string) => void }) {
  const filters = [parser.filter_from && `From ${parser.filter_from}`, parser.filter_subject && `Subject "${parser.filter_subject}"`, parser.filter_label && `Label ${parser.filter_label}`].filter(Boolean)



  return (
    <li className="flex flex-col gap-3 rounded-md border p-3 sm:p-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <Link to={parserPath(parser.id)} className="font-medium break-words underline-offset-4 hover:underline">
              {parser.name}
            </Link>
            <ParserStateBadge parser={parser} />
          </div>
          <p className="text-sm text-muted-foreground">
            Type: {parser.parser_type} • {parser.active ? 'Active' : 'Inactive'}
          </p>
          {filters.length > 0 || parser.extraction_fields.length > 0 ? (
            <p className="mt-1 text-xs break-words text-muted-foreground">
              {[...filters, `${parser.extraction_fields.length} ${parser.extraction_fields.length === 1 ? 'field' : 'fields'}`].join(' · ')}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2 sm:shrink-0 sm:justify-end">
          <Button size="sm" onClick={onTest} aria-label={`Test Parser: ${parser.name}`}>
            <FlaskConical aria-hidden />
            Test Parser
          </Button>
          <PauseResumeButton parser={parser} />
          <Button size="sm" variant="outline" onClick={onDelete} aria-label={`Delete ${parser.name}`} className="text-destructive hover:text-destructive">
            <Trash2 aria-hidden />
            <span className="max-sm:sr-only">Delete</span>
          </Button>
        </div>
      </div>
      <BackfillProgress parser={parser} />
      {parser.alert ? <ParserAlert message={parser.alert} isPausedByPlan={parser.paused_by_plan} /> : null}
      {parser.layout_changed ? <LayoutChanged parser={parser} emails={parser.layout_changed} onView={onView} /> : null}
      {parser.relearned ? (
        <p className="text-xs text-muted-foreground">
          The sender's layout changed; {parser.name} re-learned its template from “{parser.relearned.subject || '(no subject)'}” on {new Date(parser.relearned.at).toLocaleDateString()}.
        </p>
      ) : null}
    </li>
  )
}

/** Why an active parser is stalled (Gmail needs reconnecting, or the plan no longer allows it), with the way out. */
function ParserAlert({ message, isPausedByPlan }: { message: string; isPausedByPlan: boolean }) {
  const reconnect = useStartGmailConnection('dashboard')
  if (isPausedByPlan) {
    return (
      <div role="alert" className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 sm:flex-row sm:items-center sm:justify-between">
        <p className="flex items-start gap-2">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>{message}</span>
        </p>
        <Button size="sm" variant="outline" className="border-amber-400 bg-white text-amber-900 hover:bg-amber-100 sm:shrink-0" asChild>
          <Link to={UPGRADE_PATH}>See plans</Link>
        </Button>
      </div>
    )
  }
  return (
    <div role="alert" className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 sm:flex-row sm:items-center sm:justify-between">
      <p className="flex items-start gap-2">
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>{message}</span>
      </p>
      <Button
        size="sm"
        variant="outline"
        className="border-amber-400 bg-white text-amber-900 hover:bg-amber-100 sm:shrink-0"
        disabled={reconnect.isPending}
        onClick={() => reconnect.mutate(undefined, { onError: (error) => toast.error('Error connecting Gmail', { description: error.message }) })}
      >
        {reconnect.isPending ? 'Connecting...' : 'Reconnect'}
      </Button>
    </div>
  )
}

/**
 * The sender's emails stopped matching what the parser learned: which emails came back
 * incomplete, each openable to see which fields are missing and why.
 */
function LayoutChanged({ parser, emails, onView }: { parser: ParserView; emails: NonNullable<ParserView['layout_changed']>; onView: (id: string) => void }) {
  const shown = emails.slice(0, 5)
  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      <p className="flex items-start gap-2">
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>
          Layout changed: the last {emails.length === 1 ? 'email' : `${emails.length} emails`} for {parser.name} came back incomplete. The sender may have
          changed how their emails look; open one to see which fields are missing.
        </span>
      </p>
      <ul className="mt-2 grid gap-1 pl-6">
        {shown.map((email) => (
          <li key={email.id} className="flex items-center justify-between gap-2">
            <span className="min-w-0 truncate">{email.subject || '(no subject)'}</span>
            <span className="flex shrink-0 gap-2">
              <Button size="sm" variant="outline" className="border-amber-400 bg-white text-amber-900 hover:bg-amber-100" onClick={() => onView(email.id)} aria-label={`View ${email.subject || 'email'}`}>
                View
              </Button>
              <Button size="sm" variant="outline" className="border-amber-400 bg-white text-amber-900 hover:bg-amber-100" asChild>
                <Link to={trainOnEmailPath(parser.id, email.id)} aria-label={`Fix ${email.subject || 'email'}: train on this email`}>
                  Fix
                </Link>
              </Button>
            </span>
          </li>
        ))}
      </ul>
      {emails.length > shown.length ? <p className="mt-1 pl-6 text-xs">and {emails.length - shown.length} more</p> : null}
    </div>
  )
}
