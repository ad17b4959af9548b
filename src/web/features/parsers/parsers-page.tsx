import { Plus, Workflow } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { toast } from 'sonner'
import type { ParserView } from '@shared/contracts/parsers'
import { paths } from '@shared/paths'
import { AppHeader } from '../../components/layout/app-header'
import { Button } from '../../components/ui/button'
import { Spinner } from '../../components/ui/spinner'
import { DeleteParserDialog } from '../dashboard/components/delete-parser-dialog'
import { ParsedEmailDialog } from '../dashboard/components/parsed-email-dialog'
import { ParserList } from '../dashboard/components/parser-list'
import { TestParserDialog } from '../dashboard/components/test-parser-dialog'
import { useParsersList } from './api/parser-pages'

/** The top bar's 'Parsers': every parser of the user, each opening its own page. */
export function ParsersPage() {
  const { data: parsers, isPending, error } = useParsersList()
  const [testing, setTesting] = useState<ParserView | null>(null)
  const [deleting, setDeleting] = useState<ParserView | null>(null)
  const [viewing, setViewing] = useState<string | null>(null)

  useEffect(() => {
    if (error) toast.error('Error loading parsers', { description: error.message || 'Failed to fetch data' })
  }, [error])

  return (
    <div className="min-h-screen bg-muted/40">
      <AppHeader />
      <main className="mx-auto grid max-w-6xl grid-cols-1 gap-8 px-4 py-8">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-3xl font-bold tracking-tight">Parsers</h1>
            <p className="text-muted-foreground">Open a parser to see its emails, fix what it got wrong and reprocess them.</p>
          </div>
          <Button asChild>
            <Link to={paths.createParser}>
              <Plus />
              Create New Parser
            </Link>
          </Button>
        </div>
        {isPending ? (
          <div className="flex min-h-56 items-center justify-center">
            <Spinner label="Loading parsers" />
          </div>
        ) : parsers && parsers.length > 0 ? (
          <ParserList parsers={parsers} onTest={setTesting} onDelete={setDeleting} onView={setViewing} />
        ) : (
          <div className="flex min-h-56 flex-col items-center justify-center gap-3 rounded-lg border bg-background text-center">
            <Workflow className="size-10 text-muted-foreground" aria-hidden />
            <p className="font-medium">No parsers yet</p>
            <p className="text-sm text-muted-foreground">Create your first parser to start extracting data from emails</p>
          </div>
        )}
      </main>
      <TestParserDialog parser={testing} onOpenChange={(open) => !open && setTesting(null)} />
      <DeleteParserDialog parser={deleting} onOpenChange={(open) => !open && setDeleting(null)} />
      <ParsedEmailDialog parsedEmailId={viewing} onOpenChange={(open) => !open && setViewing(null)} />
    </div>
  )
}
