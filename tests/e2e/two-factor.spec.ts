import { describe, expect, it } from 'vitest'
import { totpCode } from '../../src/server/testing/totp'
import { PASSWORD, signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'

const { newPage, baseUrl } = useBrowser()

describe('two-factor authentication', () => {
  it('user enables 2FA in settings, then signs in with the code from their authenticator', async () => {
    const email = uniqueEmail('twofa')
    await signUpViaApi(baseUrl, email)
    const page = await newPage()
    await signInViaForm(page, email)
    await waitForPath(page, '/dashboard')

    await page.goto('/settings')
    await page.getByText(email).first().waitFor()
    await page.getByRole('button', { name: 'Enable two-factor authentication' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Password').fill(PASSWORD)
    await dialog.getByRole('button', { name: 'Continue' }).click()
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '')
    expect(secret).toMatch(/^[A-Z2-7]+=*$/)
    await page.getByTestId('backup-codes').waitFor()
    await page.getByLabel('Verification code').fill(totpCode(secret))
    await page.getByRole('button', { name: 'Verify and enable' }).click()
    await toast(page, 'Two-factor authentication enabled').waitFor()
    await page.getByText('Enabled', { exact: true }).first().waitFor()

    await page.getByRole('button', { name: 'Sign Out', exact: true }).click()
    await waitForPath(page, '/')

    await signInViaForm(page, email)
    await waitForPath(page, '/two-factor')
    await page.getByLabel('Verification code').fill('000000')
    await page.getByRole('button', { name: 'Verify', exact: true }).click()
    await toast(page, 'Verification failed').waitFor()
    await page.getByLabel('Verification code').fill(totpCode(secret))
    await page.getByRole('button', { name: 'Verify', exact: true }).click()
    await waitForPath(page, '/dashboard')
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor()
  })
})
