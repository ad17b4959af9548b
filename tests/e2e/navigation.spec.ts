import { describe, expect, it } from 'vitest'
import { grantOnConsentPage, PASSWORD, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'

const { newPage, baseUrl, emulatorUrl } = useBrowser()

describe('toasts and navigation', () => {
  it("a toast ends with its page, one raised on the way to the next page stays, and none covers the top bar", async () => {
    const email = uniqueEmail('toasts')
    await signUpViaApi(baseUrl, email)
    const page = await newPage()
    await page.goto('/login')
    await page.getByLabel('Email', { exact: true }).fill(email)
    await page.getByLabel('Password', { exact: true }).fill('Wrong-horse-9')
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await toast(page, 'Login Failed').waitFor()

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await waitForPath(page, '/dashboard')
    // Raised by the sign-in that navigated: shown on the dashboard.
    await toast(page, 'Welcome back!').waitFor()
    await toast(page, 'Login Failed').waitFor({ state: 'detached' })

    // Reconnect from Settings comes back to Settings, where its toast sits below the top bar.
    await page.goto('/settings')
    await page.getByRole('button', { name: 'Connect Gmail' }).click()
    await grantOnConsentPage(page, emulatorUrl)
    await waitForPath(page, '/settings')
    const connected = toast(page, 'Gmail connected successfully!')
    await connected.waitFor()
    const header = await page.locator('header').first().boundingBox()
    const box = await connected.boundingBox()
    expect(box!.y).toBeGreaterThanOrEqual(header!.y + header!.height)
  })

  it('a phone-sized screen gets a Menu button with the pages', async () => {
    const email = uniqueEmail('menu')
    await signUpViaApi(baseUrl, email)
    const page = await newPage()
    await page.setViewportSize({ width: 390, height: 800 })
    await page.goto('/login')
    await page.getByLabel('Email', { exact: true }).fill(email)
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await waitForPath(page, '/dashboard')

    const menu = page.getByRole('button', { name: 'Menu' })
    expect(await menu.getAttribute('aria-expanded')).toBe('false')
    expect(await page.getByRole('link', { name: 'Parsers', exact: true }).count()).toBe(0)
    await menu.click()
    expect(await menu.getAttribute('aria-expanded')).toBe('true')
    const nav = page.getByRole('navigation', { name: 'Main' })
    expect(await nav.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page')
    await nav.getByRole('link', { name: 'Parsers' }).click()
    await waitForPath(page, '/parsers')
    expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false')
    // Escape closes it and gives focus back to the button.
    await page.getByRole('button', { name: 'Menu' }).click()
    await page.keyboard.press('Escape')
    expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Menu')
  })
})
