import { createBrowserRouter } from 'react-router'
import { paths } from '../../shared/paths'
import { ForgotPasswordPage } from '../features/auth/forgot-password-page'
import { LoginPage } from '../features/auth/login-page'
import { ResetPasswordPage } from '../features/auth/reset-password-page'
import { SignupPage } from '../features/auth/signup-page'
import { TwoFactorPage } from '../features/auth/two-factor-page'
import { DashboardPage } from '../features/dashboard/dashboard-page'
import { DevOutboxPage } from '../features/dev-outbox/dev-outbox-page'
import { PrivacyPage } from '../features/legal/privacy-page'
import { TermsPage } from '../features/legal/terms-page'
import { LandingPage } from '../features/marketing/landing-page'
import { NotFoundPage } from '../features/not-found/not-found-page'
import { CreateParserPage } from '../features/parsers/create-parser-page'
import { SettingsPage } from '../features/settings/settings-page'
import { RedirectIfSignedIn, RequireSession } from './routes/require-session'

export const router = createBrowserRouter([
  { path: paths.home, element: <LandingPage /> },
  { path: paths.privacy, element: <PrivacyPage /> },
  { path: paths.terms, element: <TermsPage /> },
  { path: paths.forgotPassword, element: <ForgotPasswordPage /> },
  { path: paths.resetPassword, element: <ResetPasswordPage /> },
  { path: paths.twoFactor, element: <TwoFactorPage /> },
  { path: paths.devOutbox, element: <DevOutboxPage /> },
  {
    element: <RedirectIfSignedIn />,
    children: [
      { path: paths.login, element: <LoginPage /> },
      { path: paths.signup, element: <SignupPage /> },
    ],
  },
  {
    element: <RequireSession />,
    children: [
      { path: paths.dashboard, element: <DashboardPage /> },
      { path: paths.createParser, element: <CreateParserPage /> },
      { path: paths.settings, element: <SettingsPage /> },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
])
