import { Bell, LogOut, Settings } from 'lucide-react'
import { Link, useNavigate } from 'react-router'
import { paths } from '../../../shared/paths'
import { useSignOut } from '../../features/auth/use-sign-out'
import { Button } from '../ui/button'
import { Logo } from './logo'

/** Top bar of signed-in screens (spec §2 dashboard). */
export function AppHeader() {
  const navigate = useNavigate()
  const signOut = useSignOut()
  return (
    <header className="border-b bg-background">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <div className="flex items-center gap-6">
          <Logo to={paths.dashboard} />
          <nav className="hidden items-center gap-1 sm:flex">
            <Button variant="ghost" size="sm" onClick={() => navigate(paths.dashboard)}>
              Dashboard
            </Button>
            <Button variant="ghost" size="sm">
              Parsers
            </Button>
          </nav>
        </div>
        <div className="flex items-center gap-1">
          <Button variant="ghost" size="icon" aria-label="Notifications">
            <Bell />
          </Button>
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
    </header>
  )
}
