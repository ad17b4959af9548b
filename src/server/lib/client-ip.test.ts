import { describe, expect, it } from 'vitest'
import { parseEnv } from '../env'
import { isLoopback, resolveClientIp } from './client-ip'

const trust = (value: string) => parseEnv({ TRUST_PROXY: value }).TRUST_PROXY

describe('resolveClientIp', () => {
  it('uses the socket and ignores X-Forwarded-For without TRUST_PROXY', () => {
    expect(resolveClientIp({ connectionIp: '203.0.113.9', forwardedFor: '127.0.0.1', trustProxy: trust('') })).toBe('203.0.113.9')
  })

  it('takes the entry the trusted proxy added, not the one the client wrote (one hop)', () => {
    const ip = resolveClientIp({ connectionIp: '127.0.0.1', forwardedFor: '127.0.0.1, 203.0.113.9', trustProxy: trust('1') })
    expect(ip).toBe('203.0.113.9')
    expect(resolveClientIp({ connectionIp: '127.0.0.1', forwardedFor: '203.0.113.9', trustProxy: trust('true') })).toBe('203.0.113.9')
  })

  it('skips as many entries as there are trusted hops', () => {
    const ip = resolveClientIp({ connectionIp: '10.0.0.2', forwardedFor: '127.0.0.1, 198.51.100.4, 10.0.0.7', trustProxy: trust('2') })
    expect(ip).toBe('198.51.100.4')
  })

  it('walks past listed proxy addresses and CIDRs to the first address none of them added', () => {
    const trustProxy = trust('10.0.0.0/8, 192.0.2.1')
    expect(resolveClientIp({ connectionIp: '10.1.2.3', forwardedFor: '127.0.0.1, 198.51.100.4, 192.0.2.1', trustProxy })).toBe('198.51.100.4')
    // A request that did not come through a listed proxy: the socket is the client.
    expect(resolveClientIp({ connectionIp: '198.51.100.8', forwardedFor: '127.0.0.1', trustProxy })).toBe('198.51.100.8')
  })

  it('never lets a malformed entry stand in for the client', () => {
    expect(resolveClientIp({ connectionIp: '10.0.0.2', forwardedFor: 'not-an-ip', trustProxy: trust('1') })).toBe('10.0.0.2')
    expect(resolveClientIp({ connectionIp: '10.0.0.2', forwardedFor: '127.0.0.1, junk', trustProxy: trust('10.0.0.0/8') })).toBe('10.0.0.2')
  })

  it('falls back to the socket when a proxy sent no X-Forwarded-For, and unwraps IPv4-mapped addresses', () => {
    expect(resolveClientIp({ connectionIp: '::ffff:10.0.0.2', forwardedFor: undefined, trustProxy: trust('1') })).toBe('10.0.0.2')
    expect(isLoopback('::ffff:127.0.0.1')).toBe(true)
    expect(isLoopback('203.0.113.9')).toBe(false)
  })

  it('refuses a TRUST_PROXY that is neither a flag, a count nor a list of addresses', () => {
    expect(() => parseEnv({ TRUST_PROXY: 'proxy.example.com' })).toThrow(/TRUST_PROXY/)
    expect(() => parseEnv({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY/)
  })
})
