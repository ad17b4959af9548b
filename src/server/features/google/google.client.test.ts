import { describe, expect, it } from 'vitest'
import { isInvalidGrant, isRetryable, toAppError, withGoogleRetry } from './google.client'

const googleError = (status: number, reason?: string, headers: Record<string, string> = {}) =>
  Object.assign(new Error(`status ${status}`), {
    status,
    response: { status, headers, data: { error: { code: status, message: 'x', errors: reason ? [{ reason }] : [] } } },
  })

describe('isRetryable', () => {
  it.each([
    [googleError(429), true],
    [googleError(500), true],
    [googleError(503), true],
    [googleError(403, 'rateLimitExceeded'), true],
    [googleError(403, 'userRateLimitExceeded'), true],
    [googleError(403, 'insufficientPermissions'), false],
    [googleError(404), false],
    [googleError(400), false],
    [Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), true],
  ])('%#', (error, expected) => expect(isRetryable(error)).toBe(expected))
})

describe('withGoogleRetry', () => {
  it('retries transient failures with growing, jittered delays, then succeeds', async () => {
    const delays: number[] = []
    let calls = 0
    const result = await withGoogleRetry(
      async () => {
        calls += 1
        if (calls < 4) throw googleError(503)
        return 'ok'
      },
      { sleep: async (ms) => void delays.push(ms), random: () => 0.5, baseDelayMs: 100 },
    )
    expect(result).toBe('ok')
    expect(delays).toEqual([50, 100, 200])
  })

  it('honours Retry-After', async () => {
    const delays: number[] = []
    let calls = 0
    await withGoogleRetry(
      async () => {
        if (calls++ === 0) throw googleError(429, 'rateLimitExceeded', { 'retry-after': '7' })
        return 'ok'
      },
      { sleep: async (ms) => void delays.push(ms) },
    )
    expect(delays).toEqual([7000])
  })

  it('gives up after the retry budget and does not retry what cannot succeed', async () => {
    let calls = 0
    await expect(withGoogleRetry(async () => { calls++; throw googleError(500) }, { retries: 2, sleep: async () => {} })).rejects.toThrow()
    expect(calls).toBe(3)
    calls = 0
    await expect(withGoogleRetry(async () => { calls++; throw googleError(404) }, { sleep: async () => {} })).rejects.toThrow()
    expect(calls).toBe(1)
  })
})

describe('errors', () => {
  it('recognises invalid_grant and maps it to GOOGLE_REAUTH_REQUIRED', () => {
    const error = Object.assign(new Error('invalid_grant'), { response: { status: 400, data: { error: 'invalid_grant' } } })
    expect(isInvalidGrant(error)).toBe(true)
    expect(toAppError(error, 'x').code).toBe('GOOGLE_REAUTH_REQUIRED')
    expect(toAppError(googleError(429), 'Fetching').code).toBe('RATE_LIMITED')
  })
})
