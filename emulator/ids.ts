import { createHash, randomBytes } from 'node:crypto'

const urlSafe = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

export function randomToken(length: number, alphabet = urlSafe): string {
  const bytes = randomBytes(length)
  let out = ''
  for (const byte of bytes) out += alphabet[byte % alphabet.length]
  return out
}

/** Google's user ids ("sub") are 21-digit numbers; derive a stable one from the address. */
export function subjectForEmail(email: string): string {
  const digest = createHash('sha256').update(email.toLowerCase()).digest()
  let digits = '1'
  for (const byte of digest) {
    if (digits.length >= 21) break
    digits += String(byte % 10)
  }
  return digits
}

/** Spreadsheet ids look like Google's: 44 URL-safe characters starting with "1". */
export function spreadsheetId(): string {
  return `1${randomToken(43)}`
}

/** Gmail's `data` and `raw` fields are URL-safe base64 that keeps its `=` padding. */
export function base64urlPadded(data: Uint8Array | string): string {
  return Buffer.from(data).toString('base64').replace(/\+/g, '-').replace(/\//g, '_')
}
