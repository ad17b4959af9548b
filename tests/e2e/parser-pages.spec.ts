import { describe, expect, it } from 'vitest'
import { connectDemoGmail, deliverToDemoMailbox, signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'

const { newPage, baseUrl, emulatorUrl } = useBrowser()

/** One sender per run: the demo mailbox is shared by every story. */
const SENDER = `orders-${Date.now().toString(36)}@fixit-store.test`

function mail(n: number, html: string) {
  return [
    `From: Fixit Store <${SENDER}>`,
    'To: demo@mailrow.test',
    `Subject: Order #${n} confirmed`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <fixit-${n}-${Date.now()}@fixit-store.test>`,
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    '',
    html,
    '',
  ].join('\r\n')
}

const order = (n: number, customer: string, total: string) =>
  mail(n, `<h1>Thanks for your order</h1><table><tr><td>Order number:</td><td>${n}</td></tr><tr><td>Customer:</td><td>${customer}</td></tr><tr><td>Total:</td><td>${total}</td></tr></table><p>Fixit Store</p>`)

/** The sender's new layout: a Status row, and the customer called 'Buyer'. */
const redesigned = (n: number, customer: string, total: string) =>
  mail(
    n,
    `<h1>Thanks for your order</h1><table><tr><td>Order number:</td><td>${n}</td></tr><tr><td>Status:</td><td>Shipped</td></tr><tr><td>Buyer:</td><td>${customer}</td></tr><tr><td>Total:</td><td>${total}</td></tr></table><p>Fixit Store</p>`,
  )

const deliver = (raw: string) => deliverToDemoMailbox(emulatorUrl, raw)

describe("a parser's page", () => {
  it('user fixes partial emails with "Train on this email" and reprocesses them to success', async () => {
    const email = uniqueEmail('fixit')
    await signUpViaApi(baseUrl, email)
    const page = await newPage()
    await signInViaForm(page, email)
    await waitForPath(page, '/dashboard')
    await connectDemoGmail(page, emulatorUrl)

    const sampleId = await deliver(order(7001, 'Ana López', '$25.00'))
    const created = await page.evaluate(
      async ({ messageId, from }) => {
        const response = await fetch('/api/parsers', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            name: 'Fixit orders',
            filters: { filterFrom: from, filterSubject: null, filterLabel: null },
            fields: [
              { name: 'Order', value: '7001' },
              { name: 'Customer', value: 'Ana López' },
              { name: 'Total', value: '$25.00' },
            ],
            sample: { messageId },
            parserType: 'template',
            destination: { type: 'new' },
          }),
        })
        return response.json()
      },
      { messageId: sampleId, from: SENDER },
    )
    if (!created.parser) throw new Error(JSON.stringify(created))
    const parserId: string = created.parser.id

    // The sender changes its layout: the customer is no longer found.
    await deliver(redesigned(7002, 'Mia Chen', '$12.00'))
    await deliver(redesigned(7003, 'Kofi Mensah', '$99.50'))
    const started = Date.now()
    for (;;) {
      const counts = await page.evaluate(async (id) => (await (await fetch(`/api/parsers/${id}/emails`)).json()).counts, parserId)
      if (counts.partial === 2) break
      if (Date.now() - started > 20_000) throw new Error(`emails not processed: ${JSON.stringify(counts)}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }

    // The top bar's Parsers, then the parser's own page.
    await page.goto('/dashboard')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Parsers' }).click()
    await waitForPath(page, '/parsers')
    await page.getByRole('link', { name: 'Fixit orders' }).click()
    await waitForPath(page, `/parsers/${parserId}`)
    await page.getByRole('heading', { name: 'Fixit orders', level: 1 }).waitFor()
    // Its tab says which parser it is.
    const title = 'Fixit orders · Parser · Mailrow'
    await page.waitForFunction((expected) => document.title === expected, title)
    const partialRow = page.getByRole('row').filter({ hasText: 'Order #7002 confirmed' })
    await partialRow.getByText('Partial').waitFor()
    expect(await partialRow.getByText('Not found', { exact: true }).count()).toBe(1)

    // Only the partial ones with the status filter.
    await page.getByLabel('Status').selectOption('partial')
    await page.waitForURL((url) => url.searchParams.get('status') === 'partial')
    await page.getByText('Showing 1–2 of 2').waitFor()
    expect(await page.title()).toBe(title)

    await partialRow.getByRole('link', { name: 'Train on this email: Order #7002 confirmed' }).click()
    await page.getByRole('heading', { name: 'Train on this email' }).waitFor()
    await page.waitForFunction((expected) => document.title === expected, 'Fixit orders · Train on this email · Mailrow')
    const fields = page.getByRole('region', { name: 'Fields' })
    await fields.getByText('$12.00').waitFor()
    await fields.getByText(/Not found:/).waitFor()

    // The keyboard way: type the value, say which field it is.
    await page.getByRole('button', { name: 'Add field by typing' }).click()
    const typed = page.getByRole('dialog', { name: 'Add field by typing' })
    await typed.getByLabel('Value in the email').fill('Mia Chen')
    await typed.getByLabel('Value in the email').press('Enter')
    const assign = page.getByRole('dialog', { name: 'Which field is this?' })
    expect(await assign.getByLabel('Customer').isChecked()).toBe(true)
    await assign.getByRole('button', { name: 'Use for Customer' }).click()
    await fields.getByText('Mia Chen').waitFor()

    // The live preview over the parser's other emails: the other redesigned one is now complete.
    const preview = page.getByRole('region', { name: 'Live preview' })
    await preview.getByText('1 of 1 email fully extracted').waitFor()
    await preview.getByText('Kofi Mensah').waitFor()

    await page.getByRole('button', { name: 'Save and re-learn' }).click()
    await toast(page, 'Parser re-learned').waitFor()
    await page.getByText('Fixit orders re-learned its template from 2 emails.').waitFor()
    await page.getByRole('button', { name: 'Reprocess failed emails (2)' }).click()
    await toast(page, '2 emails reprocessed').waitFor()
    await waitForPath(page, `/parsers/${parserId}`)

    const fixed = page.getByRole('row').filter({ hasText: 'Order #7003 confirmed' })
    await fixed.getByText('Success').waitFor()
    await fixed.getByText('Kofi Mensah').waitFor()
    await page.getByRole('row').filter({ hasText: 'Order #7002 confirmed' }).getByText('Success').waitFor()
    expect(await page.getByRole('button', { name: 'Reprocess all failed (0)' }).isDisabled()).toBe(true)

    // The sheet's rows were corrected where they were, none added.
    const spreadsheetId: string = created.parser.destination_config.spreadsheetId
    const sheet = (await (await fetch(`${emulatorUrl}/_control/spreadsheets/${spreadsheetId}`)).json()) as { sheets: Array<{ values: string[][] }> }
    const rows = sheet.sheets[0]!.values.slice(1)
    expect(rows.map((r) => r.slice(0, 3))).toEqual([
      ['7002', 'Mia Chen', '$12.00'],
      ['7003', 'Kofi Mensah', '$99.50'],
    ])
  })
})
