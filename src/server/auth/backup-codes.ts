import { randomInt } from 'node:crypto'

/**
 * Backup codes are read off paper or a screen and typed back, so their alphabet has no look-alike
 * characters (issue 12): no 0/O/Q/D, 1/I/L, 2/Z, 5/S, 8/B, 9/g/q, 6/G or U/V, and no lowercase.
 * 18 symbols × 10 characters ≈ 41.7 bits per code, against Better Auth's throttled sign-in.
 */
export const BACKUP_CODE_ALPHABET = '347ACEFHJKMNPRTWXY'

const CODE_LENGTH = 10
const CODE_COUNT = 10

/** Ten codes like `K7RTA-X4MWP` (Better Auth's customBackupCodesGenerate). */
export function generateBackupCodes(): string[] {
  return Array.from({ length: CODE_COUNT }, () => {
    const code = Array.from({ length: CODE_LENGTH }, () => BACKUP_CODE_ALPHABET[randomInt(BACKUP_CODE_ALPHABET.length)]).join('')
    return `${code.slice(0, 5)}-${code.slice(5)}`
  })
}
