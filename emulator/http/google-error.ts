/** Google's canonical error statuses (google.rpc.Code names) as they appear in `error.status`. */
export type GoogleErrorStatus =
  | 'INVALID_ARGUMENT'
  | 'FAILED_PRECONDITION'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'ABORTED'
  | 'RESOURCE_EXHAUSTED'
  | 'INTERNAL'
  | 'UNIMPLEMENTED'
  | 'UNAVAILABLE'
  | 'DEADLINE_EXCEEDED'

export type GoogleErrorItem = {
  message: string
  domain: string
  reason: string
  location?: string
  locationType?: string
}

/** The JSON body every Google API answers an error with. */
export type GoogleErrorBody = {
  error: {
    code: number
    message: string
    errors: GoogleErrorItem[]
    status: GoogleErrorStatus
    details?: unknown[]
  }
}

export type GoogleErrorInit = {
  code: number
  message: string
  /** The `errors[0].message`, when Google words it differently from the top-level message. */
  itemMessage?: string
  status?: GoogleErrorStatus
  reason?: string
  domain?: string
  location?: string
  locationType?: string
  details?: unknown[]
  headers?: Record<string, string>
}

const statusByCode: Record<number, GoogleErrorStatus> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  412: 'FAILED_PRECONDITION',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
}

const reasonByCode: Record<number, string> = {
  400: 'badRequest',
  401: 'authError',
  403: 'forbidden',
  404: 'notFound',
  409: 'conflict',
  412: 'conditionNotMet',
  429: 'rateLimitExceeded',
  500: 'backendError',
  501: 'notImplemented',
  503: 'backendError',
  504: 'backendError',
}

const defaultMessageByCode: Record<number, string> = {
  400: 'Bad Request',
  401: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
  403: 'The caller does not have permission',
  404: 'Requested entity was not found.',
  409: 'The operation was aborted.',
  429: 'Resource has been exhausted (e.g. check quota).',
  500: 'Internal error encountered.',
  501: 'Operation is not implemented, or supported, or enabled.',
  503: 'The service is currently unavailable.',
  504: 'The request timed out. Please try again.',
}

export function defaultErrorMessage(code: number): string {
  return defaultMessageByCode[code] ?? 'Unknown error'
}

export function statusForCode(code: number): GoogleErrorStatus {
  return statusByCode[code] ?? (code >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT')
}

export function googleErrorBody(init: GoogleErrorInit): GoogleErrorBody {
  const item: GoogleErrorItem = {
    message: init.itemMessage ?? init.message,
    domain: init.domain ?? 'global',
    reason: init.reason ?? reasonByCode[init.code] ?? (init.code >= 500 ? 'backendError' : 'badRequest'),
  }
  if (init.location) item.location = init.location
  if (init.locationType) item.locationType = init.locationType
  const error: GoogleErrorBody['error'] = {
    code: init.code,
    message: init.message,
    errors: [item],
    status: init.status ?? statusForCode(init.code),
  }
  if (init.details?.length) error.details = init.details
  return { error }
}

/** Thrown by handlers; the app's error handler turns it into Google's JSON error response. */
export class GoogleApiError extends Error {
  readonly init: GoogleErrorInit

  constructor(init: GoogleErrorInit) {
    super(init.message)
    this.name = 'GoogleApiError'
    this.init = init
  }
}

export function badRequest(message: string, reason = 'invalidArgument'): GoogleApiError {
  return new GoogleApiError({ code: 400, message, reason, status: 'INVALID_ARGUMENT' })
}

export function notFound(message = 'Requested entity was not found.'): GoogleApiError {
  return new GoogleApiError({ code: 404, message, reason: 'notFound', status: 'NOT_FOUND' })
}

export function permissionDenied(message = 'The caller does not have permission'): GoogleApiError {
  return new GoogleApiError({ code: 403, message, reason: 'forbidden', status: 'PERMISSION_DENIED' })
}

/** google.rpc.ErrorInfo, which current Google APIs attach to auth, scope and quota errors. */
export function errorInfo(reason: string, service: string, metadata: Record<string, string> = {}) {
  return {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason,
    domain: 'googleapis.com',
    metadata: { service, ...metadata },
  }
}

/** What Google's front end answers for a 502: an HTML page, not JSON. */
export function googleBadGatewayHtml(): string {
  return `<!DOCTYPE html>
<html lang=en>
  <meta charset=utf-8>
  <title>Error 502 (Server Error)!!1</title>
  <p><b>502.</b> <ins>That’s an error.</ins>
  <p>The server encountered a temporary error and could not complete your request.<p>Please try again in 30 seconds.  <ins>That’s all we know.</ins>
`
}
