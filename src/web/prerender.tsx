import { renderToString } from 'react-dom/server'
import { AppFrame } from './app/app-frame'
import { LandingPage } from './features/marketing/landing-page'

/**
 * The landing page's HTML, rendered at build time (scripts/vite/web-build-plugins.ts) so it paints
 * before any script runs; landing-main.tsx hydrates it with the same tree.
 */
export function renderLanding(): string {
  return renderToString(
    <AppFrame>
      <LandingPage />
    </AppFrame>,
  )
}
