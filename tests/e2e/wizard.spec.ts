import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { connectDemoGmail, signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'
import { highlightCell, highlightText } from './email-frame'

const { newPage, baseUrl, emulatorUrl } = useBrowser()

/** A new user, signed in, on the wizard with the demo Gmail account connected (step 1 done). */
async function startWizardConnected(label: string): Promise<Page> {
  const email = uniqueEmail(label)
  await signUpViaApi(baseUrl, email)
  const page = await newPage()
  await signInViaForm(page, email)
  await waitForPath(page, '/dashboard')
  await connectDemoGmail(page, emulatorUrl)
  await page.getByText('Gmail Connected', { exact: true }).waitFor()
  return page
}

async function next(page: Page) {
  await page.getByRole('button', { name: 'Next', exact: true }).click()
}

async function nameField(page: Page, name: string, selected: string) {
  const dialog = page.getByRole('dialog', { name: 'Name This Field' })
  await dialog.waitFor()
  expect(await dialog.getByTestId('selected-text').textContent()).toBe(selected)
  await dialog.getByLabel('Field Name').fill(name)
  await dialog.getByLabel('Field Name').press('Enter')
  await toast(page, 'Field added').waitFor()
  await dialog.waitFor({ state: 'detached' })
}

/** Filters that match nothing, so step 3 falls back to the built-in sample invoice; one field named. */
async function trainOnSampleInvoice(page: Page) {
  await page.getByLabel('Subject Contains').fill('no email has this subject 7f3a')
  await next(page)
  await page.getByText('No emails found matching your filters').waitFor()
  await page.getByText('Invoice INV-2024-0042 from Northwind Supplies').waitFor()
  await highlightText(page, '$958.50')
  await nameField(page, 'Amount Due', '$958.50')
}

describe('create-parser wizard', () => {
  it('user sees each filter validation message, and it clears when they edit', async () => {
    const page = await startWizardConnected('filters')
    await next(page)
    await page.getByRole('heading', { name: 'Set Email Filters' }).waitFor()
    await page.getByText('Any sender').waitFor()
    await page.getByText('Any subject').waitFor()
    await page.getByText('Any label').waitFor()

    const nextButton = page.getByRole('button', { name: 'Next', exact: true })
    expect(await nextButton.isDisabled()).toBe(true)

    const from = page.getByLabel('From Email Address')
    await from.fill('orders')
    await from.fill('')
    await page.getByText('Please set at least one filter (From, Subject, or Label)').waitFor()
    expect(await nextButton.isDisabled()).toBe(true)

    await from.fill('orders@northwind')
    await page.getByText('Please set at least one filter (From, Subject, or Label)').waitFor({ state: 'detached' })
    await next(page)
    await page.getByText('Please enter a valid email address').waitFor()
    const blocked = toast(page, 'Invalid filter configuration')
    await blocked.waitFor()
    expect(await blocked.textContent()).toContain('Please fix the errors and ensure at least one filter is set.')
    // Still on step 2.
    await page.getByRole('heading', { name: 'Set Email Filters' }).waitFor()

    await from.fill('orders@northwind-outfitters.test')
    await page.getByText('Please enter a valid email address').waitFor({ state: 'detached' })
    await page.getByText('orders@northwind-outfitters.test', { exact: true }).waitFor()
    await next(page)
    await page.getByRole('heading', { name: 'Train AI to Extract Data' }).waitFor()
  })

  it('user creates a parser from highlighted values in a real email, sees the live preview and finds it on the dashboard', async () => {
    const page = await startWizardConnected('wizard')
    await next(page)
    await page.getByLabel('From Email Address').fill('orders@northwind-outfitters.test')
    await next(page)

    await page.getByText('Loading matching emails from your Gmail...').waitFor()
    await page.getByText(/^\d+ emails found$/).waitFor()
    const list = page.getByRole('list', { name: 'Matching emails' })
    expect(await list.getByRole('listitem').count()).toBeGreaterThan(1)
    await page.getByText('No fields yet.', { exact: false }).waitFor()

    // Step 3 can't be left without a field.
    await next(page)
    await toast(page, 'No fields selected').waitFor()

    const orderNumber = await highlightCell(page, 'Order number', { after: true })
    expect(orderNumber).toMatch(/^NW-\d+$/)
    await nameField(page, 'Order Number', orderNumber)
    const total = await highlightCell(page, 'Total', { after: true })
    expect(total).toMatch(/^\$[\d,]+\.\d\d$/)
    // Names are unique.
    await highlightCell(page, 'Tax', { after: true })
    const dialog = page.getByRole('dialog', { name: 'Name This Field' })
    await dialog.getByLabel('Field Name').fill('order number')
    await dialog.getByText('A field named "order number" already exists. Choose another name.').waitFor()
    expect(await dialog.getByRole('button', { name: 'Add Field' }).isDisabled()).toBe(true)
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await highlightCell(page, 'Total', { after: true })
    await nameField(page, 'Total', total)

    const fields = page.getByRole('region', { name: 'Selected Fields' })
    expect(await page.getByTestId('field-count').textContent()).toBe('2')
    await fields.getByText(orderNumber).waitFor()

    // The live preview runs the template on the other Northwind orders.
    const preview = page.getByRole('region', { name: 'Live preview' })
    await preview.getByText(/^\d+ of \d+ emails? fully extracted$/).waitFor({ timeout: 30_000 })
    const summary = (await preview.getByTestId('preview-summary').textContent())!
    const [, complete, all] = summary.match(/^(\d+) of (\d+)/)!
    expect(Number(all)).toBeGreaterThan(0)
    expect(Number(complete)).toBe(Number(all))
    expect(await preview.getByRole('cell', { name: /^NW-\d+$/ }).count()).toBe(Number(all))

    // Free plan: Smart AI is locked.
    await page.getByRole('button', { name: /Smart AI Parser/ }).click()
    const upgrade = toast(page, 'Upgrade Required')
    await upgrade.waitFor()
    expect(await upgrade.textContent()).toContain('Smart AI Parser requires Starter plan ($29/month)')
    await upgrade.getByRole('button', { name: 'Upgrade Now' }).waitFor()
    expect(await page.getByRole('button', { name: /Template Parser/ }).getAttribute('aria-pressed')).toBe('true')
    expect(await page.getByLabel('Parse PDF Attachments').count()).toBe(0)

    await next(page)
    await page.getByRole('heading', { name: 'Choose Destination' }).waitFor()
    await page.getByText('Google Sheets Connected').waitFor()
    expect(await page.getByLabel(/Create New Spreadsheet/).isChecked()).toBe(true)
    const columns = page.getByRole('list', { name: 'Spreadsheet columns' })
    expect(await columns.getByRole('listitem').allTextContents()).toEqual(['Order Number', 'Total', 'Received', 'From', 'Subject', 'Message ID', 'Row Key'])

    await next(page)
    await page.getByRole('heading', { name: 'Review Your Parser' }).waitFor()
    const activate = page.getByRole('button', { name: 'Activate Parser' })
    expect(await activate.isDisabled()).toBe(true)
    await page.getByLabel('Parser Name *').fill('Northwind orders')
    await page.getByText('Named “Northwind orders - Data”, created on activation').waitFor()

    const historical = page.getByRole('switch', { name: 'Parse Existing Emails' })
    const main = page.getByRole('main')
    await historical.click()
    await main.getByText('Upgrade Required', { exact: true }).waitFor()
    await main.getByText('Parsing existing emails (up to 100 existing emails) is available on the Starter plan at $29/month and above.').waitFor()
    await main.getByRole('button', { name: 'Upgrade Now' }).waitFor()
    await historical.click()
    await main.getByText('Upgrade Required', { exact: true }).waitFor({ state: 'detached' })

    await activate.click()
    const created = toast(page, 'Parser created successfully!')
    await created.waitFor({ timeout: 30_000 })
    expect(await created.textContent()).toContain('Your parser is now active and will start processing emails.')
    await created.getByRole('button', { name: 'Open Spreadsheet →' }).waitFor()
    await waitForPath(page, '/dashboard')
    await page.getByText('Northwind orders', { exact: true }).first().waitFor()
  })

  it('user falls back to the sample invoice when no email matches, and can go back or try again', async () => {
    const page = await startWizardConnected('sample')
    await next(page)
    await trainOnSampleInvoice(page)
    await page.getByText('Here is a sample invoice so you can see how training works.').waitFor()
    // No other emails: no live preview.
    expect(await page.getByRole('region', { name: 'Live preview' }).count()).toBe(0)
    expect(await page.getByRole('region', { name: 'Selected Fields' }).getByText('Amount Due').count()).toBe(1)

    // Without a mouse: type the value, then name it.
    await page.getByRole('button', { name: 'Add field by typing' }).click()
    const typed = page.getByRole('dialog', { name: 'Add field by typing' })
    await typed.getByLabel('Value in the email').fill('INV-2024-0099')
    await typed.getByLabel('Value in the email').press('Enter')
    await typed.getByText('That text does not appear in this email. Type it exactly as shown.').waitFor()
    await typed.getByLabel('Value in the email').fill('INV-2024-0042')
    await typed.getByLabel('Value in the email').press('Enter')
    await nameField(page, 'Invoice Number', 'INV-2024-0042')
    expect(await page.getByTestId('field-count').textContent()).toBe('2')

    await page.getByRole('button', { name: 'Try Again' }).click()
    await page.getByText('No emails found matching your filters').waitFor()

    await page.getByRole('button', { name: 'Go back to adjust filters' }).click()
    await page.getByRole('heading', { name: 'Set Email Filters' }).waitFor()
    expect(await page.getByLabel('Subject Contains').inputValue()).toBe('no email has this subject 7f3a')
  })

  it('user picks an existing spreadsheet: a bad ID is refused with the reason, a real one is accepted', async () => {
    const page = await startWizardConnected('existing')
    await next(page)
    await trainOnSampleInvoice(page)
    await next(page)
    await page.getByRole('heading', { name: 'Choose Destination' }).waitFor()

    await page.getByLabel(/Use Existing Spreadsheet/).check()
    await next(page)
    await toast(page, 'No spreadsheet specified').waitFor()

    const input = page.getByLabel('Spreadsheet URL or ID')
    await input.fill('not-a-real-spreadsheet-id')
    await next(page)
    await toast(page, 'Spreadsheet not available').waitFor()
    const error = page.locator('#spreadsheet-error')
    await error.waitFor()
    expect((await error.textContent())!.length).toBeGreaterThan(0)
    await page.getByRole('heading', { name: 'Choose Destination' }).waitFor()

    const sheet = await page.evaluate(async () => {
      const response = await fetch('/api/spreadsheets', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ parserName: 'Invoices archive', fieldNames: ['Amount Due'] }),
      })
      return (await response.json()).spreadsheet as { spreadsheetUrl: string }
    })
    await input.fill(sheet.spreadsheetUrl)
    await next(page)
    await page.getByRole('heading', { name: 'Review Your Parser' }).waitFor()
    await page.getByText('Invoices archive - Data').waitFor()

    await page.getByLabel('Parser Name *').fill('Supplier invoices')
    await page.getByRole('button', { name: 'Activate Parser' }).click()
    const created = toast(page, 'Parser created successfully!')
    await created.waitFor({ timeout: 30_000 })
    // Only a new spreadsheet gets the 'Open Spreadsheet →' link.
    expect(await created.getByRole('button', { name: 'Open Spreadsheet →' }).count()).toBe(0)
    await waitForPath(page, '/dashboard')
    await page.getByText('Supplier invoices', { exact: true }).first().waitFor()
  })
})
