import { hash, verify, type Options } from '@node-rs/argon2'

/**
 * Argon2id at OWASP's recommended minimum (ASVS V2.4 / Password Storage Cheat Sheet):
 * 19 MiB of memory, 2 iterations, 1 lane. Memory-hard, so GPU guessing stays expensive.
 */
// algorithm 2 is Argon2id (a const enum in the package's types, so written as its value).
const ARGON2_OPTIONS: Options = { algorithm: 2 as Options['algorithm'], memoryCost: 19456, timeCost: 2, parallelism: 1 }

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS)
}

export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }): Promise<boolean> {
  try {
    return await verify(stored, password)
  } catch {
    // A malformed stored hash is a failed check, not a crash.
    return false
  }
}
