import { Navigate, Outlet, useLocation } from 'react-router'
import { PageSpinner } from '../../components/ui/page-spinner'
import { signOutState, useSession } from '../../lib/auth-client'
import { paths } from '@shared/paths'

/** Protected routes: a spinner while the session check runs, then /login (replacing history). */
export function RequireSession() {
  const { data, isPending } = useSession()
  const location = useLocation()
  if (isPending) return <PageSpinner />
  if (!data && signOutState.inProgress) return <PageSpinner />
  if (!data) return <Navigate to={paths.login} replace state={{ from: location.pathname }} />
  return <Outlet />
}

/** Sign-in and sign-up: a signed-in user goes straight to the dashboard (spec §2). */
export function RedirectIfSignedIn() {
  const { data, isPending } = useSession()
  if (isPending) return <PageSpinner />
  if (data) return <Navigate to={paths.dashboard} replace />
  return <Outlet />
}
