import { Activity, CheckCircle2, Inbox, Plus } from 'lucide-react'
import { useEffect } from 'react'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { paths } from '../../../shared/paths'
import { AppHeader } from '../../components/layout/app-header'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import { Spinner } from '../../components/ui/spinner'
import { useDashboard } from './api/get-dashboard'
import { RecentEmailsTable } from './components/recent-emails-table'
import { StatCard } from './components/stat-card'

export function DashboardPage() {
  const { data, isPending, error } = useDashboard()

  useEffect(() => {
    if (error) toast.error('Error loading dashboard data', { description: error.message || 'Failed to fetch data' })
  }, [error])

  const parsers = data?.parsers ?? []
  const recent = data?.recentEmails ?? []

  return (
    <div className="min-h-screen bg-muted/40">
      <AppHeader />
      <main className="mx-auto grid max-w-6xl gap-8 px-4 py-8">
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

        <section className="grid gap-4 sm:grid-cols-3" aria-label="Statistics">
          <StatCard label="Emails parsed" icon={Inbox} isLoading={isPending} value={String(data?.stats.emailsParsed ?? 0)} />
          <StatCard label="Active parsers" icon={Activity} isLoading={isPending} value={String(data?.stats.activeParsers ?? 0)} />
          <StatCard label="Success rate" icon={CheckCircle2} isLoading={isPending} value={`${data?.stats.successRate ?? 0}%`} />
        </section>

        {parsers.length > 0 && (
          <Card>
            <CardHeader>
              <CardTitle>Your Parsers</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-3">
              {parsers.map((parser) => (
                <div key={parser.id} className="flex items-center justify-between rounded-md border p-4">
                  <div>
                    <p className="font-medium">{parser.name}</p>
                    <p className="text-sm text-muted-foreground">
                      Type: {parser.parser_type} • {parser.active ? 'Active' : 'Inactive'}
                    </p>
                  </div>
                  <Badge variant={parser.active ? 'success' : 'secondary'}>{parser.active ? 'Active' : 'Inactive'}</Badge>
                </div>
              ))}
            </CardContent>
          </Card>
        )}

        <Card>
          <CardHeader>
            <CardTitle>Recent Parsed Emails</CardTitle>
            <CardDescription>The last 10 emails your parsers processed</CardDescription>
          </CardHeader>
          <CardContent>
            {isPending ? (
              <div className="flex justify-center py-10">
                <Spinner />
              </div>
            ) : recent.length > 0 ? (
              <RecentEmailsTable emails={recent} />
            ) : (
              <div className="flex flex-col items-center gap-3 py-10 text-center">
                <Inbox className="size-10 text-muted-foreground" aria-hidden />
                <p className="font-medium">No emails parsed yet</p>
                {parsers.length > 0 ? (
                  <>
                    <p className="text-sm text-muted-foreground">
                      Your parsers are ready. Test them or wait for matching emails to arrive.
                    </p>
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
      </main>
    </div>
  )
}
