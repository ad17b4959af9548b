import { ArrowRight } from 'lucide-react'
import { paths } from '@shared/paths'
import { PLAN_INFO } from '@shared/plans'
import { buttonVariants } from '@web/components/ui/button-variants'
import { SiteLink } from '@web/components/layout/site-link'

export function ClosingCtaSection() {
  return (
    <section aria-labelledby="closing-cta-heading" className="px-4 pb-20 sm:px-6 sm:pb-28">
      <div className="relative isolate mx-auto max-w-6xl overflow-hidden rounded-3xl bg-primary px-6 py-16 text-center text-primary-foreground shadow-2xl shadow-primary/20 sm:px-16 sm:py-20">
        <div
          aria-hidden
          className="absolute inset-0 -z-10 bg-radial-[ellipse_at_top_right] from-white/25 to-transparent to-55%"
        />
        <div
          aria-hidden
          className="absolute inset-0 -z-10 bg-radial-[ellipse_at_bottom_left] from-black/20 to-transparent to-60%"
        />
        <h2
          id="closing-cta-heading"
          className="mx-auto max-w-2xl text-3xl font-semibold tracking-tight text-balance sm:text-4xl"
        >
          Stop copying data out of your inbox
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-base leading-7 text-pretty text-primary-foreground/80 sm:text-lg">
          Set up your first parser in under 2 minutes. {PLAN_INFO.free.emailsPerMonth} emails per month are free, and no
          credit card is needed.
        </p>
        <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <SiteLink to={paths.signup} className={buttonVariants({ size: 'lg', variant: 'inverse', className: 'w-full sm:w-auto' })}>
            Start Free Trial
            <ArrowRight aria-hidden />
          </SiteLink>
          <SiteLink to={paths.login} className={buttonVariants({ size: 'lg', variant: 'inverseGhost', className: 'w-full sm:w-auto' })}>
            Sign In
          </SiteLink>
        </div>
      </div>
    </section>
  )
}
