import { FlaskConical } from 'lucide-react'
import { usePublicConfig } from '../../features/config/use-public-config'

/** Shown on every page when Mailrow talks to the local Google emulator instead of Google. */
export function DemoBanner() {
  const { data } = usePublicConfig()
  if (!data?.demoMode) return null
  return (
    <div role="status" className="flex items-center justify-center gap-2 bg-amber-100 px-4 py-1.5 text-center text-xs font-medium text-amber-900">
      <FlaskConical className="size-3.5" aria-hidden />
      Demo mode: local Google emulator. Gmail and Sheets here are simulated; no real Google account is used.
    </div>
  )
}
