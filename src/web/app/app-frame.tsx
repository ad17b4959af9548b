import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react'
import { DemoBanner } from '../components/layout/demo-banner'

// Toasts load after the first paint; every toast is raised after user input, long after that.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })))

const noSubscription = () => () => {}
/** False while rendering at build time and while hydrating that HTML; true in the browser after. */
function useHydrated() {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  )
}

/**
 * What every page has around its route: the demo banner and the toaster. Both are left out of the
 * prerendered landing page and of the render that hydrates it, so the two match.
 */
export function AppFrame({ children }: { children: ReactNode }) {
  const mounted = useHydrated()
  return (
    <>
      {mounted && (
        <Suspense fallback={null}>
          <DemoBanner />
        </Suspense>
      )}
      {children}
      {mounted && (
        <Suspense fallback={null}>
          {/* Below the top bar (and the demo banner above it), so a toast never covers Sign Out. */}
          <Toaster richColors closeButton position="top-right" offset={{ top: 104, right: 16 }} mobileOffset={{ top: 116, left: 8, right: 8 }} />
        </Suspense>
      )}
    </>
  )
}
