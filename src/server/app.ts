import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { HTTPException } from 'hono/http-exception'
import { secureHeaders } from 'hono/secure-headers'
import { CLIENT_IP_HEADER, type AuthSession } from './auth/auth'
import type { AppDeps, AppEnv } from './context'
import { accountRoutes } from './features/account/account.routes'
import { adminRoutes } from './features/admin/admin.routes'
import { apiKeyRoutes } from './features/api/api-keys.routes'
import { v1Routes } from './features/api/v1.routes'
import { BILLING_WEBHOOK_PATH, billingRoutes, billingWebhookRoutes } from './features/billing/billing.routes'
import { clientLogRoutes } from './features/client-log/client-log.routes'
import { configRoutes } from './features/config/config.routes'
import { connectionRoutes } from './features/connections/connections.routes'
import { dashboardRoutes } from './features/dashboard/dashboard.routes'
import { devOutboxRoutes } from './features/dev-outbox/dev-outbox.routes'
import { gmailRoutes } from './features/gmail/gmail.routes'
import { healthRoutes } from './features/health/health.routes'
import { notificationRoutes } from './features/notifications/notifications.routes'
import { parsedEmailRoutes, parserRoutes } from './features/parsers/parsers.routes'
import { pushRoutes } from './features/pipeline/push.routes'
import { securityLogRoutes } from './features/security-log/security-log.routes'
import { sessionRoutes } from './features/sessions/sessions.routes'
import { sheetRoutes } from './features/sheets/sheets.routes'
import { webhookRoutes } from './features/webhooks/webhooks.routes'
import { getClientIp } from './lib/client-ip'
import { AppError, errorBody } from './lib/errors'
import { noStore, rejectUnsafeInput, requireSameOrigin } from './lib/request-guards'
import { mountSpa } from './lib/serve-spa'

/** Request bodies above this are refused with 413 before any handler reads them. */
export const MAX_BODY_BYTES = 1024 * 1024
export const CSP_REPORT_PATH = '/api/csp-report'
const CSP_REPORT_MAX_CHARS = 8 * 1024

/** security.txt for this install; it expires a year ahead, as RFC 9116 asks for an Expires field. */
function securityTxt(appUrl: string): string {
  const host = new URL(appUrl).hostname
  const expires = new Date(Date.now() + 365 * 24 * 60 * 60 * 1000)
  expires.setUTCHours(0, 0, 0, 0)
  return [
    `Contact: mailto:security@${host}`,
    `Expires: ${expires.toISOString()}`,
    'Preferred-Languages: en',
    `Canonical: ${appUrl}/.well-known/security.txt`,
    `Policy: ${appUrl}/terms`,
    '',
  ].join('\n')
}

/** The JSON API. Its type is the RPC contract the front end's client is built from. */
function createApiRoutes() {
  return new Hono<AppEnv>()
    .route('/health', healthRoutes)
    .route('/config', configRoutes)
    .route('/account', accountRoutes)
    .route('/sessions', sessionRoutes)
    .route('/security-log', securityLogRoutes)
    .route('/dashboard', dashboardRoutes)
    .route('/connections', connectionRoutes)
    .route('/gmail/push', pushRoutes)
    .route('/gmail', gmailRoutes)
    .route('/spreadsheets', sheetRoutes)
    .route('/parsers', parserRoutes)
    .route('/parsed-emails', parsedEmailRoutes)
    .route('/notifications', notificationRoutes)
    .route('/api-keys', apiKeyRoutes)
    .route('/webhooks', webhookRoutes)
    .route('/admin', adminRoutes)
    .route('/billing/webhook', billingWebhookRoutes)
    .route('/billing', billingRoutes)
    .route('/client-log', clientLogRoutes)
    .route('/dev/outbox', devOutboxRoutes)
}

export type AppType = ReturnType<typeof createApiRoutes>

/** Better Auth's get-session answer with its dates back as Dates (as its own API returns them). */
function reviveSession(body: unknown): AuthSession | null {
  const value = body as AuthSession | null
  if (!value?.session?.token || !value.user?.id) return null
  const date = (v: unknown) => new Date(v as string)
  return {
    session: { ...value.session, expiresAt: date(value.session.expiresAt), createdAt: date(value.session.createdAt), updatedAt: date(value.session.updatedAt) },
    user: { ...value.user, createdAt: date(value.user.createdAt), updatedAt: date(value.user.updatedAt) },
  }
}

export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>()

  app.use(async (c, next) => {
    c.set('deps', deps)
    c.set('db', deps.database.db)
    c.set('logger', deps.logger)
    await next()
  })

  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // https: so 'Show images' can load an email's remote images once the user asks.
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        reportUri: [CSP_REPORT_PATH],
      },
      crossOriginEmbedderPolicy: false,
    }),
  )

  app.use(
    '/api/*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new AppError('PAYLOAD_TOO_LARGE', 'Request body is larger than 1 MB')
      },
    }),
  )

  app.use('/api/*', rejectUnsafeInput)
  // Pub/Sub push carries its own token, Stripe's webhook its signature; CSP reports come from the browser with no session.
  app.use('/api/*', requireSameOrigin((path) => path.startsWith('/api/gmail/push') || path === CSP_REPORT_PATH || path === BILLING_WEBHOOK_PATH))
  app.use('/api/*', noStore)

  // Browsers post Content-Security-Policy violations here; they are logged for the operator.
  app.post(CSP_REPORT_PATH, async (c) => {
    const text = (await c.req.text()).slice(0, CSP_REPORT_MAX_CHARS)
    let report: unknown = text
    try {
      report = JSON.parse(text)
    } catch {
      // logged as text
    }
    c.var.logger.warn({ report, userAgent: c.req.header('user-agent')?.slice(0, 200) }, 'content security policy violation')
    return c.body(null, 204)
  })

  // The web app asks for its session on every page and focus: a session validated a moment ago is
  // answered from the cache (no database lookup, so no rate-limit count either); anything else,
  // and every other auth endpoint, goes to Better Auth (docs/decisions/018).
  app.get('/api/auth/get-session', async (c, next) => {
    const key = deps.sessionCache.keyOf(c.req.raw.headers)
    if (!key || new URL(c.req.url).search) return next()
    const cached = deps.sessionCache.get(key)
    if (cached) return c.json(cached)
    const mark = deps.sessionCache.mark()
    await next()
    if (c.res.status === 200 && !c.res.headers.has('set-cookie')) {
      const body = reviveSession(await c.res.clone().json().catch(() => null))
      if (body) deps.sessionCache.set(key, body, mark)
    }
  })

  app.on(['GET', 'POST'], '/api/auth/*', async (c) => {
    // Better Auth reads the caller's IP (for its rate limits) from a header; set it from the
    // socket here and drop whatever the client sent under that name.
    const headers = new Headers(c.req.raw.headers)
    headers.delete(CLIENT_IP_HEADER)
    const ip = getClientIp(c)
    if (ip) headers.set(CLIENT_IP_HEADER, ip)
    const request = new Request(c.req.raw, { headers })
    const response = await deps.auth.handler(request)
    if (response.status === 404 && !response.headers.get('content-type')?.includes('json')) {
      throw new AppError('NOT_FOUND', `No API route ${c.req.method} ${c.req.path}`)
    }
    return response
  })

  // RFC 9116: where to report a vulnerability.
  app.get('/.well-known/security.txt', (c) => {
    c.header('Cache-Control', 'public, max-age=86400')
    return c.text(securityTxt(deps.env.APP_URL))
  })

  // OpenID-style location of the keys that verify Mailrow's JWTs.
  app.get('/.well-known/jwks.json', async () => {
    const keys = await deps.auth.api.getJwks()
    return Response.json(keys, { headers: { 'cache-control': 'public, max-age=300' } })
  })

  // The public REST API (API keys, not sessions); outside AppType, which is the web app's own client.
  app.route('/api/v1', v1Routes)
  const api = createApiRoutes()
  app.route('/api', api)

  app.all('/api/*', (c) => {
    const allowed = allowedMethods(app, c.req.path)
    if (allowed.length > 0) {
      c.header('Allow', allowed.join(', '))
      throw new AppError('METHOD_NOT_ALLOWED', `Method ${c.req.method} is not allowed on ${c.req.path}`)
    }
    throw new AppError('NOT_FOUND', `No API route ${c.req.method} ${c.req.path}`)
  })

  if (deps.webRoot && existsSync(join(deps.webRoot, 'index.html'))) mountSpa(app, deps.webRoot)

  app.notFound((c) => c.json(errorBody('NOT_FOUND', 'Not found'), 404))

  app.onError((error, c) => {
    if (error instanceof AppError) return c.json(errorBody(error.code, error.message), error.status)
    if (error instanceof HTTPException) {
      const status = error.status
      const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 401 ? 'UNAUTHORIZED' : status < 500 ? 'VALIDATION' : 'INTERNAL'
      const message = /json/i.test(error.message) ? 'Malformed JSON in request body' : error.message || 'Bad request'
      return c.json(errorBody(code, message), status)
    }
    c.var.logger.error({ err: error, path: c.req.path }, 'unhandled error')
    return c.json(errorBody('INTERNAL', 'Something went wrong on our side. Please try again.'), 500)
  })

  return app
}

/** Methods registered for a path under /api, to tell 405 from 404. */
function allowedMethods(app: Hono<AppEnv>, path: string): string[] {
  const methods = new Set<string>()
  for (const route of app.routes) {
    if (route.method === 'ALL' || !route.path.startsWith('/api/')) continue
    const pattern = new RegExp(
      `^${route.path
        .replace(/\/$/, '')
        .split('/')
        .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/')}/?$`,
    )
    if (pattern.test(path)) methods.add(route.method)
  }
  return [...methods]
}
