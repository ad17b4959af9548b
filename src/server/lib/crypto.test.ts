import { describe, expect, it } from 'vitest'
import { createSecretBox } from './crypto'

describe('secret box', () => {
  const box = createSecretBox('a-long-enough-application-secret-value')

  it('round-trips and never stores the plain text', () => {
    const sealed = box.encrypt('ya29.refresh-token')
    expect(sealed).not.toContain('ya29')
    expect(box.decrypt(sealed)).toBe('ya29.refresh-token')
    expect(box.encrypt('ya29.refresh-token')).not.toBe(sealed)
  })

  it('keeps the empty string empty (spec: refresh_token may be empty)', () => {
    expect(box.encrypt('')).toBe('')
    expect(box.decrypt('')).toBe('')
  })

  it('refuses tampered ciphertext and another secret', () => {
    const sealed = box.encrypt('token')
    const parts = sealed.split('.')
    parts[3] = Buffer.from('tampered').toString('base64url')
    expect(() => box.decrypt(parts.join('.'))).toThrow()
    expect(() => createSecretBox('another-secret-of-sufficient-length').decrypt(sealed)).toThrow()
  })
})
