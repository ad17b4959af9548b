import { ArrowLeft } from 'lucide-react'
import { useEffect } from 'react'
import { Link, useLocation } from 'react-router'
import { paths } from '@shared/paths'
import { Logo } from '../../components/layout/logo'
import { Button } from '../../components/ui/button'
import { SiteFooter } from '../../components/layout/site-footer'

const NOT_FOUND_LOG_URL = '/api/client-log/not-found'

/** Sends the unknown path to the server log; a beacon survives the user leaving the page. */
function reportNotFound(path: string) {
  const body = JSON.stringify({ path })
  if (typeof navigator.sendBeacon === 'function') {
    const isQueued = navigator.sendBeacon(NOT_FOUND_LOG_URL, new Blob([body], { type: 'application/json' }))
    if (isQueued) return
  }
  fetch(NOT_FOUND_LOG_URL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
    keepalive: true,
  }).catch(() => {
    // Reporting is best effort; the console error above is the fallback.
  })
}

/** Any unknown route (spec §2, §8): logged, then 'Oops! Page not found'. */
export function NotFoundPage() {
  const location = useLocation()

  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', location.pathname)
    reportNotFound(location.pathname)
  }, [location.pathname])

  return (
    <div className="flex min-h-screen flex-col bg-background">
      <header className="border-b border-border/70">
        <div className="mx-auto flex h-16 max-w-6xl items-center px-4 sm:px-6">
          <Logo />
        </div>
      </header>
      <main className="relative isolate flex flex-1 items-center justify-center overflow-hidden px-4 py-24">
        <div
          aria-hidden
          className="absolute top-1/2 left-1/2 -z-10 h-[28rem] w-[40rem] -translate-x-1/2 -translate-y-1/2 rounded-full bg-[radial-gradient(closest-side,var(--color-accent),transparent)]"
        />
        <div className="max-w-md text-center">
          <p className="bg-linear-to-b from-foreground to-foreground/40 bg-clip-text text-8xl font-bold tracking-tighter text-transparent sm:text-9xl">
            404
          </p>
          <h1 className="mt-4 text-2xl font-semibold tracking-tight sm:text-3xl">Oops! Page not found</h1>
          <p className="mt-3 text-base leading-7 text-pretty text-muted-foreground">
            We couldn't find{' '}
            <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-sm break-all">{location.pathname}</code>. It
            may have moved, or the link may be mistyped.
          </p>
          <Button size="lg" className="mt-8" asChild>
            <Link to={paths.home}>
              <ArrowLeft aria-hidden />
              Return to Home
            </Link>
          </Button>
        </div>
      </main>
      <SiteFooter />
    </div>
  )
}
