import { describe, expect, it } from 'vitest'
import { PASSWORD, signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'

const { newPage, baseUrl } = useBrowser()

describe('accounts', () => {
  it('visitor signs up, confirms the address from the outbox, lands on the dashboard, signs out and back in', async () => {
    const page = await newPage()
    const email = uniqueEmail('journey')
    await page.goto('/signup')
    await page.getByLabel('Email', { exact: true }).fill(email)
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByLabel('Confirm password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Create Account' }).click()
    await toast(page, 'Account Created!').waitFor()
    expect(await toast(page, 'Account Created!').textContent()).toContain('Check your email and open the confirmation link to sign in.')
    await waitForPath(page, '/login')
    await page.getByText(`We sent a confirmation link to ${email}`).waitFor()

    // Not confirmed yet: the password alone does not sign in.
    await page.getByLabel('Email', { exact: true }).fill(email)
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await toast(page, 'Login Failed').waitFor()
    expect(await toast(page, 'Login Failed').textContent()).toContain('Confirm your email address first')

    // Demo mode: the mail waits in the development outbox, shown to this machine only.
    const local = await newPage({ clientIp: '127.0.0.1' })
    await local.goto('/dev/outbox')
    const message = local.locator('li, article').filter({ hasText: email }).filter({ hasText: 'Confirm your Mailrow email address' }).first()
    await message.waitFor()
    const link = message.getByRole('link').filter({ hasText: '/api/auth/verify-email' }).first()
    await page.goto((await link.getAttribute('href'))!)
    await waitForPath(page, '/dashboard')
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor()

    await page.getByRole('button', { name: 'Sign Out', exact: true }).click()
    await toast(page, 'Logged out successfully').waitFor()
    await waitForPath(page, '/')
    // The 'Logged out' toast covers the top bar's link for a few seconds; the keyboard reaches it.
    await page.getByRole('link', { name: 'Sign In', exact: true }).first().press('Enter')
    await waitForPath(page, '/login')
    await page.getByLabel('Email', { exact: true }).fill(`  ${email.toUpperCase()} `)
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await toast(page, 'Welcome back!').waitFor()
    await waitForPath(page, '/dashboard')
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor()
    await page.getByText('Monitor your email parsing activity').waitFor()
    await page.getByText('No emails parsed yet').waitFor()
    await page.getByText('Create your first parser to start extracting data from emails').waitFor()

    await page.getByRole('button', { name: 'Sign Out', exact: true }).click()
    await toast(page, 'Logged out successfully').waitFor()
    expect(await toast(page, 'Logged out successfully').textContent()).toContain('See you next time!')
    await waitForPath(page, '/')

    await page.goto('/dashboard')
    await waitForPath(page, '/login')
  })

  it('the sign-up form shows each validation message', async () => {
    const page = await newPage()
    await page.goto('/signup')
    const cases: Array<[string, string, string, string]> = [
      ['not-an-email', PASSWORD, PASSWORD, 'Invalid email address'],
      [`${'a'.repeat(250)}@example.com`, PASSWORD, PASSWORD, 'Email too long'],
      ['ok@example.com', 'Ab1', 'Ab1', 'Password must be at least 8 characters'],
      ['ok@example.com', `Ab1${'x'.repeat(130)}`, `Ab1${'x'.repeat(130)}`, 'Password too long'],
      ['ok@example.com', 'lowercase1', 'lowercase1', 'Password must contain at least one uppercase letter'],
      ['ok@example.com', 'UPPERCASE1', 'UPPERCASE1', 'Password must contain at least one lowercase letter'],
      ['ok@example.com', 'NoNumbersHere', 'NoNumbersHere', 'Password must contain at least one number'],
      ['ok@example.com', PASSWORD, `${PASSWORD}x`, "Passwords don't match"],
    ]
    for (const [email, password, confirm, message] of cases) {
      await page.getByLabel('Email', { exact: true }).fill(email)
      await page.getByLabel('Password', { exact: true }).fill(password)
      await page.getByLabel('Confirm password').fill(confirm)
      await page.getByRole('button', { name: 'Create Account' }).click()
      await page.getByRole('alert').filter({ hasText: message }).waitFor()
      await page.locator('[data-sonner-toast]').filter({ hasText: 'Validation Error' }).filter({ hasText: message }).first().waitFor()
      // Only the first message is shown.
      expect(await page.getByRole('alert').count()).toBe(1)
    }
  })

  it('the sign-in form shows each validation message and a failed sign-in', async () => {
    const page = await newPage()
    await page.goto('/login')
    await page.getByLabel('Email', { exact: true }).fill('nope')
    await page.getByLabel('Password', { exact: true }).fill('whatever')
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await page.getByRole('alert').filter({ hasText: 'Please enter a valid email address' }).waitFor()
    await toast(page, 'Validation Error').waitFor()

    await page.getByLabel('Email', { exact: true }).fill('someone@example.com')
    await page.getByLabel('Password', { exact: true }).fill('12345')
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    await page.getByRole('alert').filter({ hasText: 'Password must be at least 6 characters' }).waitFor()

    await page.getByLabel('Password', { exact: true }).fill('Wrong-Password1')
    await page.getByRole('button', { name: 'Sign In', exact: true }).click()
    const failed = toast(page, 'Login Failed')
    await failed.waitFor()
    expect(await failed.textContent()).toContain('Invalid email or password')
    expect(new URL(page.url()).pathname).toBe('/login')
  })

  it('protected pages send a visitor to /login, replacing the history entry', async () => {
    for (const path of ['/dashboard', '/create-parser', '/settings']) {
      const page = await newPage()
      await page.goto('/')
      await page.goto(path)
      await waitForPath(page, '/login')
      await page.goBack()
      await waitForPath(page, '/')
      await page.context().close()
    }
  })

  it('a signed-in user opening /login or /signup lands on the dashboard', async () => {
    const email = uniqueEmail('signedin')
    await signUpViaApi(baseUrl, email)
    const page = await newPage()
    await signInViaForm(page, email)
    await waitForPath(page, '/dashboard')
    await page.goto('/login')
    await waitForPath(page, '/dashboard')
    await page.goto('/signup')
    await waitForPath(page, '/dashboard')
  })
})
