import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { brotliCompress, constants as zlib, gzip } from 'node:zlib'
import { build, type Plugin, type ResolvedConfig } from 'vite'
import { COMPRESSIBLE_ASSET, LANDING_HTML } from '../../src/shared/web-build.ts'

/**
 * Build steps for a fast landing page (docs/decisions/025). Both run after the client bundle is
 * written, only in a client `vite build` (not in the SSR build the first one starts, nor in dev).
 */

const ROOT_DIV = '<div id="root"></div>'
const PRERENDER_ENTRY = 'prerender.tsx'

function clientBuildOnly(_config: unknown, env: { command: string; isSsrBuild?: boolean }) {
  return env.command === 'build' && !env.isSsrBuild
}

/**
 * Renders the landing route to HTML with react-dom/server (an SSR build of
 * `src/web/prerender.tsx`, through this same config so aliases and plugins match) and writes it
 * into the built `landing.html` (the landing page's own entry); landing-main.tsx hydrates it.
 */
export function prerenderLanding(): Plugin {
  let config: ResolvedConfig
  return {
    name: 'mailrow:prerender-landing',
    apply: clientBuildOnly,
    configResolved(resolved) {
      config = resolved
    },
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir)
      // Inside the project, so the rendered module resolves react and friends from node_modules.
      const ssrOutDir = resolve(config.root, '../../.tmp/prerender')
      await build({
        configFile: config.configFile,
        mode: config.mode,
        logLevel: 'warn',
        build: { ssr: PRERENDER_ENTRY, outDir: ssrOutDir, emptyOutDir: true, sourcemap: false, copyPublicDir: false },
      })
      const entry = join(ssrOutDir, PRERENDER_ENTRY.replace(/\.tsx$/, '.js'))
      const { renderLanding } = (await import(`${pathToFileURL(entry).href}?t=${Date.now()}`)) as { renderLanding: () => string }
      const landing = join(outDir, LANDING_HTML)
      const html = readFileSync(landing, 'utf8')
      if (!html.includes(ROOT_DIV)) throw new Error(`prerender: ${ROOT_DIV} not found in ${LANDING_HTML}`)
      writeFileSync(landing, html.replace(ROOT_DIV, `<div id="root">${renderLanding()}</div>`))
    },
  }
}

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

/**
 * Writes `.br` (quality 11) and `.gz` (level 9) beside every compressible file in `assets/`, so
 * the server never compresses on a request. Source maps are left alone: only developer tools
 * fetch them. A copy is kept only when it is smaller than the file.
 */
export function precompressAssets(): Plugin {
  let outDir: string
  return {
    name: 'mailrow:precompress-assets',
    apply: clientBuildOnly,
    enforce: 'post',
    configResolved(resolved) {
      outDir = resolve(resolved.root, resolved.build.outDir)
    },
    async closeBundle() {
      const assets = join(outDir, 'assets')
      if (!existsSync(assets)) return
      const files = readdirSync(assets).filter((name) => COMPRESSIBLE_ASSET.test(name) && !name.endsWith('.map'))
      await Promise.all(
        files.map(async (name) => {
          const path = join(assets, name)
          const data = readFileSync(path)
          const [br, gzipped] = await Promise.all([
            brotli(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: statSync(path).size } }),
            gz(data, { level: 9 }),
          ])
          if (br.length < data.length) await writeFile(`${path}.br`, br)
          if (gzipped.length < data.length) await writeFile(`${path}.gz`, gzipped)
        }),
      )
    },
  }
}
