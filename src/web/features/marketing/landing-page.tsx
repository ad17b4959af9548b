import { ClosingCtaSection } from './components/closing-cta-section'
import { FeaturesSection } from './components/features-section'
import { HeroSection } from './components/hero-section'
import { HowItWorksSection } from './components/how-it-works-section'
import { PricingSection } from './components/pricing-section'
import { SiteFooter } from '../../components/layout/site-footer'
import { SiteHeader } from './components/site-header'
import { SkipLink } from '../../components/layout/skip-link'

/** Public home page (spec §1, §2 landing page). */
export function LandingPage() {
  return (
    <div className="flex min-h-screen flex-col bg-background">
      <SkipLink />
      <SiteHeader />
      <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
        <HeroSection />
        <FeaturesSection />
        <HowItWorksSection />
        <PricingSection />
        <ClosingCtaSection />
      </main>
      <SiteFooter />
    </div>
  )
}
