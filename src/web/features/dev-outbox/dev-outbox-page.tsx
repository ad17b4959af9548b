import { queryOptions, useQuery } from '@tanstack/react-query'
import { Inbox, RefreshCw } from 'lucide-react'
import type { ReactNode } from 'react'
import { Logo } from '../../components/layout/logo'
import { Button } from '../../components/ui/button'
import { Card, CardContent, CardHeader } from '../../components/ui/card'
import { Spinner } from '../../components/ui/spinner'
import { api, ApiError, unwrap } from '../../lib/api-client'
import { cn } from '../../lib/utils'

const outboxQuery = queryOptions({
  queryKey: ['dev-outbox'],
  queryFn: async () => (await unwrap(api.dev.outbox.$get())).messages,
  // Mail arrives while the page is open (a reset link was just requested): always ask again.
  staleTime: 0,
})

/** Mail the server kept instead of sending, when no SMTP server is configured (development). */
export function DevOutboxPage() {
  const outbox = useQuery(outboxQuery)
  const isOff = outbox.error instanceof ApiError && outbox.error.status === 404
  const messages = [...(outbox.data ?? [])].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))

  return (
    <div className="min-h-screen bg-muted/30">
      <header className="border-b bg-background">
        <div className="mx-auto flex h-16 max-w-4xl items-center px-4">
          <Logo />
        </div>
      </header>
      <main className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-8">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-3xl font-bold tracking-tight">Development outbox</h1>
            <p className="text-muted-foreground">Mail this server would have sent, newest first.</p>
          </div>
          <Button variant="outline" onClick={() => void outbox.refetch()} disabled={outbox.isFetching}>
            <RefreshCw className={cn(outbox.isFetching && 'animate-spin')} aria-hidden />
            Refresh
          </Button>
        </div>

        {outbox.isPending ? (
          <div className="flex justify-center py-12">
            <Spinner className="size-8" label="Loading the outbox" />
          </div>
        ) : isOff ? (
          <p role="status" className="rounded-lg border bg-card p-6">
            The development outbox is off: this server sends mail over SMTP.
          </p>
        ) : outbox.isError ? (
          <p role="alert" className="rounded-lg border bg-card p-6 text-destructive">
            {outbox.error.message}
          </p>
        ) : messages.length === 0 ? (
          <div className="flex flex-col items-center gap-2 rounded-lg border bg-card p-10 text-center text-muted-foreground">
            <Inbox className="size-8" aria-hidden />
            <p>No mail yet. Password-reset links and other mail will show up here.</p>
          </div>
        ) : (
          <ul className="flex flex-col gap-4" aria-label="Messages">
            {messages.map((message) => (
              <li key={message.id}>
                <Card>
                  <CardHeader className="gap-1">
                    <h2 className="text-lg font-semibold">{message.subject}</h2>
                    <p className="text-sm text-muted-foreground">
                      To <span className="font-medium text-foreground">{message.to}</span> ·{' '}
                      <time dateTime={message.createdAt}>{new Date(message.createdAt).toLocaleString()}</time>
                    </p>
                  </CardHeader>
                  <CardContent>
                    <pre className="overflow-x-auto rounded-md bg-muted/50 p-4 font-mono text-sm whitespace-pre-wrap break-words">
                      {linkify(message.text)}
                    </pre>
                  </CardContent>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </main>
    </div>
  )
}

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g
// Sentence punctuation right after a link belongs to the sentence, not the address.
const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/

/** Text with its http(s) addresses as links; everything else stays text (React escapes it). */
function linkify(text: string): ReactNode[] {
  const nodes: ReactNode[] = []
  let last = 0
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0].replace(TRAILING_PUNCTUATION, '')
    const start = match.index
    if (start > last) nodes.push(text.slice(last, start))
    nodes.push(
      isHttpUrl(url) ? (
        <a key={start} href={url} className="text-primary underline underline-offset-2 break-all">
          {url}
        </a>
      ) : (
        url
      ),
    )
    last = start + url.length
  }
  if (last < text.length) nodes.push(text.slice(last))
  return nodes
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}
