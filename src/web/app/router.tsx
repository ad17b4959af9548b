import { createBrowserRouter, type RouteObject } from 'react-router'
import { paths } from '../../shared/paths'
import { PageSpinner } from '../components/ui/spinner'
import { LandingPage } from '../features/marketing/landing-page'

/** Loads a page's module on first visit, so the landing page doesn't ship every screen. */
function page(load: () => Promise<{ Component: React.ComponentType }>): Pick<RouteObject, 'lazy' | 'HydrateFallback'> {
  return { lazy: load, HydrateFallback: PageSpinner }
}

export const router = createBrowserRouter([
  { path: paths.home, element: <LandingPage /> },
  {
    ...page(() => import('./app-shell').then((m) => ({ Component: m.AppShell }))),
    children: [
      { path: paths.privacy, ...page(() => import('../features/legal/privacy-page').then((m) => ({ Component: m.PrivacyPage }))) },
      { path: paths.terms, ...page(() => import('../features/legal/terms-page').then((m) => ({ Component: m.TermsPage }))) },
      {
        path: paths.forgotPassword,
        ...page(() => import('../features/auth/forgot-password-page').then((m) => ({ Component: m.ForgotPasswordPage }))),
      },
      {
        path: paths.resetPassword,
        ...page(() => import('../features/auth/reset-password-page').then((m) => ({ Component: m.ResetPasswordPage }))),
      },
      { path: paths.twoFactor, ...page(() => import('../features/auth/two-factor-page').then((m) => ({ Component: m.TwoFactorPage }))) },
      { path: paths.devOutbox, ...page(() => import('../features/dev-outbox/dev-outbox-page').then((m) => ({ Component: m.DevOutboxPage }))) },
      {
        ...page(() => import('./routes/require-session').then((m) => ({ Component: m.RedirectIfSignedIn }))),
        children: [
          { path: paths.login, ...page(() => import('../features/auth/login-page').then((m) => ({ Component: m.LoginPage }))) },
          { path: paths.signup, ...page(() => import('../features/auth/signup-page').then((m) => ({ Component: m.SignupPage }))) },
        ],
      },
      {
        ...page(() => import('./routes/require-session').then((m) => ({ Component: m.RequireSession }))),
        children: [
          { path: paths.dashboard, ...page(() => import('../features/dashboard/dashboard-page').then((m) => ({ Component: m.DashboardPage }))) },
          {
            path: paths.createParser,
            ...page(() => import('../features/parsers/create-parser-page').then((m) => ({ Component: m.CreateParserPage }))),
          },
          { path: paths.parsers, ...page(() => import('../features/parsers/parsers-page').then((m) => ({ Component: m.ParsersPage }))) },
          { path: '/parsers/:parserId', ...page(() => import('../features/parsers/parser-page').then((m) => ({ Component: m.ParserPage }))) },
          {
            path: '/parsers/:parserId/emails/:emailId/train',
            ...page(() => import('../features/parsers/train-on-email-page').then((m) => ({ Component: m.TrainOnEmailPage }))),
          },
          { path: paths.settings, ...page(() => import('../features/settings/settings-page').then((m) => ({ Component: m.SettingsPage }))) },
        ],
      },
      { path: '*', ...page(() => import('../features/not-found/not-found-page').then((m) => ({ Component: m.NotFoundPage }))) },
    ],
  },
])
