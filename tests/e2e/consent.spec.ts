import { describe, expect, it } from 'vitest'
import { grantOnConsentPage, signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'

const { newPage, baseUrl, emulatorUrl } = useBrowser()

describe('Google consent', () => {
  it('user who ticks no permission sees a warning with Grant access, cannot go on, and can grant access', async () => {
    const email = uniqueEmail('consent')
    await signUpViaApi(baseUrl, email)
    const page = await newPage()
    await signInViaForm(page, email)
    await waitForPath(page, '/dashboard')
    await page.goto('/create-parser')
    await page.getByRole('button', { name: 'Connect Gmail Account' }).click()

    // Google's page with the account chosen but no permission ticked.
    await page.waitForURL((url) => url.href.startsWith(emulatorUrl))
    await page.getByLabel(/demo@mailrow\.test/).check()
    await page.getByRole('button', { name: 'Allow' }).click()
    await toast(page, 'Gmail connected with missing permissions').waitFor()

    const warning = page.getByTestId('gmail-permissions-warning')
    await warning.getByText('Gmail access not granted', { exact: true }).waitFor()
    expect(await warning.textContent()).toContain('read your emails')
    expect(await page.getByText('Gmail Connected', { exact: true }).count()).toBe(0)
    const nextButton = page.getByRole('button', { name: 'Next', exact: true })
    expect(await nextButton.isDisabled()).toBe(true)
    await page.getByRole('heading', { name: 'Connect Gmail' }).waitFor()

    await warning.getByRole('button', { name: 'Grant access' }).click()
    await grantOnConsentPage(page, emulatorUrl)
    await toast(page, 'Gmail connected successfully!').waitFor()
    await page.getByText('Gmail Connected', { exact: true }).waitFor()
    expect(await page.getByTestId('gmail-permissions-warning').count()).toBe(0)
    await nextButton.click()
    await page.getByRole('heading', { name: 'Set Email Filters' }).waitFor()
  })
})
