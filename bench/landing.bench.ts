import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { chromium } from 'playwright-core'
import type { AppEnv } from '../src/server/context'
import { createLogger } from '../src/server/lib/logger'
import { mountSpa } from '../src/server/lib/serve-spa'
import { LANDING_HTML } from '../src/shared/web-build'

const webRoot = new URL('../dist/web', import.meta.url).pathname
/** Chrome DevTools' "Slow 4G" preset (150 ms, 1.6 Mbit/s down, 750 kbit/s up) and a 4× slower CPU. */
const NETWORK = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 }
const CPU_SLOWDOWN = 4

/** The scripts landing.html loads before it is interactive: its module entry and modulepreloads. */
function criticalScripts(): string[] {
  const html = readFileSync(join(webRoot, LANDING_HTML), 'utf8')
  return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]!)
}

const size = (path: string) => (existsSync(path) ? statSync(path).size : 0)

/**
 * The landing page: its JavaScript's size (raw, gzip, brotli; the critical path from the built
 * HTML, and everything a browser fetched until the network was idle) and its first contentful
 * paint in Chromium on a throttled mobile profile. Needs a build (`npm run build`).
 */
export async function runLandingBench() {
  if (!existsSync(join(webRoot, LANDING_HTML))) throw new Error('No build in dist/web: run `npm run build` first')
  const critical = criticalScripts()
  const sum = (suffix: string) => critical.reduce((total, src) => total + size(join(webRoot, src) + suffix), 0)
  console.log(`critical-path JavaScript (${critical.length} files in landing.html): ${sum('')} B raw, ${sum('.gz')} B gzip -9, ${sum('.br')} B brotli -q11`)

  const app = new Hono<AppEnv>()
  app.use(async (c, next) => {
    c.set('logger', createLogger('silent'))
    await next()
  })
  mountSpa(app, webRoot)
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise((resolve) => server.once('listening', resolve))
  const address = server.address()
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] })
  try {
    const runs: number[] = []
    let fetched = { files: 0, bytes: 0 }
    for (let run = 0; run < 3; run += 1) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
      const page = await context.newPage()
      const cdp = await context.newCDPSession(page)
      await cdp.send('Network.enable')
      await cdp.send('Network.emulateNetworkConditions', NETWORK)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
      await page.goto(url, { waitUntil: 'networkidle' })
      const measured = await page.evaluate(() => {
        const paint = performance.getEntriesByName('first-contentful-paint')[0]
        const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((entry) => entry.name.endsWith('.js'))
        return { fcp: paint?.startTime ?? NaN, files: scripts.length, bytes: scripts.reduce((total, entry) => total + entry.encodedBodySize, 0) }
      })
      runs.push(measured.fcp)
      fetched = { files: measured.files, bytes: measured.bytes }
      await context.close()
    }
    console.log(`JavaScript fetched until network idle: ${fetched.files} files, ${fetched.bytes} B as sent (brotli)`)
    console.log(
      `first contentful paint, 390 px, Slow 4G (150 ms, 1.6 Mbit/s) and ${CPU_SLOWDOWN}× CPU slowdown, ${runs.length} cold loads: ${runs.map((ms) => `${Math.round(ms)} ms`).join(', ')}`,
    )
  } finally {
    await browser.close()
    server.close()
  }
}
