import { describe, it } from 'vitest'
import { signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'

const { newPage, baseUrl } = useBrowser()

describe('passkeys', () => {
  it('user adds a passkey in settings and later signs in with it instead of a password', async () => {
    const email = uniqueEmail('passkey')
    await signUpViaApi(baseUrl, email)
    const page = await newPage()
    // A virtual platform authenticator stands in for Touch ID / Windows Hello.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    })

    await signInViaForm(page, email)
    await waitForPath(page, '/dashboard')
    await page.goto('/settings')
    await page.getByRole('button', { name: 'Add passkey' }).click()
    await page.getByLabel('Passkey name').fill('Test laptop')
    await page.getByRole('dialog').getByRole('button', { name: 'Add passkey' }).click()
    await toast(page, 'Passkey added').waitFor()
    await page.getByText('Test laptop').waitFor()

    await page.getByRole('button', { name: 'Sign Out', exact: true }).click()
    await waitForPath(page, '/')
    await page.goto('/login')
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    await toast(page, 'Welcome back!').waitFor()
    await waitForPath(page, '/dashboard')
  })
})
