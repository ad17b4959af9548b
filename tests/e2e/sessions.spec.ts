import { describe, expect, it } from 'vitest'
import { PASSWORD, signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'

const { newPage, baseUrl } = useBrowser()

async function signedInTwice(label: string) {
  const email = uniqueEmail(label)
  await signUpViaApi(baseUrl, email)
  const laptop = await newPage()
  await signInViaForm(laptop, email)
  await waitForPath(laptop, '/dashboard')
  const phone = await newPage()
  await signInViaForm(phone, email)
  await waitForPath(phone, '/dashboard')
  return { email, laptop, phone }
}

describe('sessions and password', () => {
  it('user changes the password and the other session ends', async () => {
    const { email, laptop, phone } = await signedInTwice('change-pw')
    await laptop.goto('/settings')
    await laptop.getByRole('button', { name: 'Change password' }).click()
    await laptop.getByLabel('Current password').fill(PASSWORD)
    await laptop.getByLabel('New password', { exact: true }).fill('aaaaaa')
    await laptop.getByLabel('Confirm new password').fill('aaaaaa')
    await laptop.getByRole('dialog').getByRole('button', { name: 'Change password' }).click()
    await laptop.getByText('Password must be at least 8 characters').waitFor()

    await laptop.getByLabel('New password', { exact: true }).fill('Brand-New-Pass7')
    await laptop.getByLabel('Confirm new password').fill('Brand-New-Pass7')
    await laptop.getByRole('dialog').getByRole('button', { name: 'Change password' }).click()
    await toast(laptop, 'Password changed').waitFor()
    const log = laptop.getByRole('list', { name: 'Security log' })
    await log.getByText('Password changed').waitFor()
    await log.getByText('Signed in').first().waitFor()

    // The other browser is signed out: its next page needs a sign-in.
    await phone.goto('/settings')
    await waitForPath(phone, '/login')
    await signInViaForm(phone, email, 'Brand-New-Pass7')
    await waitForPath(phone, '/dashboard')
  })

  it('user sees the active sessions, signs out the others, then everywhere', async () => {
    const { laptop, phone } = await signedInTwice('sessions')
    await laptop.goto('/settings#sessions')
    const list = laptop.getByRole('list', { name: 'Active sessions' })
    await list.getByText('This device').waitFor()
    // Both browsers, and the one that opened the confirmation link.
    expect(await list.getByRole('listitem').count()).toBeGreaterThanOrEqual(2)
    await list.getByText(/Chrome on Linux/).first().waitFor()
    await list.getByText(/Last used/).first().waitFor()

    await laptop.getByRole('button', { name: 'Sign out of other sessions' }).click()
    await toast(laptop, 'Signed out of other sessions').waitFor()
    await laptop.waitForFunction(() => document.querySelectorAll('[aria-label="Active sessions"] li').length === 1)
    await phone.goto('/dashboard')
    await waitForPath(phone, '/login')

    await laptop.getByRole('button', { name: 'Sign out everywhere' }).click()
    await toast(laptop, 'Signed out everywhere').waitFor()
    await waitForPath(laptop, '/login')
    await laptop.goto('/settings')
    await waitForPath(laptop, '/login')
  })
})
