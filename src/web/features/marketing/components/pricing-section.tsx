import { Check } from 'lucide-react'
import { paths } from '@shared/paths'
import { formatEmailsPerMonth, PLAN_INFO, PLANS, type Plan } from '@shared/plans'
import { clsx } from 'clsx'
import { buttonVariants } from '@web/components/ui/button-variants'
import { SectionHeading } from './section-heading'
import { SiteLink } from '@web/components/layout/site-link'

// Only Starter's CTA is fixed by the spec (§9); the others are ours.
const planCopy: Record<Plan, { tagline: string; cta: string }> = {
  free: { tagline: 'Try Mailrow on your first workflow.', cta: 'Get Started Free' },
  starter: { tagline: 'For small teams automating daily email.', cta: 'Start Free Trial' },
  pro: { tagline: 'For high volume, any format and PDFs.', cta: 'Get Started' },
}

export function PricingSection() {
  return (
    <section id="pricing" aria-labelledby="pricing-heading" className="scroll-mt-16 py-20 sm:py-28">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="pricing-heading"
          eyebrow="Pricing"
          title="Simple pricing that grows with your inbox"
          description="Start free. Upgrade when you need more emails or smarter extraction. Cancel anytime."
        />
        <ul className="mx-auto mt-14 grid max-w-md gap-6 lg:max-w-none lg:grid-cols-3 lg:items-stretch">
          {PLANS.map((planId) => {
            const plan = PLAN_INFO[planId]
            const { tagline, cta } = planCopy[planId]
            const isFeatured = Boolean(plan.badge)
            return (
              <li
                key={plan.id}
                className={clsx(
                  'relative flex flex-col rounded-2xl border bg-card p-8 shadow-sm',
                  isFeatured && 'border-primary shadow-xl shadow-primary/10 ring-1 ring-primary lg:-my-4 lg:py-12',
                )}
              >
                {plan.badge ? (
                  <span className="absolute -top-3 left-1/2 inline-flex -translate-x-1/2 items-center rounded-full bg-primary px-3 py-1 text-xs font-semibold text-primary-foreground shadow-sm">
                    {plan.badge}
                  </span>
                ) : null}
                <h3 className={clsx('text-lg font-semibold', isFeatured && 'text-primary')}>
                  {plan.name}
                </h3>
                <p className="mt-2 text-sm text-muted-foreground">{tagline}</p>
                <p className="mt-6 flex items-baseline gap-1">
                  <span className="text-4xl font-semibold tracking-tight">${plan.priceMonthly}</span>
                  <span className="text-sm text-muted-foreground">/month</span>
                </p>
                <p className="mt-1 text-sm font-medium">{formatEmailsPerMonth(plan.emailsPerMonth)} emails/month</p>
                <ul aria-label={`${plan.name} features`} className="mt-8 flex-1 space-y-3 text-sm">
                  {plan.features.map((feature) => (
                    <li key={feature} className="flex gap-3">
                      <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
                      <span className="text-muted-foreground">{feature}</span>
                    </li>
                  ))}
                </ul>
                <SiteLink
                  to={paths.signup}
                  aria-label={`${cta} with the ${plan.name} plan`}
                  className={buttonVariants({ size: 'lg', variant: isFeatured ? 'default' : 'outline', className: 'mt-8 w-full' })}
                >
                  {cta}
                </SiteLink>
              </li>
            )
          })}
        </ul>
        <p className="mt-10 text-center text-sm text-muted-foreground">
          Prices in US dollars, billed monthly. Cancel anytime: your plan runs to the end of the billing period.
        </p>
      </div>
    </section>
  )
}
