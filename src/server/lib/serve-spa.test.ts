import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync, brotliDecompressSync, gzipSync, brotliCompressSync } from 'node:zlib'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { AppEnv } from '../context'
import { createLogger } from './logger'
import { IMMUTABLE, mountSpa, negotiateEncoding } from './serve-spa'

const SCRIPT = `console.log(${JSON.stringify('landing '.repeat(200))})`

/** A built web root as `vite build` leaves it: shell, prerendered landing, hashed assets with .br/.gz. */
function webRoot() {
  const root = mkdtempSync(join(tmpdir(), 'mailrow-web-'))
  mkdirSync(join(root, 'assets'))
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Mailrow</title><div id="root"></div>')
  writeFileSync(join(root, 'landing.html'), '<!doctype html><title>Mailrow</title><div id="root"><h1>Turn emails into rows</h1></div>')
  writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  const asset = join(root, 'assets', 'index-AbC123_x.js')
  writeFileSync(asset, SCRIPT)
  writeFileSync(`${asset}.br`, brotliCompressSync(SCRIPT))
  writeFileSync(`${asset}.gz`, gzipSync(SCRIPT))
  // Only gzip was worth keeping for this one.
  const css = join(root, 'assets', 'index-Zz9.css')
  writeFileSync(css, 'body{color:red}'.repeat(50))
  writeFileSync(`${css}.gz`, gzipSync('body{color:red}'.repeat(50)))
  writeFileSync(join(root, 'assets', 'logo-Q1.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]))
  return root
}

function app() {
  const hono = new Hono<AppEnv>()
  hono.use(async (c, next) => {
    c.set('logger', createLogger('silent'))
    await next()
  })
  mountSpa(hono, webRoot())
  return hono
}

const get = (path: string, acceptEncoding?: string, method = 'GET') =>
  app().request(path, { method, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } })

describe('negotiateEncoding', () => {
  it('prefers brotli, then gzip, among what the client accepts and we have', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd', ['br', 'gzip'])).toBe('br')
    expect(negotiateEncoding('gzip, deflate', ['br', 'gzip'])).toBe('gzip')
    expect(negotiateEncoding('br', ['gzip'])).toBeNull()
    expect(negotiateEncoding('', ['br', 'gzip'])).toBeNull()
    expect(negotiateEncoding(undefined, ['br', 'gzip'])).toBeNull()
    expect(negotiateEncoding('identity', ['br', 'gzip'])).toBeNull()
  })

  it('honours q-values: a higher one wins, q=0 refuses, * covers the unlisted', () => {
    expect(negotiateEncoding('br;q=0.5, gzip;q=0.9', ['br', 'gzip'])).toBe('gzip')
    expect(negotiateEncoding('br;q=0, gzip', ['br', 'gzip'])).toBe('gzip')
    expect(negotiateEncoding('BR ; Q=1.0', ['br', 'gzip'])).toBe('br')
    expect(negotiateEncoding('*', ['br', 'gzip'])).toBe('br')
    expect(negotiateEncoding('br;q=0, *;q=0.1', ['br', 'gzip'])).toBe('gzip')
    expect(negotiateEncoding('*;q=0', ['br', 'gzip'])).toBeNull()
  })
})

describe('hashed assets', () => {
  it('sends the brotli copy to a browser that accepts it, cached for a year', async () => {
    const response = await get('/assets/index-AbC123_x.js', 'gzip, deflate, br, zstd')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-encoding')).toBe('br')
    expect(response.headers.get('vary')).toBe('Accept-Encoding')
    expect(response.headers.get('cache-control')).toBe(IMMUTABLE)
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/)
    const body = Buffer.from(await response.arrayBuffer())
    expect(Number(response.headers.get('content-length'))).toBe(body.length)
    expect(body.length).toBeLessThan(SCRIPT.length)
    expect(brotliDecompressSync(body).toString()).toBe(SCRIPT)
  })

  it('sends gzip to a client without brotli', async () => {
    const response = await get('/assets/index-AbC123_x.js', 'gzip, deflate')
    expect(response.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await response.arrayBuffer())).toString()).toBe(SCRIPT)
  })

  it('sends the file as it is to a client that accepts no compression, still varying on the header', async () => {
    const response = await get('/assets/index-AbC123_x.js')
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(response.headers.get('vary')).toBe('Accept-Encoding')
    expect(response.headers.get('cache-control')).toBe(IMMUTABLE)
    expect(await response.text()).toBe(SCRIPT)
  })

  it('falls back to the copy that exists when the preferred one was not worth writing', async () => {
    const response = await get('/assets/index-Zz9.css', 'br, gzip')
    expect(response.headers.get('content-encoding')).toBe('gzip')
    expect(response.headers.get('content-type')).toMatch(/^text\/css/)
  })

  it('never compresses what is compressed already, and does not vary on it', async () => {
    const response = await get('/assets/logo-Q1.png', 'br, gzip')
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(response.headers.get('vary')).toBeNull()
    expect(response.headers.get('cache-control')).toBe(IMMUTABLE)
    expect(response.headers.get('content-type')).toBe('image/png')
  })

  it('answers HEAD with the headers and no body', async () => {
    const response = await get('/assets/index-AbC123_x.js', 'br', 'HEAD')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-encoding')).toBe('br')
    expect(await response.text()).toBe('')
  })

  it('does not serve a precompressed copy by its own name as if it were the asset, nor leave the folder', async () => {
    for (const path of ['/assets/..%2Findex.html', '/assets/%2e%2e/landing.html']) {
      const response = await get(path, 'br')
      expect(response.headers.get('cache-control')).not.toBe(IMMUTABLE)
    }
    const missing = await get('/assets/missing-XyZ.js', 'br')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('cache-control')).toBe('no-cache')
  })
})

describe('pages', () => {
  it('serves the prerendered landing page at / and the empty shell for other client routes, both revalidated', async () => {
    const landing = await get('/')
    expect(await landing.text()).toContain('<h1>Turn emails into rows</h1>')
    expect(landing.headers.get('cache-control')).toBe('no-cache')
    const login = await get('/login')
    expect(login.status).toBe(200)
    expect(await login.text()).toContain('<div id="root"></div>')
    const unknown = await get('/nope')
    expect(unknown.status).toBe(404)
    expect(await unknown.text()).toContain('<div id="root"></div>')
  })

  it('compresses pages per Accept-Encoding', async () => {
    const br = await get('/', 'gzip, br')
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('vary')).toBe('Accept-Encoding')
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toContain('Turn emails into rows')
    const gz = await get('/dashboard', 'gzip')
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toContain('<div id="root"></div>')
    const plain = await get('/')
    expect(plain.headers.get('content-encoding')).toBeNull()
  })

  it('serves the other files of the build (favicon) as before', async () => {
    const response = await get('/favicon.svg')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
  })
})
