import { describe, expect, it } from 'vitest'
import { connectDemoGmail, deliverToDemoMailbox, signInViaForm, signUpViaApi, uniqueEmail, useBrowser, waitForPath } from './browser'

const { newPage, baseUrl, emulatorUrl } = useBrowser()

const order = (n: number) =>
  [
    'From: Acme Store <orders@acme.test>',
    'To: demo@mailrow.test',
    `Subject: Order #${n} confirmed`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <order-${n}-${Date.now()}@acme.test>`,
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    '',
    `<p>Thanks for your order!</p><table><tr><td>Order number:</td><td>${n}</td></tr><tr><td>Total:</td><td>$${(n / 100).toFixed(2)}</td></tr></table>`,
    '',
  ].join('\r\n')

const deliver = (raw: string) => deliverToDemoMailbox(emulatorUrl, raw)

describe('the pipeline in demo mode', () => {
  it('after a parser is activated, a newly delivered matching email becomes a row in the sheet and on the dashboard within seconds', async () => {
    const email = uniqueEmail('pipeline')
    await signUpViaApi(baseUrl, email)
    const page = await newPage()
    await signInViaForm(page, email)
    await waitForPath(page, '/dashboard')

    await connectDemoGmail(page, emulatorUrl)

    const sampleId = await deliver(order(41001))
    const created = await page.evaluate(async (messageId) => {
      const response = await fetch('/api/parsers', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Acme orders',
          filters: { filterFrom: 'orders@acme.test', filterSubject: null, filterLabel: null },
          fields: [
            { name: 'Order', value: '41001' },
            { name: 'Total', value: '$410.01' },
          ],
          sample: { messageId },
          parserType: 'template',
          destination: { type: 'new' },
        }),
      })
      return response.json()
    }, sampleId)
    if (!created.parser) throw new Error(JSON.stringify(created))
    const spreadsheetId: string = created.parser.destination_config.spreadsheetId

    const newId = await deliver(order(52077))
    const started = Date.now()
    let rows: string[][] = []
    while (Date.now() - started < 20_000) {
      const sheet = (await (await fetch(`${emulatorUrl}/_control/spreadsheets/${spreadsheetId}`)).json()) as { sheets: Array<{ values: string[][] }> }
      rows = sheet.sheets[0]?.values ?? []
      if (rows.some((r) => r[r.length - 1] === newId)) break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(rows.slice(1).map((r) => r.slice(0, 2))).toEqual([['52077', '$520.77']])

    await page.goto('/dashboard')
    const row = page.getByRole('row').filter({ hasText: 'Order #52077 confirmed' })
    await row.waitFor()
    expect(await row.textContent()).toContain('Success')
  })
})
