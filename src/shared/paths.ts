/** Client routes (spec §2). The server uses the list to answer unknown paths with a 404 status. */
export const paths = {
  home: '/',
  login: '/login',
  signup: '/signup',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  twoFactor: '/two-factor',
  privacy: '/privacy',
  terms: '/terms',
  dashboard: '/dashboard',
  createParser: '/create-parser',
  settings: '/settings',
  devOutbox: '/dev/outbox',
} as const

export const CLIENT_ROUTES: readonly string[] = Object.values(paths)

export function isClientRoute(pathname: string): boolean {
  const normalised = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  return CLIENT_ROUTES.includes(normalised)
}
