import { FlaskConical } from 'lucide-react'
import { use } from 'react'
import type { PublicConfig } from '@shared/contracts/account'

// Read once per page load, on first render (never at import: the landing page is also rendered at
// build time); plain fetch keeps the query library off the landing page.
let configPromise: Promise<PublicConfig | null> | undefined
function loadConfig() {
  configPromise ??= fetch('/api/config')
    .then((response) => (response.ok ? (response.json() as Promise<{ config: PublicConfig }>) : null))
    .then((body) => body?.config ?? null)
    .catch(() => null)
  return configPromise
}

/** Shown on every page when Mailrow talks to the local Google emulator instead of Google. */
export function DemoBanner() {
  const config = use(loadConfig())
  if (!config?.demoMode) return null
  return (
    <div role="status" className="flex items-center justify-center gap-2 bg-amber-100 px-4 py-1.5 text-center text-xs font-medium text-amber-900">
      <FlaskConical className="size-3.5" aria-hidden />
      Demo mode: local Google emulator. Gmail and Sheets here are simulated; no real Google account is used.
    </div>
  )
}
