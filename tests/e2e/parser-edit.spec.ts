import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { connectDemoGmail, deliverToDemoMailbox, signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'

const { newPage, baseUrl, emulatorUrl } = useBrowser()

/** One sender per run: the demo mailbox is shared by every story. */
const SENDER = `orders-${Date.now().toString(36)}@edit-store.test`

function mail(n: number, html: string) {
  return [
    `From: Edit Store <${SENDER}>`,
    'To: demo@mailrow.test',
    `Subject: Order #${n} confirmed`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <edit-${n}-${Date.now()}@edit-store.test>`,
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    '',
    html,
    '',
  ].join('\r\n')
}

const order = (n: number, customer: string, total: string, tracking?: string) =>
  mail(
    n,
    `<h1>Thanks for your order</h1><table><tr><td>Order number:</td><td>${n}</td></tr><tr><td>Customer:</td><td>${customer}</td></tr><tr><td>Total:</td><td>${total}</td></tr>${
      tracking ? `<tr><td>Tracking:</td><td>${tracking}</td></tr>` : ''
    }</table><p>Edit Store</p>`,
  )

const deliver = (raw: string) => deliverToDemoMailbox(emulatorUrl, raw)

type TypedCell = { type: string; value?: unknown; numberFormat?: { pattern?: string } } | null
async function sheet(spreadsheetId: string) {
  const body = (await (await fetch(`${emulatorUrl}/_control/spreadsheets/${spreadsheetId}?cells=1`)).json()) as { sheets: Array<{ values: string[][]; cells: TypedCell[][] }> }
  return body.sheets[0]!
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const started = Date.now()
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: ${JSON.stringify(value).slice(0, 400)}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

async function signedInWithParser(label: string, fields: Array<{ name: string; value: string; type?: string }>, sample: string) {
  const email = uniqueEmail(label)
  await signUpViaApi(baseUrl, email)
  const page = await newPage()
  await signInViaForm(page, email)
  await waitForPath(page, '/dashboard')
  await connectDemoGmail(page, emulatorUrl)
  const sampleId = await deliver(sample)
  const created = await page.evaluate(
    async ({ messageId, from, fields }) => {
      const response = await fetch('/api/parsers', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Edit orders', filters: { filterFrom: from }, fields, sample: { messageId }, parserType: 'template', destination: { type: 'new' } }),
      })
      return response.json()
    },
    { messageId: sampleId, from: SENDER, fields },
  )
  if (!created.parser) throw new Error(JSON.stringify(created))
  return { page, parserId: created.parser.id as string, spreadsheetId: created.parser.destination_config.spreadsheetId as string }
}

const processed = (page: Page, parserId: string, count: number) =>
  until(
    () => page.evaluate(async (id) => (await (await fetch(`/api/parsers/${id}/emails`)).json()).counts, parserId),
    (counts) => counts.success + counts.partial + counts.failed >= count,
    'emails not processed',
  )

describe('editing a parser', () => {
  it('user renames and reorders fields, adds a field from an email, and the next email fills its new column', async () => {
    const { page, parserId, spreadsheetId } = await signedInWithParser(
      'edit',
      [
        { name: 'Order', value: '8001' },
        { name: 'Customer', value: 'Ana López' },
        { name: 'Total', value: '$25.00', type: 'money' },
      ],
      order(8001, 'Ana López', '$25.00'),
    )
    await deliver(order(8002, 'Mia Chen', '$12.00', 'TRK-8002'))
    await processed(page, parserId, 1)

    // The parser's page → Edit: Customer becomes Buyer, Total moves first.
    await page.goto(`/parsers/${parserId}`)
    await page.getByRole('link', { name: 'Edit Edit orders' }).click()
    await waitForPath(page, `/parsers/${parserId}/edit`)
    await page.getByRole('heading', { name: 'Edit Edit orders' }).waitFor()
    await page.waitForFunction((expected) => document.title === expected, 'Edit orders · Edit parser · Mailrow')
    await page.getByLabel('Field 2 name').fill('Buyer')
    await page.getByRole('button', { name: 'Move Total up' }).click()
    await page.getByRole('button', { name: 'Move Total up' }).click()
    expect(await page.getByLabel('Type of Total').inputValue()).toBe('money')
    expect(await page.getByLabel('Field 1 name').inputValue()).toBe('Total')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await toast(page, 'Parser saved').waitFor()
    await waitForPath(page, `/parsers/${parserId}`)
    await page.getByText('Fields: Total, Order, Buyer').waitFor()
    // The column was renamed where it is; none moved.
    expect((await sheet(spreadsheetId)).values[0]).toEqual(['Order', 'Buyer', 'Total', 'Received', 'From', 'Subject', 'Message ID', 'Row Key'])

    // A new field, highlighted in an email (the keyboard way: typed, then named).
    await page.getByRole('link', { name: 'Train on this email: Order #8002 confirmed' }).click()
    await page.getByRole('heading', { name: 'Train on this email' }).waitFor()
    await page.getByRole('button', { name: 'Add field by typing' }).click()
    const typed = page.getByRole('dialog', { name: 'Add field by typing' })
    await typed.getByLabel('Value in the email').fill('TRK-8002')
    await typed.getByLabel('Value in the email').press('Enter')
    const assign = page.getByRole('dialog', { name: 'Which field is this?' })
    await assign.getByLabel('A new field (a new column in the sheet)').check()
    await assign.getByLabel('New field name').fill('Tracking')
    await assign.getByRole('button', { name: 'Add Tracking' }).click()
    await page.getByRole('region', { name: 'Fields' }).getByText('TRK-8002').waitFor()
    await page.getByRole('button', { name: 'Save and re-learn' }).click()
    await toast(page, 'Parser re-learned').waitFor()
    expect((await sheet(spreadsheetId)).values[0]).toEqual(['Order', 'Buyer', 'Total', 'Received', 'From', 'Subject', 'Message ID', 'Row Key', 'Tracking'])

    // The next email fills the new column at the end; the rows before are as they were.
    const before = (await sheet(spreadsheetId)).values.slice(1)
    await deliver(order(8003, 'Kofi Mensah', '$99.50', 'TRK-8003'))
    const after = await until(() => sheet(spreadsheetId), (s) => s.values.some((row) => row[0] === '8003'), 'row 8003 not in the sheet')
    expect(after.values.slice(1, 1 + before.length)).toEqual(before)
    const row = after.values.find((r) => r[0] === '8003')!
    expect(row.slice(0, 3)).toEqual(['8003', 'Kofi Mensah', '99.50'])
    expect(row[7]).toMatch(new RegExp(`^${parserId}:`))
    expect(row[8]).toBe('TRK-8003')
  })

  it('a money field lands in the sheet as a number, a formula-looking value as text', async () => {
    const { page, parserId, spreadsheetId } = await signedInWithParser(
      'typed',
      [
        { name: 'Order', value: '9001' },
        { name: 'Customer', value: 'Ana López' },
        { name: 'Total', value: '$84.88', type: 'money' },
      ],
      order(9001, 'Ana López', '$84.88'),
    )
    await deliver(order(9002, '=HYPERLINK("http://evil.test","Click me")', '$1,284.88'))
    await processed(page, parserId, 1)
    const written = await until(() => sheet(spreadsheetId), (s) => s.values.length >= 2, 'row not in the sheet')
    const cells = written.cells[1]!
    expect(cells[2]).toEqual({ type: 'number', value: 1284.88, numberFormat: { type: 'NUMBER', pattern: '#,##0.00' } })
    expect(written.values[1]![2]).toBe('1,284.88')
    expect(cells[1]!.type).toBe('string')
    expect(String(cells[1]!.value)).toContain('HYPERLINK("http://evil.test","Click me")')
    expect(written.cells.flat().some((cell) => cell?.type === 'formula')).toBe(false)

    // The edit form shows the type chosen when the parser was made.
    await page.goto(`/parsers/${parserId}/edit`)
    expect(await page.getByLabel('Type of Total').inputValue()).toBe('money')
    expect(await page.getByLabel('Type of Customer').inputValue()).toBe('text')
  })
})
