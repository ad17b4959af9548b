import { RouterProvider } from 'react-router'
import { SiteNavigation } from '../components/layout/site-link'
import { AppFrame } from './app-frame'
import { router } from './router'

const navigateInApp = (to: string) => void router.navigate(to)

/** Every route, with the router's navigation for the links shared with the landing page. */
export function AppRoutes() {
  return (
    <SiteNavigation value={navigateInApp}>
      <RouterProvider router={router} />
    </SiteNavigation>
  )
}

export function App() {
  return (
    <AppFrame>
      <AppRoutes />
    </AppFrame>
  )
}
