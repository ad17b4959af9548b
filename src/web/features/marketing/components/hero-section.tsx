import { ArrowRight, Check } from 'lucide-react'
import { paths } from '@shared/paths'
import { PLAN_INFO } from '@shared/plans'
import { buttonVariants } from '@web/components/ui/button-variants'
import { HeroIllustration } from './hero-illustration'
import { SiteLink } from '@web/components/layout/site-link'

// The three promises of spec §1.
const promises = [
  'Setup takes under 2 minutes',
  'No credit card needed',
  `${PLAN_INFO.free.emailsPerMonth} emails per month free`,
]

export function HeroSection() {
  return (
    <section aria-labelledby="hero-heading" className="relative isolate overflow-hidden">
      <div
        aria-hidden
        className="absolute inset-0 -z-10 bg-[linear-gradient(to_right,var(--color-border)_1px,transparent_1px),linear-gradient(to_bottom,var(--color-border)_1px,transparent_1px)] [mask-image:radial-gradient(ellipse_60%_55%_at_50%_0%,black,transparent)] bg-[size:56px_56px] opacity-60"
      />
      <div
        aria-hidden
        className="absolute top-[-12rem] left-1/2 -z-10 h-[32rem] w-[64rem] -translate-x-1/2 rounded-full bg-[radial-gradient(closest-side,var(--color-accent),transparent)] opacity-90"
      />
      <div className="mx-auto max-w-6xl px-4 pt-20 pb-16 sm:px-6 sm:pt-28 lg:pb-24">
        <div className="mx-auto max-w-3xl text-center">
          <p className="inline-flex items-center gap-2 rounded-full border bg-background/70 px-3 py-1 text-xs font-medium text-muted-foreground shadow-sm backdrop-blur">
            <span className="size-1.5 rounded-full bg-success" aria-hidden />
            Gmail in, Google Sheets out. No code.
          </p>
          <h1
            id="hero-heading"
            className="mt-6 text-4xl font-semibold tracking-tight text-balance sm:text-5xl lg:text-6xl"
          >
            Turn notification emails into spreadsheet rows automatically
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg leading-8 text-pretty text-muted-foreground">
            Connect Gmail, highlight the values you need in one sample email, and Mailrow adds a row to your
            Google Sheet every time a matching email arrives. Orders, leads, invoices, alerts: no more copy and
            paste.
          </p>
          <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
            <SiteLink to={paths.signup} className={buttonVariants({ size: 'lg', className: 'w-full sm:w-auto' })}>
              Start Free Trial
              <ArrowRight aria-hidden />
            </SiteLink>
            <a href="#how-it-works" className={buttonVariants({ size: 'lg', variant: 'outline', className: 'w-full sm:w-auto' })}>
              See how it works
            </a>
          </div>
          <ul className="mt-8 flex flex-col items-center justify-center gap-x-6 gap-y-2 text-sm text-muted-foreground sm:flex-row">
            {promises.map((promise) => (
              <li key={promise} className="flex items-center gap-2">
                <Check className="size-4 text-success" aria-hidden />
                {promise}
              </li>
            ))}
          </ul>
        </div>
        <HeroIllustration />
      </div>
    </section>
  )
}
