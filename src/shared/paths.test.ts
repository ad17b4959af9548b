import { describe, expect, it } from 'vitest'
import { isClientRoute } from './paths'

describe('isClientRoute', () => {
  it('knows the spec routes, with or without a trailing slash', () => {
    for (const path of ['/', '/login', '/signup', '/privacy', '/terms', '/dashboard', '/create-parser', '/settings', '/dashboard/']) {
      expect(isClientRoute(path)).toBe(true)
    }
  })
  it('rejects anything else', () => {
    expect(isClientRoute('/nope')).toBe(false)
    expect(isClientRoute('/dashboard/extra')).toBe(false)
  })
})
