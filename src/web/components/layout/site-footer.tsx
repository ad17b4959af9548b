import { paths } from '@shared/paths'
import { Logo } from './logo'
import { SiteLink } from './site-link'

const legalLinks = [
  { to: paths.privacy, label: 'Privacy Policy' },
  { to: paths.terms, label: 'Terms of Service' },
] as const

/** Footer shared by the public pages: landing, legal and 404. */
export function SiteFooter() {
  const year = new Date().getFullYear()
  return (
    <footer className="border-t bg-muted/40">
      <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10 sm:flex-row sm:items-start sm:justify-between sm:px-6">
        <div className="max-w-xs space-y-3">
          <Logo />
          <p className="text-sm leading-6 text-muted-foreground">
            Turn notification emails into spreadsheet rows automatically.
          </p>
        </div>
        <nav aria-label="Legal">
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            {legalLinks.map((link) => (
              <li key={link.to}>
                <SiteLink
                  to={link.to}
                  className="text-muted-foreground underline-offset-4 transition-colors hover:text-foreground hover:underline"
                >
                  {link.label}
                </SiteLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t">
        {/* The year is rendered at build time on the landing page; a new year is not a mismatch. */}
        <p className="mx-auto max-w-6xl px-4 py-6 text-xs text-muted-foreground sm:px-6" suppressHydrationWarning>
          © {year} Mailrow. All rights reserved.
        </p>
      </div>
    </footer>
  )
}
