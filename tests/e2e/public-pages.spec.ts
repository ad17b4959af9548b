import { describe, expect, it } from 'vitest'
import { useBrowser, waitForPath } from './browser'

const { newPage, baseUrl } = useBrowser()

describe('public pages', () => {
  it('the landing page shows the promise, features, setup steps and pricing', async () => {
    const page = await newPage()
    await page.goto('/')
    await page.getByRole('heading', { level: 1, name: 'Turn notification emails into spreadsheet rows automatically' }).waitFor()
    // The page arrives prerendered: its links are clicked once it is hydrated (the toaster renders
    // only then), as a click during hydration was once lost in a full CI run.
    await page.locator('section[aria-label*="Notifications"]').waitFor({ state: 'attached' })
    for (const text of ['Gmail Integration', 'AI Extraction', 'Google Sheets Output', '2-Minute Setup', 'Connect Gmail', 'Train AI', 'Automate', 'Most Popular']) {
      await page.getByText(text, { exact: true }).first().waitFor()
    }
    for (const price of ['$0', '$29', '$79']) await page.getByText(price).first().waitFor()
    await page.getByRole('link', { name: 'Sign In' }).first().click()
    await waitForPath(page, '/login')
    await page.goto('/')
    await page.getByRole('link', { name: 'Start Free Trial' }).first().click()
    await waitForPath(page, '/signup')
  })

  it('forms validate without tripping the Content-Security-Policy (no eval probe)', async () => {
    const page = await newPage()
    await page.addInitScript(() => {
      const seen: string[] = []
      ;(window as unknown as { cspViolations: string[] }).cspViolations = seen
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`))
    })
    for (const path of ['/login', '/signup']) {
      await page.goto(path)
      // An empty submit runs the form's zod schema in the browser.
      await page.locator('form button[type=submit]').first().click()
      await page.locator('[data-sonner-toast]').filter({ hasText: 'Validation Error' }).first().waitFor()
      expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([])
    }
  })

  it("privacy and terms show today's date as last updated", async () => {
    const page = await newPage()
    const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })
    for (const path of ['/privacy', '/terms']) {
      await page.goto(path)
      await page.getByText(today).first().waitFor()
      await page.getByRole('link', { name: 'Back to Home' }).first().waitFor()
    }
    await page.goto('/privacy')
    // The page renders after its script loads: read it once its date is shown.
    await page.getByText(today).first().waitFor()
    const text = (await page.textContent('body')) ?? ''
    for (const fact of ['GDPR', '30 days', '90 days', '16']) expect(text).toContain(fact)
  })

  it('an unknown path shows the 404 page, logs the route, and links home', async () => {
    const response = await fetch(`${baseUrl}/no/such/page`)
    expect(response.status).toBe(404)
    const page = await newPage()
    const logged: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') logged.push(message.text())
    })
    await page.goto('/no/such/page')
    await page.getByText('Oops! Page not found').waitFor()
    expect(logged.some((line) => line.includes('/no/such/page'))).toBe(true)
    await page.getByRole('link', { name: 'Return to Home' }).click()
    await waitForPath(page, '/')
  })
})
