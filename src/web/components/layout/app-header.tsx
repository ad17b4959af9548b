import { LogOut, Settings } from 'lucide-react'
import { Link, useLocation, useNavigate } from 'react-router'
import { paths } from '@shared/paths'
import { useSignOut } from '../../features/auth/use-sign-out'
import { PaymentIssueBanner } from '../../features/billing/payment-issue-banner'
import { NotificationsMenu } from '../../features/notifications/components/notifications-menu'
import { Button } from '../ui/button'
import { Logo } from './logo'
import { MobileNav } from './mobile-nav'

/** Top bar of signed-in screens (spec §2 dashboard). */
export function AppHeader() {
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const signOut = useSignOut()
  const onDashboard = pathname === paths.dashboard
  const onParsers = pathname === paths.parsers || pathname.startsWith(`${paths.parsers}/`)
  return (
    <header className="relative border-b bg-background">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:gap-4">
        <div className="flex min-w-0 items-center gap-6">
          <Logo to={paths.dashboard} />
          <nav aria-label="Main" className="hidden items-center gap-1 sm:flex">
            <Button
              variant="ghost"
              size="sm"
              aria-current={onDashboard ? 'page' : undefined}
              className="aria-[current=page]:bg-muted"
              onClick={() => navigate(paths.dashboard)}
            >
              Dashboard
            </Button>
            <Button
              variant="ghost"
              size="sm"
              aria-current={onParsers ? 'page' : undefined}
              className="aria-[current=page]:bg-muted"
              onClick={() => navigate(paths.parsers)}
            >
              Parsers
            </Button>
          </nav>
        </div>
        <div className="flex items-center gap-1">
          <MobileNav />
          <NotificationsMenu />
          <Button variant="ghost" size="icon" aria-label="Settings" asChild>
            <Link to={paths.settings}>
              <Settings />
            </Link>
          </Button>
          <Button variant="outline" size="sm" onClick={() => void signOut()}>
            <LogOut />
            Sign Out
          </Button>
        </div>
      </div>
      <PaymentIssueBanner />
    </header>
  )
}
