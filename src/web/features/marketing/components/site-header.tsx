import { paths } from '@shared/paths'
import { Logo } from '@web/components/layout/logo'
import { buttonVariants } from '@web/components/ui/button-variants'
import { SiteLink } from '@web/components/layout/site-link'

const sectionLinks = [
  { href: '#features', label: 'Features' },
  { href: '#how-it-works', label: 'How it works' },
  { href: '#pricing', label: 'Pricing' },
] as const

/** Public top bar (spec §2 landing page): logo, Sign In and Start Free Trial. */
export function SiteHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-border/70 bg-background/80 backdrop-blur-md">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <div className="flex items-center gap-8">
          <Logo />
          <nav aria-label="Sections" className="hidden md:block">
            <ul className="flex items-center gap-1">
              {sectionLinks.map((link) => (
                <li key={link.href}>
                  <a
                    href={link.href}
                    className="rounded-md px-3 py-2 text-sm text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </div>
        <div className="flex items-center gap-2">
          <SiteLink to={paths.login} className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
            Sign In
          </SiteLink>
          <SiteLink to={paths.signup} className={buttonVariants({ size: 'sm' })}>
            Start Free Trial
          </SiteLink>
        </div>
      </div>
    </header>
  )
}
