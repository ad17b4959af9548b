import { gmail_v1, gmail } from '@googleapis/gmail'
import { sheets, sheets_v4 } from '@googleapis/sheets'
import { OAuth2Client } from 'google-auth-library'
import { AppError } from '../../lib/errors'
import type { GoogleConfig } from './google-config'

export function createOAuthClient(config: GoogleConfig, redirectUri?: string): OAuth2Client {
  return new OAuth2Client({
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    redirectUri,
    // A token can die before its expiry (revoked, clock skew): on a 401 refresh once and retry.
    forceRefreshOnFailure: true,
    endpoints: {
      oauth2AuthBaseUrl: config.endpoints.authUrl,
      oauth2TokenUrl: config.endpoints.tokenUrl,
      oauth2RevokeUrl: config.endpoints.revokeUrl,
    },
  })
}

/** Longest a Google call may take by default; after that it counts as an ambiguous failure. */
export const GOOGLE_TIMEOUT_MS = 30_000

export function gmailApi(config: GoogleConfig, auth: OAuth2Client): gmail_v1.Gmail {
  // Retries are ours (withGoogleRetry), so the client's own are off; a hung call times out.
  return gmail({ version: 'v1', auth, rootUrl: config.endpoints.apiRootUrl, retry: false, timeout: config.timeoutMs ?? GOOGLE_TIMEOUT_MS })
}

export function sheetsApi(config: GoogleConfig, auth: OAuth2Client): sheets_v4.Sheets {
  return sheets({ version: 'v4', auth, rootUrl: config.endpoints.apiRootUrl, retry: false, timeout: config.timeoutMs ?? GOOGLE_TIMEOUT_MS })
}

type GoogleErrorShape = {
  status?: number
  code?: number | string
  message?: string
  response?: { status?: number; headers?: unknown; data?: unknown }
}

function statusOf(error: GoogleErrorShape): number | undefined {
  if (typeof error.response?.status === 'number') return error.response.status
  if (typeof error.status === 'number') return error.status
  return typeof error.code === 'number' ? error.code : undefined
}

function reasonsOf(error: GoogleErrorShape): string[] {
  const data = error.response?.data as { error?: unknown } | undefined
  if (typeof data?.error === 'string') return [data.error]
  const details = (data?.error as { errors?: Array<{ reason?: string }>; status?: string } | undefined) ?? {}
  return [...(details.errors ?? []).map((e) => e.reason ?? ''), details.status ?? ''].filter(Boolean)
}

function headerOf(error: GoogleErrorShape, name: string): string | undefined {
  const headers = error.response?.headers
  if (!headers) return undefined
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined
  const value = (headers as Record<string, unknown>)[name]
  return typeof value === 'string' ? value : undefined
}

/** The refresh token no longer works (revoked, expired, password changed): the user must reconnect. */
export function isInvalidGrant(error: unknown): boolean {
  const e = error as GoogleErrorShape
  return reasonsOf(e).includes('invalid_grant') || /invalid_grant/.test(e?.message ?? '')
}

const RATE_LIMIT_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'RESOURCE_EXHAUSTED', 'quotaExceeded'])
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND', 'UND_ERR_SOCKET'])

/** 429, rate-limit 403s, 5xx and dropped connections are worth another try; nothing else is. */
export function isRetryable(error: unknown): boolean {
  const e = error as GoogleErrorShape
  const status = statusOf(e)
  if (status === 429 || (status !== undefined && status >= 500)) return true
  if (status === 403) return reasonsOf(e).some((r) => RATE_LIMIT_REASONS.has(r))
  if (status === undefined) {
    const code = typeof e.code === 'string' ? e.code : ''
    // A timed-out call (the client's timeout aborts it) is as transient as a dropped connection.
    return NETWORK_CODES.has(code) || /socket hang up|fetch failed|network|terminated|aborted|timed? ?out/i.test(e.message ?? '')
  }
  return false
}

/**
 * Google may have carried out a write whose call failed this way: a timeout, a dropped connection
 * or a 5xx (which can come after the write). A 429, a rate-limit 403 or any other 4xx means it
 * was refused before anything was written.
 */
export function isAmbiguousWriteFailure(error: unknown): boolean {
  const status = statusOf(error as GoogleErrorShape)
  if (status === undefined) return true
  return status >= 500
}

export type RetryOptions = {
  retries?: number
  baseDelayMs?: number
  maxDelayMs?: number
  sleep?: (ms: number) => Promise<void>
  random?: () => number
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Runs a Google call, retrying transient failures with exponential backoff and full jitter,
 * honouring Retry-After (https://developers.google.com/workspace/gmail/api/guides/handle-errors).
 */
export async function withGoogleRetry<T>(call: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { retries = 5, baseDelayMs = 500, maxDelayMs = 32_000, sleep = sleepFor, random = Math.random } = options
  for (let attempt = 0; ; attempt++) {
    try {
      return await call()
    } catch (error) {
      if (attempt >= retries || !isRetryable(error)) throw error
      const retryAfter = Number(headerOf(error as GoogleErrorShape, 'retry-after'))
      const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt) * random()
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(maxDelayMs, retryAfter * 1000) : backoff)
    }
  }
}

/** A Google error in the app's words, for the API's callers. */
export function toAppError(error: unknown, action: string): AppError {
  if (error instanceof AppError) return error
  if (isInvalidGrant(error)) {
    return new AppError('GOOGLE_REAUTH_REQUIRED', 'Google access has expired or was revoked. Please reconnect your Gmail account.')
  }
  const e = error as GoogleErrorShape
  const status = statusOf(e)
  const data = e.response?.data as { error?: { message?: string } } | undefined
  const detail = data?.error?.message ?? e.message ?? 'unknown error'
  if (status === 404) return new AppError('NOT_FOUND', `${action}: not found`)
  if (status === 400) return new AppError('VALIDATION', `${action}: ${detail}`)
  if (status === 403) return new AppError('FORBIDDEN', `${action}: Google refused access (${detail})`)
  if (status === 401) return new AppError('GOOGLE_REAUTH_REQUIRED', 'Google access has expired. Please reconnect your Gmail account.')
  if (status === 429) return new AppError('RATE_LIMITED', `${action}: Google's rate limit was reached. Please try again in a minute.`)
  return new AppError('UNAVAILABLE', `${action}: Google did not answer (${detail})`)
}
