import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { connectDemoGmail, grantOnConsentPage, signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'

const { newPage, baseUrl, emulatorUrl } = useBrowser()

const PARSER_NAME = 'Northwind orders'
const NORTHWIND = 'orders@northwind-outfitters.test'

type DemoEmail = { id: string; subject: string; from: string; date: string }

async function signedIn(label: string, email = uniqueEmail(label)): Promise<Page> {
  await signUpViaApi(baseUrl, email)
  const page = await newPage()
  await signInViaForm(page, email)
  await waitForPath(page, '/dashboard')
  return page
}


/** Demo emails matching a sender, newest first, through the API the wizard uses. */
async function matchingEmails(page: Page, filterFrom: string): Promise<DemoEmail[]> {
  return page.evaluate(async (filterFrom) => {
    const response = await fetch('/api/gmail/matching-emails', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filterFrom }),
    })
    return (await response.json()).emails
  }, filterFrom)
}

/**
 * A signed-in user with the demo Gmail connected and an active template parser for Northwind
 * order confirmations, trained (without the wizard UI) on the order number of the newest one.
 */
async function signedInWithParser(label: string, email = uniqueEmail(label)) {
  const page = await signedIn(label, email)
  await connectDemoGmail(page, emulatorUrl)
  const orders = await matchingEmails(page, NORTHWIND)
  expect(orders.length).toBeGreaterThan(2)
  const sample = orders[0]!
  const orderNumber = /NW-\d+/.exec(sample.subject)![0]
  const created = await page.evaluate(
    async ({ name, from, sampleId, orderNumber }) => {
      const response = await fetch('/api/parsers', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name,
          filters: { filterFrom: from },
          fields: [{ name: 'Order number', value: orderNumber }],
          sample: { messageId: sampleId },
          parserType: 'template',
          parseAttachments: false,
          destination: { type: 'new' },
          parseHistorical: false,
        }),
      })
      return { status: response.status, body: await response.json() }
    },
    { name: PARSER_NAME, from: NORTHWIND, sampleId: sample.id, orderNumber },
  )
  expect(created.status).toBe(201)
  await page.goto('/dashboard')
  await page.getByRole('heading', { name: 'Your Parsers' }).waitFor()
  return { page, orders, spreadsheetUrl: created.body.spreadsheetUrl as string, parserId: created.body.parser.id as string }
}

function stat(page: Page, label: string) {
  return page.getByRole('region', { name: 'Statistics' }).locator('div.grid', { hasText: label }).locator('[aria-live]')
}

async function statValue(page: Page, label: string) {
  return (await stat(page, label).textContent())?.trim()
}

function parserRow(page: Page, name = PARSER_NAME) {
  return page.getByRole('listitem').filter({ has: page.getByText(name, { exact: true }) })
}

async function openTestDialog(page: Page) {
  await parserRow(page).getByRole('button', { name: 'Test Parser' }).click()
  const dialog = page.getByRole('dialog', { name: `Test Parser: ${PARSER_NAME}` })
  await dialog.waitFor()
  return dialog
}

describe('dashboard', () => {
  it('a new user sees the empty dashboard with zero stats and a way to their first parser', async () => {
    const page = await signedIn('empty')
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor()
    await page.getByText('Monitor your email parsing activity').waitFor()
    await page.getByText('No emails parsed yet').waitFor()
    await page.getByText('Create your first parser to start extracting data from emails').waitFor()
    expect(await statValue(page, 'Emails parsed')).toBe('0')
    expect(await statValue(page, 'Active parsers')).toBe('0')
    expect(await statValue(page, 'Success rate')).toBe('0%')
    expect(await page.getByRole('heading', { name: 'Your Parsers' }).count()).toBe(0)
    expect(await page.getByRole('link', { name: 'Create New Parser' }).count()).toBe(2)

    // The top bar's 'Parsers' leads to the parsers page (here: none yet), and Dashboard back.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Parsers' }).click()
    await waitForPath(page, '/parsers')
    await page.getByText('No parsers yet').waitFor()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Dashboard' }).click()
    await waitForPath(page, '/dashboard')

    // Nothing has failed yet.
    await page.getByRole('button', { name: 'Notifications', exact: true }).click()
    await page.getByText("You're all caught up.", { exact: false }).waitFor()
    await page.keyboard.press('Escape')
    await page.getByText("You're all caught up.", { exact: false }).waitFor({ state: 'detached' })

    await page.getByRole('main').getByRole('link', { name: 'Create New Parser' }).last().click()
    await waitForPath(page, '/create-parser')
  })

  it('user tests a parser on a recent matching email, sees the extracted JSON and the row on the dashboard, and views its detail', async () => {
    const { page, orders, spreadsheetUrl } = await signedInWithParser('filled')
    const row = parserRow(page)
    await row.getByText('Type: template • Active').waitFor()
    await page.getByText('Your parsers are ready. Test them or wait for matching emails to arrive.').waitFor()
    await page.getByRole('link', { name: 'Create Another Parser' }).waitFor()
    expect(await statValue(page, 'Active parsers')).toBe('1')

    const dialog = await openTestDialog(page)
    const input = dialog.getByLabel('Gmail message ID')
    const run = dialog.getByRole('button', { name: 'Run Test' })
    await page.waitForFunction(() => document.activeElement?.id === 'test-email-id')
    expect(await run.isDisabled()).toBe(true)
    await input.fill('   ')
    expect(await run.isDisabled()).toBe(true)

    // Picking a recent matching email fills the ID.
    const target = orders[1]!
    await dialog.getByRole('button', { name: new RegExp(target.subject) }).click()
    expect(await input.inputValue()).toBe(target.id)
    expect(await run.isDisabled()).toBe(false)
    await run.click()

    const success = toast(page, 'Test successful!')
    await success.waitFor()
    expect(await success.textContent()).toContain('Data extracted and written to your spreadsheet')
    const orderNumber = /NW-\d+/.exec(target.subject)![0]
    const json = await dialog.getByTestId('extracted-json').textContent()
    expect(JSON.parse(json!)).toEqual({ 'Order number': orderNumber })
    expect(json).toContain('\n  "Order number"')
    await dialog.getByText('Extraction method:').waitFor()
    await dialog.getByText('The data was written to your spreadsheet.').waitFor()

    // Closing clears the input and the result.
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click()
    await dialog.waitFor({ state: 'detached' })
    const reopened = await openTestDialog(page)
    expect(await reopened.getByLabel('Gmail message ID').inputValue()).toBe('')
    expect(await reopened.getByTestId('extracted-json').count()).toBe(0)
    await page.keyboard.press('Escape')
    await reopened.waitFor({ state: 'detached' })
    // Focus goes back to the button that opened the dialog.
    await page.waitForFunction(() => document.activeElement?.textContent === 'Test Parser')

    // The dashboard reloaded: stats and the recent row come from the ledger.
    await page.getByRole('table').waitFor()
    expect(await statValue(page, 'Emails parsed')).toBe('1')
    expect(await statValue(page, 'Success rate')).toBe('100%')
    const recent = page.getByRole('table').getByRole('row').nth(1)
    expect(await recent.textContent()).toContain(PARSER_NAME)
    expect(await recent.textContent()).toContain(target.subject)
    await recent.getByText('Success', { exact: true }).waitFor()

    await recent.getByRole('button', { name: /^View/ }).click()
    const detail = page.getByRole('dialog', { name: target.subject })
    await detail.waitFor()
    await detail.getByRole('cell', { name: orderNumber }).waitFor()
    await detail.getByText('Row written').waitFor()
    expect(await detail.getByRole('link', { name: 'Open spreadsheet' }).getAttribute('href')).toBe(spreadsheetUrl)
    await detail.getByRole('button', { name: 'Close', exact: true }).first().click()
    await detail.waitFor({ state: 'detached' })

    // The row is in the sheet.
    await page.goto(spreadsheetUrl)
    await page.getByText(orderNumber, { exact: true }).first().waitFor()
    await page.goto('/dashboard')

    // Usable on a small phone: nothing overflows sideways.
    await page.setViewportSize({ width: 375, height: 800 })
    await page.getByRole('heading', { name: 'Your Parsers' }).waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    const small = await openTestDialog(page)
    const box = await small.boundingBox()
    expect(box!.x).toBeGreaterThanOrEqual(0)
    expect(box!.x + box!.width).toBeLessThanOrEqual(375)
  })

  it('a test on a bad ID or a non-matching email shows the failure, and the bell lists the failed email', async () => {
    const { page } = await signedInWithParser('failure')
    const [bankAlert] = await matchingEmails(page, 'alerts@harborbank.test')
    expect(bankAlert).toBeDefined()

    const dialog = await openTestDialog(page)
    const input = dialog.getByLabel('Gmail message ID')
    // Enter runs the test, as the form's submit button.
    // Not a Gmail ID at all: refused before anything asks Google.
    await input.fill('no-such-message-42')
    await input.press('Enter')
    const malformed = toast(page, 'Invalid email ID')
    await malformed.waitFor()
    expect(await malformed.textContent()).toContain('A Gmail message ID is made of the digits 0-9 and letters a-f')

    await input.fill('00000000deadbeef')
    await input.press('Enter')
    const badId = toast(page, 'Test failed')
    await badId.waitFor()
    expect(await badId.textContent()).toContain('No email with ID 00000000deadbeef')
    await dialog.getByText('Extraction failed').waitFor()
    await dialog.getByText('No email with ID 00000000deadbeef', { exact: false }).waitFor()

    // An email without an order number: the parser finds nothing, and the test is on the ledger.
    await input.fill(bankAlert!.id)
    await dialog.getByRole('button', { name: 'Run Test' }).click()
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Test failed' }).nth(1).waitFor()
    await dialog.getByText('Extraction failed').waitFor()
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })

    await page.getByRole('table').getByText('Failed', { exact: true }).waitFor()
    expect(await statValue(page, 'Emails parsed')).toBe('1')
    expect(await statValue(page, 'Success rate')).toBe('0%')

    const bell = page.getByRole('button', { name: 'Notifications, 1 new' })
    await bell.waitFor()
    expect(await page.getByTestId('notifications-count').textContent()).toBe('1')
    await bell.click()
    const panel = page.getByRole('dialog', { name: 'Notifications' })
    await panel.waitFor()
    const item = panel.getByRole('button', { name: new RegExp(`${PARSER_NAME}: failed`) })
    expect(await item.textContent()).toContain(bankAlert!.subject)
    await item.click()
    const detail = page.getByRole('dialog', { name: bankAlert!.subject })
    await detail.waitFor()
    await detail.getByText('Failed', { exact: true }).waitFor()
    await detail.getByText('Why it failed').waitFor()
    await page.keyboard.press('Escape')
    await detail.waitFor({ state: 'detached' })
    // Seen: the count is gone, the item stays in the list.
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor()
  })

  it("notifications read in one browser are read in the other: the read state is the account's", async () => {
    const email = uniqueEmail('bell')
    const { page, parserId } = await signedInWithParser('bell', email)
    const [bankAlert] = await matchingEmails(page, 'alerts@harborbank.test')
    // A test on an email without an order number fails and lands on the ledger: a notification.
    const tested = await page.evaluate(
      async ({ parserId, emailId }) =>
        (await fetch(`/api/parsers/${parserId}/test`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ emailId }) })).status,
      { parserId, emailId: bankAlert!.id },
    )
    expect(tested).toBe(200)
    await page.reload()
    await page.getByRole('button', { name: 'Notifications, 1 new' }).waitFor()

    const other = await newPage()
    await signInViaForm(other, email)
    await waitForPath(other, '/dashboard')
    await other.getByRole('button', { name: 'Notifications, 1 new' }).waitFor()

    await page.getByRole('button', { name: 'Notifications, 1 new' }).click()
    await page.getByRole('dialog', { name: 'Notifications' }).getByRole('button', { name: new RegExp(`${PARSER_NAME}: failed`) }).waitFor()
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor()

    await other.reload()
    await other.getByRole('button', { name: 'Notifications', exact: true }).waitFor()
    expect(await other.getByTestId('notifications-count').count()).toBe(0)
  })

  it('user pauses, resumes and, after confirming, deletes a parser', async () => {
    const { page } = await signedInWithParser('lifecycle')
    const row = parserRow(page)

    await row.getByRole('button', { name: `Pause ${PARSER_NAME}` }).click()
    await toast(page, 'Parser paused').waitFor()
    await row.getByText('Type: template • Inactive').waitFor()
    await row.getByText('Paused', { exact: true }).waitFor()
    await page.waitForFunction(() => document.querySelector('[aria-label=Statistics]')?.textContent?.includes('Active parsers0'))

    // Resume asks about the mail that arrived while paused.
    await row.getByRole('button', { name: `Resume ${PARSER_NAME}` }).click()
    const asking = page.getByRole('dialog', { name: `Resume ${PARSER_NAME}?` })
    await asking.getByText(/Matching emails that arrived while it was paused/).waitFor()
    await asking.getByRole('button', { name: 'Skip them' }).click()
    const resumed = toast(page, 'Parser resumed')
    await resumed.waitFor()
    expect(await resumed.textContent()).toContain('Mail from while it was paused was skipped.')
    await asking.waitFor({ state: 'detached' })
    await row.getByText('Type: template • Active').waitFor()
    await page.waitForFunction(() => document.querySelector('[aria-label=Statistics]')?.textContent?.includes('Active parsers1'))

    await row.getByRole('button', { name: `Delete ${PARSER_NAME}` }).click()
    const confirm = page.getByRole('alertdialog', { name: `Delete ${PARSER_NAME}?` })
    await confirm.waitFor()
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await confirm.waitFor({ state: 'detached' })
    await row.waitFor()

    await row.getByRole('button', { name: `Delete ${PARSER_NAME}` }).click()
    await confirm.getByRole('button', { name: 'Delete parser' }).click()
    await toast(page, 'Parser deleted').waitFor()
    await page.getByRole('heading', { name: 'Your Parsers' }).waitFor({ state: 'detached' })
    await page.getByText('Create your first parser to start extracting data from emails').waitFor()
    expect(await statValue(page, 'Active parsers')).toBe('0')
  })

  it('when Google access is revoked, the parser shows why it is stalled and the user reconnects from the dashboard', async () => {
    const { page } = await signedInWithParser('stalled')
    // The user removes Mailrow's access in their Google account.
    const revoked = await fetch(`${emulatorUrl}/_control/users/${encodeURIComponent('demo@mailrow.test')}/revoke`, { method: 'POST' })
    expect(revoked.ok).toBe(true)
    // The next Gmail call finds out.
    const dialog = await openTestDialog(page)
    await dialog.getByRole('alert').waitFor()
    await page.keyboard.press('Escape')
    await page.reload()

    const row = parserRow(page)
    const alert = row.getByRole('alert')
    await alert.waitFor()
    await row.getByText('Needs attention', { exact: true }).waitFor()
    await page.getByRole('button', { name: 'Notifications, 1 new' }).click()
    await page.getByRole('dialog', { name: 'Notifications' }).getByText('Gmail needs reconnecting').waitFor()
    await page.keyboard.press('Escape')

    await alert.getByRole('button', { name: 'Reconnect' }).click()
    await grantOnConsentPage(page, emulatorUrl)
    await toast(page, 'Gmail connected successfully!').waitFor()

    await page.goto('/dashboard')
    await row.getByText('Running', { exact: true }).waitFor()
    expect(await row.getByRole('alert').count()).toBe(0)
  })
})
