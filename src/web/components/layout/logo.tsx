import { Mail } from 'lucide-react'
import { Link } from 'react-router'
import { paths } from '../../../shared/paths'

export function Logo({ to = paths.home }: { to?: string }) {
  return (
    <Link to={to} className="flex items-center gap-2 text-lg font-bold tracking-tight">
      <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
        <Mail className="size-4" aria-hidden />
      </span>
      Mailrow
    </Link>
  )
}
