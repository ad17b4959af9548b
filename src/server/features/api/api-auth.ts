import { createMiddleware } from 'hono/factory'
import { API_KEY_PREFIX, API_PLAN_MESSAGE } from '@shared/contracts/api'
import { toPlan } from '@shared/plans'
import type { AppEnv } from '../../context'
import { AppError } from '../../lib/errors'
import { useApiKey } from './api-keys.queries'
import { hashApiKey } from './api-keys.service'

/** The fixed window of the per-key rate limit. */
export const RATE_WINDOW_MS = 60 * 1000

export type ApiEnv = AppEnv & { Variables: { apiUserId: string; apiKeyId: string } }

/**
 * REST API v1's door: `Authorization: Bearer mrw_…` names a live key (else 401), its owner is on
 * Pro (else 403 with the upgrade wording: a downgraded user's keys stop working), and the key is
 * within its requests per minute (else 429 with Retry-After). Every answer carries RateLimit-*.
 */
export const requireApiKey = createMiddleware<ApiEnv>(async (c, next) => {
  const header = c.req.header('authorization') ?? ''
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!match) throw new AppError('UNAUTHORIZED', 'Send your API key as Authorization: Bearer <key>.')
  const key = match[1]!
  const now = new Date()
  const used = key.startsWith(API_KEY_PREFIX) ? await useApiKey(c.var.db, { keyHash: hashApiKey(key), now, windowMs: RATE_WINDOW_MS }) : undefined
  if (!used) throw new AppError('UNAUTHORIZED', 'This API key is not valid: it may have been revoked or have expired.')

  const limit = c.var.deps.env.API_RATE_LIMIT_PER_MINUTE
  const resetSeconds = Math.max(1, Math.ceil(((used.windowStartedAt ?? now).getTime() + RATE_WINDOW_MS - now.getTime()) / 1000))
  c.header('RateLimit-Limit', String(limit))
  c.header('RateLimit-Remaining', String(Math.max(0, limit - used.windowCount)))
  c.header('RateLimit-Reset', String(resetSeconds))
  c.header('RateLimit-Policy', `${limit};w=${RATE_WINDOW_MS / 1000}`)
  if (toPlan(used.plan) !== 'pro') throw new AppError('FORBIDDEN', API_PLAN_MESSAGE)
  if (used.windowCount > limit) {
    c.header('Retry-After', String(resetSeconds))
    throw new AppError('RATE_LIMITED', `Too many requests with this API key: at most ${limit} a minute. Try again in ${resetSeconds} s.`)
  }
  c.set('apiUserId', used.userId)
  c.set('apiKeyId', used.id)
  await next()
})
