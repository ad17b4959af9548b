import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * APP_SECRET signs sessions and derives the token-encryption key. Without one configured, a
 * random secret is made once and kept in the data directory, so restarts keep sessions valid.
 */
export function resolveAppSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured
  const file = join(dataDir, 'app-secret')
  try {
    const stored = readFileSync(file, 'utf8').trim()
    if (stored.length >= 32) return stored
  } catch {
    // not made yet
  }
  mkdirSync(dataDir, { recursive: true })
  const secret = randomBytes(48).toString('base64url')
  writeFileSync(file, `${secret}\n`, { mode: 0o600 })
  return secret
}
