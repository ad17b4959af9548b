import { QueryClientProvider } from '@tanstack/react-query'
import { Outlet } from 'react-router'
import { queryClient } from '../lib/query-client'

/**
 * Everything but the landing page: loaded on first navigation, so the landing page ships only
 * React, the router and its own markup.
 */
export function AppShell() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  )
}
