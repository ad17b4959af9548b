import { createHash, randomBytes } from 'node:crypto'
import { API_KEY_PREFIX, API_PLAN_MESSAGE, createApiKeyInputSchema, type ApiKeyView, type CreateApiKeyInput, type CreatedApiKey } from '@shared/contracts/api'
import { toPlan } from '@shared/plans'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/errors'
import { findUserById } from '../account/account.queries'
import { insertApiKey, listApiKeysByUser, revokeApiKey, type ApiKeyRow } from './api-keys.queries'

const DAY_MS = 24 * 60 * 60 * 1000

/** The stored form of a key. Keys are 256 random bits, so a plain SHA-256 (no salt, no stretching) can't be reversed. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

function toView(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    start: row.start,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  }
}

/** API keys and the API are Pro (spec §6); everyone else is told so with the upgrade wording. */
export async function requireProPlan(db: Db, userId: string) {
  const user = await findUserById(db, userId)
  if (toPlan(user?.plan) !== 'pro') throw new AppError('FORBIDDEN', API_PLAN_MESSAGE)
}

export async function listApiKeys(db: Db, { userId }: { userId: string }): Promise<ApiKeyView[]> {
  return (await listApiKeysByUser(db, userId)).map(toView)
}

export async function createApiKey(db: Db, { userId, input, now = new Date() }: { userId: string; input: CreateApiKeyInput; now?: Date }): Promise<CreatedApiKey> {
  await requireProPlan(db, userId)
  const { name, expiresIn } = createApiKeyInputSchema.parse(input)
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`
  const row = await insertApiKey(db, {
    userId,
    name,
    start: key.slice(0, API_KEY_PREFIX.length + 4),
    keyHash: hashApiKey(key),
    expiresAt: expiresIn === 'never' ? null : new Date(now.getTime() + Number(expiresIn) * DAY_MS),
  })
  return { apiKey: toView(row), key }
}

export async function deleteApiKey(db: Db, { userId, id, now = new Date() }: { userId: string; id: string; now?: Date }) {
  if (!(await revokeApiKey(db, userId, id, now))) throw new AppError('NOT_FOUND', 'API key not found')
}
