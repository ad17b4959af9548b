import { lazy, Suspense } from 'react'
import { RouterProvider } from 'react-router'
import { DemoBanner } from '../components/layout/demo-banner'
import { router } from './router'

// Toasts load after the first paint; every toast is raised after user input, long after that.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })))

export function App() {
  return (
    <>
      <Suspense fallback={null}>
        <DemoBanner />
      </Suspense>
      <RouterProvider router={router} />
      <Suspense fallback={null}>
        <Toaster richColors closeButton position="top-right" />
      </Suspense>
    </>
  )
}
