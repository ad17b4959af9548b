import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto'

export type SigningKey = {
  kid: string
  privateKey: KeyObject
  publicKeyPem: string
  jwk: { kty: string; n: string; e: string; alg: 'RS256'; use: 'sig'; kid: string }
}

let shared: SigningKey | undefined

/** One RSA key per process: generating it costs tens of milliseconds and tests start many emulators. */
export function getSigningKey(): SigningKey {
  if (shared) return shared
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString()
  const kid = createHash('sha256').update(publicKeyPem).digest('hex').slice(0, 40)
  const exported = publicKey.export({ format: 'jwk' }) as { kty: string; n: string; e: string }
  shared = { kid, privateKey, publicKeyPem, jwk: { kty: exported.kty, n: exported.n, e: exported.e, alg: 'RS256', use: 'sig', kid } }
  return shared
}

export function signJwt(payload: Record<string, unknown>, key: SigningKey = getSigningKey()): string {
  const header = { alg: 'RS256', kid: key.kid, typ: 'JWT' }
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const signingInput = `${encode(header)}.${encode(payload)}`
  const signature = sign('RSA-SHA256', Buffer.from(signingInput), key.privateKey).toString('base64url')
  return `${signingInput}.${signature}`
}

/** OpenID Connect `at_hash`: the left half of the SHA-256 of the access token. */
export function accessTokenHash(accessToken: string): string {
  const digest = createHash('sha256').update(accessToken).digest()
  return digest.subarray(0, digest.length / 2).toString('base64url')
}
