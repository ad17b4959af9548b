import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { connectDemoGmail, deliverToDemoMailbox, signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'
import { highlightCell } from './email-frame'

const { newPage, baseUrl, emulatorUrl } = useBrowser()

const PRODUCTS: Array<[string, string]> = [
  ['Blue Widget', '$12.50'],
  ['Desk Lamp', '$48.00'],
  ['Merino Beanie', '$28.00'],
  ['Camp Mug', '$16.00'],
  ['Trail Socks', '$19.50'],
]

/** An order confirmation with an Item / Qty / Price table, from a sender only this story uses. */
function order(sender: string, number: string, items: Array<[string, string]>, minutesAgo = 0) {
  const rows = items.map(([name, price], i) => `<tr><td>${name}</td><td>${i + 1}</td><td>${price}</td></tr>`).join('')
  return [
    `From: Acme Store <${sender}>`,
    'To: demo@mailrow.test',
    `Subject: Order ${number} confirmed`,
    `Date: ${new Date(Date.now() - minutesAgo * 60_000).toUTCString()}`,
    `Message-ID: <order-${number}-${Date.now()}@acme.test>`,
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    '',
    `<h1>Thanks for your order!</h1><table><tr><td>Order number</td><td>${number}</td></tr></table>` +
      `<table><tr><th>Item</th><th>Qty</th><th>Price</th></tr>${rows}<tr><td colspan="2">Total</td><td>$999.00</td></tr></table>`,
    '',
  ].join('\r\n')
}

const deliver = (raw: string) => deliverToDemoMailbox(emulatorUrl, raw)

async function sheetValues(spreadsheetId: string): Promise<string[][]> {
  const sheet = (await (await fetch(`${emulatorUrl}/_control/spreadsheets/${spreadsheetId}`)).json()) as { sheets: Array<{ values?: string[][] }> }
  return sheet.sheets[0]?.values ?? []
}

async function nameField(page: Page, name: string) {
  const dialog = page.getByRole('dialog', { name: 'Name This Field' })
  await dialog.getByLabel('Field Name').fill(name)
  await dialog.getByLabel('Field Name').press('Enter')
  await dialog.waitFor({ state: 'detached' })
}

async function next(page: Page) {
  await page.getByRole('button', { name: 'Next', exact: true }).click()
}

/** Polls until `done` holds, failing with the last value after the timeout. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value).slice(0, 400)}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

describe('line items', () => {
  it('user trains on a two-item order, chooses one row per item, and a five-item order becomes five rows, each with the order number, exactly once', async () => {
    const sender = `orders.${Date.now().toString(36)}@acme-items.test`
    await deliver(order(sender, 'A-3001', [PRODUCTS[2]!, PRODUCTS[3]!, PRODUCTS[4]!], 60))
    await deliver(order(sender, 'A-3002', [PRODUCTS[0]!, PRODUCTS[1]!], 30))

    const email = uniqueEmail('items')
    await signUpViaApi(baseUrl, email)
    const page = await newPage()
    await signInViaForm(page, email)
    await waitForPath(page, '/dashboard')
    await connectDemoGmail(page, emulatorUrl)
    await next(page)
    await page.getByLabel('From Email Address').fill(sender)
    await next(page)

    await page.getByText('2 emails found').waitFor()
    await page.getByRole('list', { name: 'Matching emails' }).getByRole('button', { name: /Order A-3002 confirmed/ }).click()
    await highlightCell(page, 'A-3002')
    await nameField(page, 'Order Number')
    await highlightCell(page, 'Blue Widget')
    await nameField(page, 'Item')
    await highlightCell(page, '$12.50')
    await nameField(page, 'Price')

    // The live preview finds the other order's three items and shows them.
    const preview = page.getByRole('region', { name: 'Live preview' })
    await preview.getByText('1 of 1 email fully extracted').waitFor({ timeout: 30_000 })
    const items = preview.getByRole('table', { name: 'Line items in Order A-3001 confirmed' })
    await items.getByText('3 line items').waitFor()
    expect(await items.getByRole('cell', { name: 'Trail Socks' }).count()).toBe(1)

    // Training found line items: the row choice appears, one row per email until the user picks.
    const choice = page.getByRole('group', { name: 'Line items in your sheet' })
    await choice.getByText('Item and Price repeat for each item in an email').waitFor()
    expect(await choice.getByLabel(/One row per email/).isChecked()).toBe(true)
    await choice.getByLabel(/One row per item/).check()

    await next(page)
    await page.getByRole('heading', { name: 'Choose Destination' }).waitFor()
    const columns = page.getByRole('list', { name: 'Spreadsheet columns' })
    expect(await columns.getByRole('listitem').allTextContents()).toEqual(['Order Number', 'Item', 'Price', 'Received', 'From', 'Subject', 'Message ID', 'Item #', 'Row Key'])

    await next(page)
    await page.getByRole('heading', { name: 'Review Your Parser' }).waitFor()
    await page.getByText('One row per item', { exact: true }).waitFor()
    await page.getByLabel('Parser Name *').fill('Acme order lines')
    await page.getByRole('button', { name: 'Activate Parser' }).click()
    await toast(page, 'Parser created successfully!').waitFor({ timeout: 30_000 })
    await waitForPath(page, '/dashboard')

    const parser = await page.evaluate(async () => {
      const { parsers } = (await (await fetch('/api/parsers')).json()) as { parsers: Array<{ name: string; row_mode: string; destination_config: { spreadsheetId: string } }> }
      return parsers.find((p) => p.name === 'Acme order lines')!
    })
    expect(parser.row_mode).toBe('per_item')
    const spreadsheetId = parser.destination_config.spreadsheetId

    const five = PRODUCTS
    const newId = await deliver(order(sender, 'A-3107', five))
    // Wait until the email is written (the ledger says so), then the sheet holds exactly its five rows.
    await until(
      () =>
        page.evaluate(async () => {
          const dashboard = (await (await fetch('/api/dashboard')).json()) as { dashboard: { recentEmails: Array<{ id: string; emailSubject: string }> } }
          const recent = dashboard.dashboard.recentEmails.find((e) => e.emailSubject === 'Order A-3107 confirmed')
          if (!recent) return false
          const detail = (await (await fetch(`/api/parsed-emails/${recent.id}`)).json()) as { email: { writtenToSheets: boolean } }
          return detail.email.writtenToSheets
        }),
      (written) => written,
    )
    const rows = (await sheetValues(spreadsheetId)).slice(1)
    expect(rows.map((r) => [r[0], r[1], r[2], r[6], r[7]])).toEqual(five.map(([name, price], i) => ['A-3107', name, price, newId, String(i + 1)]))
  })
})
