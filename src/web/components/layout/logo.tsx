import { Mail } from 'lucide-react'
import { paths } from '@shared/paths'
import { SiteLink } from './site-link'

export function Logo({ to = paths.home }: { to?: string }) {
  return (
    <SiteLink to={to} className="flex items-center gap-2 text-lg font-bold tracking-tight">
      <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
        <Mail className="size-4" aria-hidden />
      </span>
      Mailrow
    </SiteLink>
  )
}
