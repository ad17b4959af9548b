import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { connectDemoGmail, signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'
import { highlightText } from './email-frame'

const { newPage, baseUrl, emulatorUrl } = useBrowser()

async function next(page: Page) {
  await page.getByRole('button', { name: 'Next', exact: true }).click()
}

/** Step 3 on the built-in sample invoice (filters that match nothing), with one field named. */
async function trainOnSampleInvoice(page: Page) {
  await page.getByLabel('Subject Contains').fill('no email has this subject 7f3a')
  await next(page)
  await page.getByText('Invoice INV-2024-0042 from Northwind Supplies').waitFor()
  await highlightText(page, '$958.50')
  const dialog = page.getByRole('dialog', { name: 'Name This Field' })
  await dialog.getByLabel('Field Name').fill('Amount Due')
  await dialog.getByLabel('Field Name').press('Enter')
  await dialog.waitFor({ state: 'detached' })
}

describe('billing', () => {
  it("user upgrades from the review step's Upgrade Now through Stripe Checkout and can then pick Smart AI", async () => {
    const email = uniqueEmail('billing')
    await signUpViaApi(baseUrl, email)
    const page = await newPage()
    await signInViaForm(page, email)
    await waitForPath(page, '/dashboard')
    await connectDemoGmail(page, emulatorUrl)
    await page.getByText('Gmail Connected', { exact: true }).waitFor()

    await next(page)
    await trainOnSampleInvoice(page)
    // Free plan: Smart AI is locked.
    await page.getByRole('button', { name: /Smart AI Parser/ }).click()
    await toast(page, 'Upgrade Required').waitFor()
    expect(await page.getByRole('button', { name: /Smart AI Parser/ }).getAttribute('aria-pressed')).toBe('false')
    await next(page)
    await page.getByRole('heading', { name: 'Choose Destination' }).waitFor()
    await next(page)
    await page.getByRole('heading', { name: 'Review Your Parser' }).waitFor()
    await page.getByRole('switch', { name: 'Parse Existing Emails' }).click()
    const main = page.getByRole('main')
    await main.getByText('Upgrade Required', { exact: true }).waitFor()
    await main.getByRole('button', { name: 'Upgrade Now' }).click()

    // The emulator's hosted Checkout page.
    await page.getByRole('heading', { name: 'Starter' }).waitFor()
    await page.getByText(email).waitFor()
    await page.getByLabel('Card number').fill('4000 0000 0000 0002')
    await page.getByRole('button', { name: 'Subscribe' }).click()
    await page.getByRole('alert').getByText('Your card was declined.').waitFor()
    await page.getByLabel('Card number').fill('4242 4242 4242 4242')
    await page.getByRole('button', { name: 'Subscribe' }).click()

    // Back on the wizard, on Starter once Stripe's webhook is in.
    await page.waitForURL((url) => url.pathname === '/create-parser')
    await toast(page, "You're on the Starter plan").waitFor({ timeout: 30_000 })
    expect(new URL(page.url()).search).toBe('')
    await page.getByText('Gmail Connected', { exact: true }).waitFor()
    await next(page)
    // The wizard kept its draft through Checkout: the filters, and the field trained before.
    expect(await page.getByLabel('Subject Contains').inputValue()).toBe('no email has this subject 7f3a')
    await next(page)
    await page.getByTestId('selected-field').filter({ hasText: 'Amount Due' }).waitFor()
    await page.getByRole('button', { name: /Smart AI Parser/ }).click()
    await page.waitForFunction(() =>
      [...document.querySelectorAll('button[aria-pressed]')].some((b) => /Smart AI Parser/.test(b.textContent ?? '') && b.getAttribute('aria-pressed') === 'true'),
    )

    // Settings shows the subscription, its renewal and the first invoice.
    await page.goto('/settings#plan')
    const plan = page.getByRole('region', { name: 'Plan & billing' })
    await plan.getByTestId('current-plan').waitFor()
    expect(await plan.getByTestId('current-plan').textContent()).toBe('Starter')
    expect(await plan.getByTestId('plan-renewal').textContent()).toMatch(/^Renews on /)
    const invoices = plan.getByRole('table', { name: 'Invoices' })
    await invoices.getByRole('cell', { name: '$29.00' }).waitFor()
    expect(await invoices.getByRole('link', { name: 'View' }).getAttribute('href')).toMatch(/\/invoices\/in_/)
    await plan.getByRole('button', { name: 'Cancel plan' }).waitFor()
  })
})
