import { describe, expect, it } from 'vitest'
import { BACKUP_CODE_ALPHABET, generateBackupCodes } from './backup-codes'

/** Groups of characters people mistake for one another on paper or in a sans-serif font. */
const LOOK_ALIKES = ['0OQD', '1IlLi|', '2Z', '5S', '8B', '9gq', '6G', 'UV', 'uv', 'rn', 'm']

describe('backup codes', () => {
  it('use no look-alike characters and no lowercase', () => {
    for (const group of LOOK_ALIKES) for (const ch of group) expect(BACKUP_CODE_ALPHABET, ch).not.toContain(ch)
    expect(BACKUP_CODE_ALPHABET).toMatch(/^[A-Z0-9]+$/)
    expect(new Set(BACKUP_CODE_ALPHABET).size).toBe(BACKUP_CODE_ALPHABET.length)
  })

  it('are ten different codes of ten characters from that alphabet, grouped by five', () => {
    const codes = generateBackupCodes()
    expect(codes).toHaveLength(10)
    expect(new Set(codes).size).toBe(10)
    const pattern = new RegExp(`^[${BACKUP_CODE_ALPHABET}]{5}-[${BACKUP_CODE_ALPHABET}]{5}$`)
    for (const code of codes) expect(code).toMatch(pattern)
  })
})
