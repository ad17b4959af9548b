import { describe, it } from 'vitest'
import { grantOnConsentPage, toast, useBrowser, waitForPath } from './browser'

const { newPage, emulatorUrl } = useBrowser()

describe('Sign in with Google (demo mode)', () => {
  it('visitor signs up with Google through the consent page and lands on the dashboard', async () => {
    const page = await newPage()
    await page.goto('/signup')
    await page.getByRole('button', { name: 'Sign up with Google' }).click()
    await grantOnConsentPage(page, emulatorUrl, 'other@mailrow.test')
    await waitForPath(page, '/dashboard')
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor()

    await page.getByRole('button', { name: 'Sign Out' }).click()
    await toast(page, 'Logged out successfully').waitFor()
    await page.goto('/login')
    await page.getByRole('button', { name: 'Sign in with Google' }).click()
    await grantOnConsentPage(page, emulatorUrl, 'other@mailrow.test')
    await waitForPath(page, '/dashboard')
  })
})
