import type { AuthSession } from './auth'

/**
 * Validated sessions kept in this process for a few seconds, so a signed-in request costs no
 * database round trip (docs/decisions/018). Keyed by the exact signed cookie value Better Auth
 * accepted, so only a cookie that was checked against the database is ever answered from here.
 *
 * Revocation stays immediate: every path that ends or changes a session in this process forgets
 * the user's entries before it answers (our session routes, account deletion, and every Better
 * Auth endpoint but a few read-only or sign-in ones, through its after hook). A session ended by
 * another process (a second server) is refused at the latest when its entry expires (the TTL).
 */
export class SessionCache {
  private readonly entries = new Map<string, { value: AuthSession; cachedUntil: number }>()
  /**
   * Bumped by every invalidation. A lookup that started before one may have read a session that
   * is gone by now: its answer is used for that request but never stored.
   */
  private generation = 0

  constructor(
    readonly cookieName: string,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get enabled() {
    return this.ttlMs > 0
  }

  /** The session cookie's value in these request headers (the cache key), if any. */
  keyOf(headers: Headers): string | undefined {
    const cookie = headers.get('cookie')
    if (!cookie) return undefined
    for (const part of cookie.split(';')) {
      const eq = part.indexOf('=')
      if (eq > 0 && part.slice(0, eq).trim() === this.cookieName) return part.slice(eq + 1).trim() || undefined
    }
    return undefined
  }

  get(key: string | undefined, now = Date.now()): AuthSession | undefined {
    if (!key || !this.enabled) return undefined
    const entry = this.entries.get(key)
    if (!entry) return undefined
    if (entry.cachedUntil <= now || new Date(entry.value.session.expiresAt).getTime() <= now) {
      this.entries.delete(key)
      return undefined
    }
    return entry.value
  }

  /** Where a lookup starts: pass it to `set`, which refuses the answer if anything was invalidated since. */
  mark() {
    return this.generation
  }

  set(key: string | undefined, value: AuthSession, mark: number, now = Date.now()) {
    if (!key || !this.enabled || mark !== this.generation) return
    if (this.entries.size >= this.maxEntries) {
      // Oldest first (a Map keeps insertion order): whoever is evicted is looked up again.
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.entries.delete(oldest)
    }
    this.entries.delete(key)
    this.entries.set(key, { value, cachedUntil: now + this.ttlMs })
  }

  /** After a request moved the session's "last used" forward in the database. */
  touched(key: string | undefined, updatedAt: Date) {
    const entry = key ? this.entries.get(key) : undefined
    if (entry) entry.value = { ...entry.value, session: { ...entry.value.session, updatedAt } }
  }

  forgetKey(key: string | undefined) {
    this.generation++
    if (key) this.entries.delete(key)
  }

  /** Every session of this user: after a revocation, a password change, a change to the user. */
  forgetUser(userId: string) {
    this.generation++
    for (const [key, entry] of this.entries) if (entry.value.user.id === userId) this.entries.delete(key)
  }

  clear() {
    this.generation++
    this.entries.clear()
  }

  get size() {
    return this.entries.size
  }
}
