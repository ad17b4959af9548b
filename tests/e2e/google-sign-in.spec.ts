import { describe, expect, it } from 'vitest'
import { clientIp, grantOnConsentPage, signInViaForm, toast, useBrowser, waitForPath } from './browser'

const { newPage, emulatorUrl, baseUrl } = useBrowser()

describe('Sign in with Google (demo mode)', () => {
  it('visitor signs up with Google through the consent page and lands on the dashboard', async () => {
    const page = await newPage()
    await page.goto('/signup')
    await page.getByRole('button', { name: 'Sign up with Google' }).click()
    await grantOnConsentPage(page, emulatorUrl, 'other@mailrow.test')
    await waitForPath(page, '/dashboard')
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor()

    await page.getByRole('button', { name: 'Sign Out', exact: true }).click()
    await toast(page, 'Logged out successfully').waitFor()
    await page.goto('/login')
    await page.getByRole('button', { name: 'Sign in with Google' }).click()
    await grantOnConsentPage(page, emulatorUrl, 'other@mailrow.test')
    await waitForPath(page, '/dashboard')
  })

  it("owner takes back an address a squatter signed up with, by signing in with Google", async () => {
    // Someone signs up with the owner's address; they can't open its mail, so it stays unconfirmed.
    const squat = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl, 'x-forwarded-for': clientIp() },
      body: JSON.stringify({ email: 'demo@mailrow.test', password: 'Squatter-Pass1', name: 'squatter' }),
    })
    expect(squat.status).toBe(200)

    const owner = await newPage()
    await owner.goto('/login')
    await owner.getByRole('button', { name: 'Sign in with Google' }).click()
    await grantOnConsentPage(owner, emulatorUrl, 'demo@mailrow.test')
    await waitForPath(owner, '/dashboard')
    await owner.getByRole('heading', { name: 'Dashboard' }).waitFor()

    const squatter = await newPage()
    await signInViaForm(squatter, 'demo@mailrow.test', 'Squatter-Pass1')
    await toast(squatter, 'Login Failed').waitFor()
    expect(await toast(squatter, 'Login Failed').textContent()).toContain('Invalid email or password')
  })
})
