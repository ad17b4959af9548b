import { QueryClientProvider } from '@tanstack/react-query'
import { Outlet } from 'react-router'
import { SkipLink } from '../components/layout/skip-link'
import { queryClient } from '../lib/query-client'
import { ToastsPerPage } from './toasts-per-page'
// Before any form parses: zod without code generation (CSP). Not on the landing page, which has no forms.
import '../lib/zod-config'

/**
 * Everything but the landing page: loaded on first navigation, so the landing page ships only
 * React, the router and its own markup.
 */
export function AppShell() {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastsPerPage />
      <SkipLink />
      <Outlet />
    </QueryClientProvider>
  )
}
