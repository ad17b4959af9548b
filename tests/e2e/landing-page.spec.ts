import { describe, expect, it } from 'vitest'
import { useBrowser, waitForPath } from './browser'

const { newPage, baseUrl } = useBrowser()

/** The budget: the landing page's JavaScript, gzip-compressed, as it crosses the network. */
const LANDING_JS_BUDGET_BYTES = 110_000
const HEADLINE = 'Turn notification emails into spreadsheet rows automatically'

describe('a fast landing page', () => {
  it('arrives prerendered: the headline and prices are in the HTML and show with JavaScript off', async () => {
    const html = await (await fetch(`${baseUrl}/`)).text()
    expect(html).toContain(HEADLINE)
    expect(html).toContain('Most Popular')
    const page = await newPage({ javaScriptEnabled: false })
    await page.goto('/')
    await page.getByRole('heading', { level: 1, name: HEADLINE }).waitFor()
    await page.getByRole('link', { name: 'Sign In' }).first().waitFor()
  })

  it('loads at most 110 KB of gzip JavaScript, every script compressed and cached for good', async () => {
    const page = await newPage()
    const scripts = new Map<string, { encoding?: string; cacheControl?: string }>()
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.endsWith('.js')) {
        const headers = response.headers()
        scripts.set(response.url(), { encoding: headers['content-encoding'], cacheControl: headers['cache-control'] })
      }
    })
    await page.goto('/', { waitUntil: 'networkidle' })
    await page.getByRole('heading', { level: 1, name: HEADLINE }).waitFor()
    expect(scripts.size).toBeGreaterThan(0)
    let gzipBytes = 0
    let brotliBytes = 0
    for (const [url, seen] of scripts) {
      expect(seen, url).toEqual({ encoding: 'br', cacheControl: 'public, max-age=31536000, immutable' })
      const sizeAs = async (encoding: string) => {
        const response = await fetch(url, { method: 'HEAD', headers: { 'accept-encoding': encoding } })
        expect(response.headers.get('content-encoding')).toBe(encoding)
        return Number(response.headers.get('content-length'))
      }
      gzipBytes += await sizeAs('gzip')
      brotliBytes += await sizeAs('br')
    }
    console.log(`landing page JavaScript on the wire: ${scripts.size} files, ${gzipBytes} B gzip, ${brotliBytes} B brotli (budget ${LANDING_JS_BUDGET_BYTES} B gzip)`)
    expect(gzipBytes).toBeLessThanOrEqual(LANDING_JS_BUDGET_BYTES)
  })

  it('its links open the app without a reload, and Back returns to it', async () => {
    const page = await newPage()
    await page.goto('/')
    await page.getByRole('heading', { level: 1, name: HEADLINE }).waitFor()
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true))
    await page.getByRole('link', { name: 'Sign In' }).first().click()
    await waitForPath(page, '/login')
    await page.getByLabel('Email', { exact: true }).waitFor()
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true)
    await page.goBack()
    await page.getByRole('heading', { level: 1, name: HEADLINE }).waitFor()
    await page.getByRole('link', { name: 'Start Free Trial' }).first().click()
    await waitForPath(page, '/signup')
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true)
  })
})
