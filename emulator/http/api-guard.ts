import type { MiddlewareHandler } from 'hono'
import type { OAuthStore } from '../oauth/oauth-store'
import type { EmulatorEnv } from './context'
import { errorInfo, GoogleApiError } from './google-error'
import type { QuotaCost, QuotaStore } from './quotas'

export type ApiSpec = {
  /** Discovery id, e.g. "gmail.users.messages.get". */
  id: string
  service: 'gmail.googleapis.com' | 'sheets.googleapis.com'
  /** Google's internal RPC name, as it appears in ErrorInfo metadata. */
  rpc: string
  /** Any one of these scopes is enough. */
  scopes: readonly string[]
  quota: QuotaCost
}

const REALM = 'Bearer realm="https://accounts.google.com/"'

export function readBearerToken(authorization: string | undefined, queryToken: string | undefined): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '')
  return match?.[1]?.trim() || queryToken || undefined
}

/** Google's checks in Google's order: credentials (401), scopes (403), then quota (429). */
export function apiGuard(deps: { oauth: OAuthStore; quotas: QuotaStore }, spec: ApiSpec): MiddlewareHandler<EmulatorEnv> {
  return async (c, next) => {
    c.set('apiMethod', { id: spec.id, service: spec.service, rpc: spec.rpc })
    const token = readBearerToken(c.req.header('authorization'), c.req.query('access_token'))
    if (!token) {
      throw new GoogleApiError({
        code: 401,
        message:
          'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
        itemMessage: 'Login Required.',
        status: 'UNAUTHENTICATED',
        reason: 'required',
        location: 'Authorization',
        locationType: 'header',
        details: [errorInfo('CREDENTIALS_MISSING', spec.service, { method: spec.rpc })],
        headers: { 'WWW-Authenticate': REALM },
      })
    }
    const resolved = deps.oauth.resolveAccessToken(token)
    if (!resolved.ok) {
      throw new GoogleApiError({
        code: 401,
        message:
          'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
        itemMessage: 'Invalid Credentials',
        status: 'UNAUTHENTICATED',
        reason: 'authError',
        location: 'Authorization',
        locationType: 'header',
        details: [
          errorInfo(resolved.reason === 'unknown' ? 'ACCESS_TOKEN_TYPE_UNSUPPORTED' : 'ACCESS_TOKEN_EXPIRED', spec.service, {
            method: spec.rpc,
          }),
        ],
        headers: { 'WWW-Authenticate': `${REALM}, error="invalid_token"` },
      })
    }
    const access = resolved.token
    if (!spec.scopes.some((scope) => access.scopes.includes(scope))) {
      throw new GoogleApiError({
        code: 403,
        message: 'Request had insufficient authentication scopes.',
        itemMessage: 'Insufficient Permission',
        status: 'PERMISSION_DENIED',
        reason: 'insufficientPermissions',
        details: [errorInfo('ACCESS_TOKEN_SCOPE_INSUFFICIENT', spec.service, { method: spec.rpc })],
        headers: { 'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${spec.scopes.join(' ')}"` },
      })
    }
    deps.quotas.check(access.email, spec.quota, spec.rpc)
    c.set('principal', { email: access.email, scopes: access.scopes, clientId: access.clientId })
    await next()
  }
}
