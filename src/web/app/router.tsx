import { createBrowserRouter, type RouteObject } from 'react-router'
import { paths } from '../../shared/paths'
import { PageSpinner } from '../components/ui/page-spinner'
import { keepDocumentTitle } from '../lib/document-title'
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
      { path: paths.privacy, handle: { title: 'Privacy Policy' }, ...page(() => import('../features/legal/privacy-page').then((m) => ({ Component: m.PrivacyPage }))) },
      { path: paths.terms, handle: { title: 'Terms of Service' }, ...page(() => import('../features/legal/terms-page').then((m) => ({ Component: m.TermsPage }))) },
      {
        path: paths.forgotPassword,
        handle: { title: 'Forgot password' },
        ...page(() => import('../features/auth/forgot-password-page').then((m) => ({ Component: m.ForgotPasswordPage }))),
      },
      {
        path: paths.resetPassword,
        handle: { title: 'Reset password' },
        ...page(() => import('../features/auth/reset-password-page').then((m) => ({ Component: m.ResetPasswordPage }))),
      },
      { path: paths.twoFactor, handle: { title: 'Two-factor verification' }, ...page(() => import('../features/auth/two-factor-page').then((m) => ({ Component: m.TwoFactorPage }))) },
      { path: paths.apiDocs, handle: { title: 'API reference' }, ...page(() => import('../features/api-docs/api-docs-page').then((m) => ({ Component: m.ApiDocsPage }))) },
      { path: paths.devOutbox, handle: { title: 'Development outbox' }, ...page(() => import('../features/dev-outbox/dev-outbox-page').then((m) => ({ Component: m.DevOutboxPage }))) },
      {
        ...page(() => import('./routes/require-session').then((m) => ({ Component: m.RedirectIfSignedIn }))),
        children: [
          { path: paths.login, handle: { title: 'Sign in' }, ...page(() => import('../features/auth/login-page').then((m) => ({ Component: m.LoginPage }))) },
          { path: paths.signup, handle: { title: 'Create your account' }, ...page(() => import('../features/auth/signup-page').then((m) => ({ Component: m.SignupPage }))) },
        ],
      },
      {
        ...page(() => import('./routes/require-session').then((m) => ({ Component: m.RequireSession }))),
        children: [
          { path: paths.dashboard, handle: { title: 'Dashboard' }, ...page(() => import('../features/dashboard/dashboard-page').then((m) => ({ Component: m.DashboardPage }))) },
          {
            path: paths.createParser,
            handle: { title: 'Create a parser' },
            ...page(() => import('../features/parsers/create-parser-page').then((m) => ({ Component: m.CreateParserPage }))),
          },
          { path: paths.parsers, handle: { title: 'Parsers' }, ...page(() => import('../features/parsers/parsers-page').then((m) => ({ Component: m.ParsersPage }))) },
          { path: '/parsers/:parserId', handle: { title: 'Parser' }, ...page(() => import('../features/parsers/parser-page').then((m) => ({ Component: m.ParserPage }))) },
          { path: '/parsers/:parserId/edit', handle: { title: 'Edit parser' }, ...page(() => import('../features/parsers/edit-parser-page').then((m) => ({ Component: m.EditParserPage }))) },
          {
            path: '/parsers/:parserId/emails/:emailId/train',
            handle: { title: 'Train on this email' },
            ...page(() => import('../features/parsers/train-on-email-page').then((m) => ({ Component: m.TrainOnEmailPage }))),
          },
          { path: paths.settings, handle: { title: 'Settings' }, ...page(() => import('../features/settings/settings-page').then((m) => ({ Component: m.SettingsPage }))) },
        ],
      },
      { path: '*', handle: { title: 'Page not found' }, ...page(() => import('../features/not-found/not-found-page').then((m) => ({ Component: m.NotFoundPage }))) },
    ],
  },
])

keepDocumentTitle(router)
