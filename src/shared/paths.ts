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
  parsers: '/parsers',
  settings: '/settings',
  /** The REST API's interactive reference (rendered from /api/v1/openapi.json). */
  apiDocs: '/docs/api',
  devOutbox: '/dev/outbox',
} as const

/** A parser's page: its emails, reprocessing, test, pause, delete. */
export const parserPath = (parserId: string) => `/parsers/${parserId}`
/** Editing a parser: name, filters, fields, custom fields, spreadsheet. */
export const editParserPath = (parserId: string) => `/parsers/${parserId}/edit`
/** 'Train on this email': the highlight view on one of a parser's emails. */
export const trainOnEmailPath = (parserId: string, emailId: string) => `/parsers/${parserId}/emails/${emailId}/train`

export const CLIENT_ROUTES: readonly string[] = Object.values(paths)

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const CLIENT_ROUTE_PATTERNS = [new RegExp(`^/parsers/${UUID}$`, 'i'), new RegExp(`^/parsers/${UUID}/edit$`, 'i'), new RegExp(`^/parsers/${UUID}/emails/${UUID}/train$`, 'i')]

export function isClientRoute(pathname: string): boolean {
  const normalised = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  return CLIENT_ROUTES.includes(normalised) || CLIENT_ROUTE_PATTERNS.some((pattern) => pattern.test(normalised))
}
