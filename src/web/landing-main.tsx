import { StrictMode, type ReactNode } from 'react'
import { hydrateRoot, type Root } from 'react-dom/client'
import { AppFrame } from './app/app-frame'
import { SiteNavigation } from './components/layout/site-link'
import { LandingPage } from './features/marketing/landing-page'
import './styles.css'

/**
 * The landing page's entry (docs/decisions/025): the server sends `/` prerendered; this hydrates
 * it with React alone. The router and the rest of the app load on the first link followed.
 */
const container = document.getElementById('root')
if (!container) throw new Error('Missing #root element')

const frame = (page: ReactNode) => (
  <StrictMode>
    <AppFrame>{page}</AppFrame>
  </StrictMode>
)

const loadApp = () => import('./app/app')

function enterApp(to: string) {
  window.history.pushState(null, '', to)
  void loadApp().then(({ AppRoutes }) => root.render(frame(<AppRoutes />)))
}

const root: Root = hydrateRoot(
  container,
  frame(
    <SiteNavigation value={enterApp}>
      <LandingPage />
    </SiteNavigation>,
  ),
)
