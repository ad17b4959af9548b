import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { grantOnConsentPage, PASSWORD, signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'

const { newPage, baseUrl, emulatorUrl } = useBrowser()

async function signedIn(label: string) {
  const email = uniqueEmail(label)
  await signUpViaApi(baseUrl, email)
  const page = await newPage()
  await signInViaForm(page, email)
  await waitForPath(page, '/dashboard')
  return { page, email }
}

async function grantAndReturn(page: Page) {
  await grantOnConsentPage(page, emulatorUrl)
  await toast(page, 'Gmail connected successfully!').waitFor()
}

function connections(page: Page) {
  return page.getByRole('region', { name: 'Connected accounts' })
}

const thisMonth = () => new Date().toLocaleDateString('en-US', { month: 'long', timeZone: 'UTC' })

describe('settings', () => {
  it("user sees this month's usage against the plan and how to upgrade", async () => {
    const { page } = await signedIn('usage')
    await page.goto('/settings#plan')
    const plan = page.getByRole('region', { name: 'Plan & billing' })
    await plan.getByTestId('current-plan').waitFor()
    expect(await plan.getByTestId('current-plan').textContent()).toBe('Free')
    await plan.getByText(`0 of 50 emails used in ${thisMonth()}`).waitFor()
    const meter = plan.getByRole('progressbar', { name: `0 of 50 emails used in ${thisMonth()}` })
    expect(await meter.getAttribute('aria-valuenow')).toBe('0')
    expect(await meter.getAttribute('aria-valuemax')).toBe('50')
    // The plan section was scrolled into view for the #plan link.
    expect(await plan.evaluate((el) => el.getBoundingClientRect().top)).toBeLessThan(200)

    expect(await plan.getByRole('button', { name: 'Upgrade to Free' }).count()).toBe(0)
    await plan.getByText('No invoices yet.').waitFor()
    // Demo mode bills through the local Stripe emulator: upgrading opens its Checkout page.
    await plan.getByRole('button', { name: 'Upgrade to Starter' }).click()
    await page.getByRole('heading', { name: 'Starter' }).waitFor()
    await page.getByText('$29.00').waitFor()
    await page.getByRole('link', { name: '← Back' }).click()
    await page.waitForURL((url) => url.pathname === '/settings')
    await toast(page, 'Checkout cancelled').waitFor()
    expect(await page.getByRole('region', { name: 'Plan & billing' }).getByTestId('current-plan').textContent()).toBe('Free')
  })

  it('user connects Gmail from settings, reconnects it, sees the usage of a test, then disconnects it', async () => {
    const { page } = await signedIn('connect')
    await page.goto('/settings')
    await connections(page).getByText('No Gmail account connected.', { exact: false }).waitFor()
    await connections(page).getByRole('button', { name: 'Connect Gmail' }).click()
    await grantAndReturn(page)

    await page.goto('/settings')
    await connections(page).getByText('Connected', { exact: true }).waitFor()
    await connections(page).getByText('demo@mailrow.test', { exact: true }).waitFor()

    await connections(page).getByRole('button', { name: 'Reconnect' }).click()
    await grantAndReturn(page)

    // One test of a parser counts towards this month's allowance.
    const tested = await page.evaluate(async () => {
      const post = (path: string, body: unknown) =>
        fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json())
      const { emails } = await post('/api/gmail/matching-emails', { filterFrom: 'orders@northwind-outfitters.test' })
      const orderNumber = /NW-\d+/.exec(emails[0].subject)![0]
      const { parser } = await post('/api/parsers', {
        name: 'Orders',
        filters: { filterFrom: 'orders@northwind-outfitters.test' },
        fields: [{ name: 'Order number', value: orderNumber }],
        sample: { messageId: emails[0].id },
        parserType: 'template',
        destination: { type: 'new' },
      })
      return post(`/api/parsers/${parser.id}/test`, { emailId: emails[1].id })
    })
    expect(tested.result.success).toBe(true)

    await page.goto('/settings')
    await page.getByText(`1 of 50 emails used in ${thisMonth()}`).waitFor()
    await connections(page).getByText('Connected', { exact: true }).waitFor()

    await connections(page).getByRole('button', { name: 'Disconnect' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Disconnect Gmail?' })
    await confirm.getByText('demo@mailrow.test', { exact: false }).waitFor()
    await confirm.getByRole('button', { name: 'Disconnect' }).click()
    await toast(page, 'Gmail disconnected').waitFor()
    await confirm.waitFor({ state: 'detached' })
    await connections(page).getByText('No Gmail account connected.', { exact: false }).waitFor()
    await connections(page).getByRole('button', { name: 'Connect Gmail' }).waitFor()
  })

  it('user deletes their account with their password, is signed out and cannot sign in again', async () => {
    const { page, email } = await signedIn('erase')
    await page.goto('/settings')
    await page.getByRole('region', { name: 'Delete account' }).getByRole('button', { name: 'Delete account' }).click()
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' })
    const submit = dialog.getByRole('button', { name: 'Delete account' })
    expect(await submit.isDisabled()).toBe(true)

    await dialog.getByLabel('Password').fill('not-my-password')
    await submit.click()
    await dialog.getByText('Incorrect password').waitFor()

    await dialog.getByLabel('Password').fill(PASSWORD)
    await submit.click()
    await toast(page, 'Account deleted').waitFor()
    await waitForPath(page, '/')

    // The session went with the account.
    await page.goto('/dashboard')
    await waitForPath(page, '/login')
    await signInViaForm(page, email)
    await toast(page, 'Login Failed').waitFor()
    expect(new URL(page.url()).pathname).toBe('/login')
  })
})
