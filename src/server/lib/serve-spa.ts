import { existsSync, readFileSync, statSync, createReadStream, type Stats } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Context, Hono } from 'hono'
import { getMimeType } from 'hono/utils/mime'
import { isClientRoute } from '../../shared/paths'
import { COMPRESSIBLE_ASSET, LANDING_HTML, PRECOMPRESSED, type ContentEncoding } from '../../shared/web-build'
import type { AppEnv } from '../context'

export const IMMUTABLE = 'public, max-age=31536000, immutable'
const SERVER_PREFERENCE: readonly ContentEncoding[] = PRECOMPRESSED.map((p) => p.encoding)
/** Vite's output names: letters, digits, dash, underscore, dot; never a folder. */
const ASSET_NAME = /^[\w-]+(?:\.[\w-]+)+$/

/**
 * The encoding to answer with, from the request's Accept-Encoding (RFC 9110 §12.5.3): the
 * client's highest q-value among those we have, ties going to the server's order (brotli first);
 * null means identity. `*` stands for any coding not listed; q=0 refuses one.
 */
export function negotiateEncoding(acceptEncoding: string | undefined, available: readonly ContentEncoding[]): ContentEncoding | null {
  if (!acceptEncoding || available.length === 0) return null
  const weights = new Map<string, number>()
  for (const part of acceptEncoding.split(',')) {
    const [rawName, ...params] = part.split(';')
    const name = rawName?.trim().toLowerCase()
    if (!name) continue
    let q = 1
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param)
      if (match) q = Math.min(1, Number(match[1]) || 0)
    }
    weights.set(name, q)
  }
  let best: ContentEncoding | null = null
  let bestQ = 0
  for (const encoding of SERVER_PREFERENCE) {
    if (!available.includes(encoding)) continue
    const q = weights.get(encoding) ?? weights.get('*') ?? 0
    if (q > bestQ) {
      best = encoding
      bestQ = q
    }
  }
  return best
}

function statFile(path: string): Stats | null {
  try {
    const stats = statSync(path)
    return stats.isFile() ? stats : null
  } catch {
    return null
  }
}

/** One HTML page held in memory with its compressed forms (it is served on every navigation). */
type HtmlVariants = { identity: Buffer } & Record<ContentEncoding, Buffer>

function htmlVariants(html: string): HtmlVariants {
  const identity = Buffer.from(html, 'utf8')
  return {
    identity,
    br: brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzip: gzipSync(identity, { level: 9 }),
  }
}

function sendHtml(c: Context<AppEnv>, page: HtmlVariants, status: 200 | 404) {
  const encoding = negotiateEncoding(c.req.header('accept-encoding'), SERVER_PREFERENCE)
  const body = encoding ? page[encoding] : page.identity
  c.header('Content-Type', 'text/html; charset=UTF-8')
  c.header('Vary', 'Accept-Encoding')
  if (encoding) c.header('Content-Encoding', encoding)
  c.header('Content-Length', String(body.length))
  // HTML names the current hashed assets, so browsers ask again each time.
  c.header('Cache-Control', 'no-cache')
  return c.body(new Uint8Array(body), status)
}

/**
 * Serves the built SPA (docs/decisions/025): hashed assets from `assets/` with the precompressed
 * copy the client accepts and cached for a year; the prerendered landing page at `/`; the shell
 * index.html for every other client route (404 status for unknown ones).
 */
export function mountSpa(app: Hono<AppEnv>, webRoot: string) {
  const shell = htmlVariants(readFileSync(join(webRoot, 'index.html'), 'utf8'))
  const landingPath = join(webRoot, LANDING_HTML)
  const landing = existsSync(landingPath) ? htmlVariants(readFileSync(landingPath, 'utf8')) : shell

  app.get('/assets/:name', async (c, next) => {
    const name = c.req.param('name')
    if (!ASSET_NAME.test(name)) return next()
    const file = join(webRoot, 'assets', name)
    const stats = statFile(file)
    if (!stats) return next()
    let path = file
    let size = stats.size
    if (COMPRESSIBLE_ASSET.test(name)) {
      // Caches must key on the encoding even when this answer is identity.
      c.header('Vary', 'Accept-Encoding')
      const available = PRECOMPRESSED.filter((p) => statFile(file + p.extension)).map((p) => p.encoding)
      const encoding = negotiateEncoding(c.req.header('accept-encoding'), available)
      const variant = PRECOMPRESSED.find((p) => p.encoding === encoding)
      const variantStats = variant && statFile(file + variant.extension)
      if (variant && variantStats) {
        path = file + variant.extension
        size = variantStats.size
        c.header('Content-Encoding', variant.encoding)
      }
    }
    c.header('Content-Type', getMimeType(name) ?? 'application/octet-stream')
    c.header('Content-Length', String(size))
    c.header('Cache-Control', IMMUTABLE)
    if (c.req.method === 'HEAD') return c.body(null, 200)
    return c.body(Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>, 200)
  })

  // Other files of the build (favicon, robots.txt): only paths that name a file.
  const serveFile = serveStatic({ root: webRoot })
  app.use('*', (c, next) => (/\/[^/]+\.[a-z0-9]+$/i.test(c.req.path) && !c.req.path.startsWith('/assets/') ? serveFile(c, next) : next()))
  app.get('*', (c) => {
    if (c.req.path === '/') return sendHtml(c, landing, 200)
    if (isClientRoute(c.req.path)) return sendHtml(c, shell, 200)
    // The SPA renders the 404 page; the status tells crawlers and logs the truth.
    c.var.logger.warn({ path: c.req.path }, 'unknown route requested')
    return sendHtml(c, shell, 404)
  })
}
