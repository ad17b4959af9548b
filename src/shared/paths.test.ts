import { describe, expect, it } from 'vitest'
import { isClientRoute } from './paths'

describe('isClientRoute', () => {
  it('knows the spec routes, with or without a trailing slash', () => {
    for (const path of ['/', '/login', '/signup', '/privacy', '/terms', '/dashboard', '/create-parser', '/settings', '/dashboard/']) {
      expect(isClientRoute(path)).toBe(true)
    }
  })
  it("knows a parser's page and its training view", () => {
    const id = '0b8e8c2e-4f0a-4c33-9d6e-2f7d3f1b9a10'
    expect(isClientRoute('/parsers')).toBe(true)
    expect(isClientRoute(`/parsers/${id}`)).toBe(true)
    expect(isClientRoute(`/parsers/${id}/emails/${id}/train`)).toBe(true)
    expect(isClientRoute('/parsers/nope')).toBe(false)
    expect(isClientRoute(`/parsers/${id}/emails`)).toBe(false)
  })
  it('rejects anything else', () => {
    expect(isClientRoute('/nope')).toBe(false)
    expect(isClientRoute('/dashboard/extra')).toBe(false)
  })
})
