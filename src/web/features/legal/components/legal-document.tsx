import { ArrowLeft } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { paths } from '@shared/paths'
import { Logo } from '@web/components/layout/logo'
import { Button } from '@web/components/ui/button'
import { SiteFooter } from '@web/components/layout/site-footer'

export type LegalSection = { id: string; title: string; content: ReactNode }

type LegalDocumentProps = { title: string; intro: ReactNode; sections: LegalSection[] }

const dateFormat: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric' }

function toIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** Shared frame of /privacy and /terms (spec §2): Back to Home, contents, sections, footer. */
export function LegalDocument({ title, intro, sections }: LegalDocumentProps) {
  // Spec §2: 'Last updated' is always the current date.
  const today = new Date()
  return (
    <div className="flex min-h-screen flex-col bg-background">
      <header className="sticky top-0 z-40 border-b border-border/70 bg-background/80 backdrop-blur-md">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
          <Logo />
          <Button variant="ghost" size="sm" asChild>
            <Link to={paths.home}>
              <ArrowLeft aria-hidden />
              Back to Home
            </Link>
          </Button>
        </div>
      </header>

      <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
        <div className="border-b bg-muted/40">
          <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20">
            <p className="text-sm font-semibold text-primary">Legal</p>
            <h1 className="mt-2 text-4xl font-semibold tracking-tight sm:text-5xl">{title}</h1>
            <p className="mt-4 text-sm text-muted-foreground">
              Last updated: <time dateTime={toIsoDate(today)}>{today.toLocaleDateString('en-US', dateFormat)}</time>
            </p>
          </div>
        </div>

        <div className="mx-auto grid max-w-6xl gap-12 px-4 py-12 sm:px-6 lg:grid-cols-[14rem_minmax(0,1fr)] lg:py-16">
          <nav aria-label="On this page" className="hidden lg:block">
            <div className="sticky top-24">
              <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">On this page</p>
              <ol className="mt-4 space-y-2 border-l text-sm">
                {sections.map((section) => (
                  <li key={section.id}>
                    <a
                      href={`#${section.id}`}
                      className="-ml-px block border-l border-transparent pl-4 text-muted-foreground transition-colors hover:border-foreground/40 hover:text-foreground"
                    >
                      {section.title}
                    </a>
                  </li>
                ))}
              </ol>
            </div>
          </nav>

          <article className="max-w-3xl">
            <div className="text-base leading-7 text-foreground/80">{intro}</div>
            {sections.map((section, index) => (
              <section
                key={section.id}
                id={section.id}
                aria-labelledby={`${section.id}-heading`}
                className="mt-12 scroll-mt-24 border-t pt-10 first-of-type:mt-10"
              >
                <h2 id={`${section.id}-heading`} className="text-xl font-semibold tracking-tight text-foreground">
                  <span aria-hidden className="mr-2 text-muted-foreground tabular-nums">
                    {index + 1}.
                  </span>
                  {section.title}
                </h2>
                <div className="mt-4 space-y-4 text-[15px] leading-7 text-foreground/80 [&_a]:font-medium [&_a]:text-primary [&_a]:underline-offset-4 [&_a:hover]:underline [&_h3]:pt-2 [&_h3]:text-base [&_h3]:font-semibold [&_h3]:text-foreground [&_li]:pl-1 [&_strong]:font-semibold [&_strong]:text-foreground [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-5">
                  {section.content}
                </div>
              </section>
            ))}
          </article>
        </div>
      </main>

      <SiteFooter />
    </div>
  )
}
