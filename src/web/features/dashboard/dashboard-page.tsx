import { useGmailCallback } from '../connections/use-gmail-callback'
import { Activity, CheckCircle2, Inbox, Plus } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link, useLocation } from 'react-router'
import { toast } from 'sonner'
import type { ParserView } from '@shared/contracts/parsers'
import { paths } from '@shared/paths'
import { AppHeader } from '../../components/layout/app-header'
import { Button } from '../../components/ui/button'
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card'
import { Spinner } from '../../components/ui/spinner'
import { useDashboard } from './api/get-dashboard'
import { DeleteParserDialog } from './components/delete-parser-dialog'
import { ParsedEmailDialog } from './components/parsed-email-dialog'
import { ParserList } from './components/parser-list'
import { RecentEmailsTable } from './components/recent-emails-table'
import { StatCard } from './components/stat-card'
import { TestParserDialog } from './components/test-parser-dialog'

export function DashboardPage() {
  // A parser's Reconnect comes back here.
  useGmailCallback(paths.dashboard, 'Your parsers read emails and write rows with it.')
  const { data, isPending, error } = useDashboard()
  const location = useLocation()
  const [testing, setTesting] = useState<ParserView | null>(null)
  const [deleting, setDeleting] = useState<ParserView | null>(null)
  const [viewing, setViewing] = useState<string | null>(null)

  useEffect(() => {
    if (error) toast.error('Error loading dashboard data', { description: error.message || 'Failed to fetch data' })
  }, [error])

  // The top bar's 'Parsers' goes to /dashboard#parsers; the list only exists once data has loaded,
  // and a second click keeps the same hash, so the location key triggers the scroll too.
  const hasData = data !== undefined
  useEffect(() => {
    if (!hasData || location.hash !== '#parsers') return
    const target = document.getElementById('parsers') ?? document.getElementById('recent-emails')
    target?.scrollIntoView({ behavior: 'smooth', block: 'start' })
    target?.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true })
  }, [hasData, location.hash, location.key])

  const parsers = data?.parsers ?? []
  const recent = data?.recentEmails ?? []

  return (
    <div className="min-h-screen bg-muted/40">
      <AppHeader />
      <main className="mx-auto grid max-w-6xl grid-cols-1 gap-8 px-4 py-8">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-3xl font-bold tracking-tight">Dashboard</h1>
            <p className="text-muted-foreground">Monitor your email parsing activity</p>
          </div>
          <Button asChild>
            <Link to={paths.createParser}>
              <Plus />
              Create New Parser
            </Link>
          </Button>
        </div>

        <section className="grid grid-cols-3 gap-2 sm:gap-4" aria-label="Statistics">
          <StatCard label="Emails parsed" icon={Inbox} isLoading={isPending} value={String(data?.stats.emailsParsed ?? 0)} />
          <StatCard label="Active parsers" icon={Activity} isLoading={isPending} value={String(data?.stats.activeParsers ?? 0)} />
          <StatCard label="Success rate" icon={CheckCircle2} isLoading={isPending} value={`${data?.stats.successRate ?? 0}%`} />
        </section>
        {data && data.stats.waitingForAllowance > 0 ? (
          <p role="status" className="-mt-2 rounded-md border bg-background px-3 py-2 text-sm text-muted-foreground">
            {data.stats.waitingForAllowance === 1 ? '1 email is' : `${data.stats.waitingForAllowance} emails are`} waiting for allowance: this month&apos;s email limit
            was reached. {data.stats.waitingForAllowance === 1 ? 'It is' : 'They are'} not counted as parsed or failed, and will be parsed when your allowance
            allows.
          </p>
        ) : null}

        {parsers.length > 0 && <ParserList parsers={parsers} onTest={setTesting} onDelete={setDeleting} onView={setViewing} />}

        <section id="recent-emails" aria-labelledby="recent-emails-heading" className="scroll-mt-6">
          <Card>
            <CardHeader className="p-4 sm:p-6">
              <h2 id="recent-emails-heading" tabIndex={-1} className="text-lg font-semibold leading-none tracking-tight focus-visible:outline-none">
                Recent Parsed Emails
              </h2>
              <CardDescription>The last 10 emails your parsers processed</CardDescription>
            </CardHeader>
            <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
              {isPending ? (
                <div className="flex min-h-56 items-center justify-center">
                  <Spinner label="Loading recent emails" />
                </div>
              ) : recent.length > 0 ? (
                <RecentEmailsTable emails={recent} onView={setViewing} />
              ) : (
                <div className="flex min-h-56 flex-col items-center justify-center gap-3 text-center">
                  <Inbox className="size-10 text-muted-foreground" aria-hidden />
                  <p className="font-medium">No emails parsed yet</p>
                  {parsers.length > 0 ? (
                    <>
                      <p className="text-sm text-muted-foreground">Your parsers are ready. Test them or wait for matching emails to arrive.</p>
                      <Button variant="outline" asChild>
                        <Link to={paths.createParser}>Create Another Parser</Link>
                      </Button>
                    </>
                  ) : (
                    <>
                      <p className="text-sm text-muted-foreground">Create your first parser to start extracting data from emails</p>
                      <Button asChild>
                        <Link to={paths.createParser}>Create New Parser</Link>
                      </Button>
                    </>
                  )}
                </div>
              )}
            </CardContent>
          </Card>
        </section>
      </main>

      <TestParserDialog parser={testing} onOpenChange={(open) => !open && setTesting(null)} />
      <DeleteParserDialog parser={deleting} onOpenChange={(open) => !open && setDeleting(null)} />
      <ParsedEmailDialog parsedEmailId={viewing} onOpenChange={(open) => !open && setViewing(null)} />
    </div>
  )
}
