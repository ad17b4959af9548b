/**
 * Names shared by the web build (vite.config.ts) and the server that serves it
 * (docs/decisions/025-prerendered-landing-and-precompressed-assets.md).
 */

/** The landing page's HTML, rendered at build time; index.html stays the empty shell for every other route. */
export const LANDING_HTML = 'landing.html'

/** Precompressed copies written beside each hashed asset, in the order the server prefers them. */
export const PRECOMPRESSED = [
  { encoding: 'br', extension: '.br' },
  { encoding: 'gzip', extension: '.gz' },
] as const

export type ContentEncoding = (typeof PRECOMPRESSED)[number]['encoding']

/** Text assets worth compressing (images and fonts are compressed already). */
export const COMPRESSIBLE_ASSET = /\.(?:js|mjs|css|svg|json|html|txt|map)$/i
