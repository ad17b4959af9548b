import { Loader2 } from 'lucide-react'

/**
 * Full-page spinner shown while the session check runs (spec §2). Apart from Spinner (and its
 * tailwind-merge) because the router, on the landing page's critical path, shows it.
 */
export function PageSpinner() {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <span role="status" aria-label="Checking your session" className="inline-flex">
        <Loader2 className="size-8 animate-spin text-muted-foreground" aria-hidden />
      </span>
    </div>
  )
}
