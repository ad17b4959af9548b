import { describe, expect, it } from 'vitest'
import { grantOnConsentPage, signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'

const { newPage, baseUrl, emulatorUrl } = useBrowser()

describe('Gmail connection in demo mode', () => {
  it('user connects the demo Gmail account through the consent page, finds matching emails and creates a spreadsheet', async () => {
    const email = uniqueEmail('gmail')
    await signUpViaApi(baseUrl, email)
    const page = await newPage()
    await signInViaForm(page, email)
    await waitForPath(page, '/dashboard')
    await page.getByText('Demo mode: local Google emulator').waitFor()

    await page.getByRole('link', { name: 'Create New Parser' }).first().click()
    await waitForPath(page, '/create-parser')
    await page.getByRole('button', { name: 'Next' }).click()
    await toast(page, 'Gmail not connected').waitFor()

    await page.getByRole('button', { name: 'Connect Gmail Account' }).click()
    // The emulator's consent page, as Google's would be.
    await grantOnConsentPage(page, emulatorUrl)

    await toast(page, 'Gmail connected successfully!').waitFor()
    // The callback marker is cleared from the address.
    await page.waitForURL((url) => url.pathname === '/create-parser' && url.search === '')
    await page.getByText('Gmail Connected', { exact: true }).waitFor()
    await page.getByText('demo@mailrow.test', { exact: true }).waitFor()
    await page.getByRole('button', { name: 'Reconnect Account' }).waitFor()

    // The API the next wizard steps use, called from the signed-in browser.
    const result = await page.evaluate(async () => {
      const post = (path: string, body: unknown) =>
        fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json())
      const { emails } = await post('/api/gmail/matching-emails', { filterLabel: 'Orders' })
      const { spreadsheet } = await post('/api/spreadsheets', { parserName: 'Demo orders', fieldNames: ['Order', 'Total'] })
      return { emails, spreadsheet }
    })
    expect(result.emails.length).toBeGreaterThan(0)
    expect(result.emails.length).toBeLessThanOrEqual(20)
    for (const found of result.emails) expect(found).toMatchObject({ id: expect.any(String), subject: expect.any(String), from: expect.any(String) })

    await page.goto(result.spreadsheet.spreadsheetUrl)
    await page.getByText('Demo orders - Data').first().waitFor()
    await page.getByText('Message ID').first().waitFor()
  })

  it('denying access on the consent page comes back as an error', async () => {
    const email = uniqueEmail('deny')
    await signUpViaApi(baseUrl, email)
    const page = await newPage()
    await signInViaForm(page, email)
    await waitForPath(page, '/dashboard')
    await page.goto('/create-parser')
    await page.getByRole('button', { name: 'Connect Gmail Account' }).click()
    await page.waitForURL((url) => url.href.startsWith(emulatorUrl))
    await page.getByRole('button', { name: 'Deny' }).click()
    await waitForPath(page, '/create-parser')
    const error = toast(page, 'Error connecting Gmail')
    await error.waitFor()
    expect(await error.textContent()).toContain('Gmail access was not granted.')
    await page.getByRole('button', { name: 'Connect Gmail Account' }).waitFor()
  })
})
