import { describe, it } from 'vitest'
import { signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'

const { newPage, baseUrl } = useBrowser()

describe('forgotten password', () => {
  it('user asks for a reset link, finds it in the development outbox, sets a new password and signs in', async () => {
    const email = uniqueEmail('forgot')
    await signUpViaApi(baseUrl, email)
    const page = await newPage()
    await page.goto('/login')
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await waitForPath(page, '/forgot-password')
    await page.getByLabel('Email', { exact: true }).fill(email)
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await page.getByText("If an account exists for that email, we've sent a link to reset your password.").waitFor()

    // No SMTP server is configured, so the mail waits in the development outbox, which only
    // answers someone on the server's own machine.
    const local = await newPage({ clientIp: '127.0.0.1' })
    await local.goto('/dev/outbox')
    const message = local.locator('li, article').filter({ hasText: email }).filter({ hasText: 'Reset your Mailrow password' }).first()
    await message.waitFor()
    const link = message.getByRole('link').filter({ hasText: '/api/auth/reset-password/' }).first()
    await page.goto((await link.getAttribute('href'))!)
    await waitForPath(page, '/reset-password')

    await page.getByLabel('New password', { exact: true }).fill('Fresh-Start-2026')
    await page.getByLabel('Confirm new password').fill('Fresh-Start-2026')
    await page.getByRole('button', { name: 'Update password' }).click()
    await toast(page, 'Password updated').waitFor()
    await waitForPath(page, '/login')

    await signInViaForm(page, email, 'Fresh-Start-2026')
    await waitForPath(page, '/dashboard')
  })
})
