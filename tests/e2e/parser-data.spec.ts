import { readFile } from 'node:fs/promises'
import ExcelJS from 'exceljs'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { connectDemoGmail, deliverToDemoMailbox, signInViaForm, signUpViaApi, uniqueEmail, useBrowser, waitForPath } from './browser'

const { newPage, baseUrl, emulatorUrl } = useBrowser()

/** One sender per story: the demo mailbox is shared by every story. */
const sender = (label: string) => `${label}-${Date.now().toString(36)}@ledger-shop.test`

function order(from: string, n: number, customer: string, total: string) {
  return [
    `From: Ledger Shop <${from}>`,
    'To: demo@mailrow.test',
    `Subject: Order #${n} confirmed`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <ledger-${n}-${Date.now()}@ledger-shop.test>`,
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    '',
    `<h1>Thanks for your order</h1><table><tr><td>Order number:</td><td>${n}</td></tr><tr><td>Customer:</td><td>${customer}</td></tr><tr><td>Total:</td><td>${total}</td></tr></table><p>Ledger Shop</p>`,
    '',
  ].join('\r\n')
}

const deliver = (raw: string) => deliverToDemoMailbox(emulatorUrl, raw)

/** A signed-in user with Gmail connected and a parser (Order, Customer, Total) on `from`'s orders. */
async function userWithParser(label: string, from: string): Promise<{ page: Page; parserId: string }> {
  const email = uniqueEmail(label)
  await signUpViaApi(baseUrl, email)
  const page = await newPage()
  await signInViaForm(page, email)
  await waitForPath(page, '/dashboard')
  await connectDemoGmail(page, emulatorUrl)
  const sampleId = await deliver(order(from, 8001, 'Ana López', '$25.00'))
  const created = await page.evaluate(
    async ({ messageId, from }) => {
      const response = await fetch('/api/parsers', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Ledger orders',
          filters: { filterFrom: from, filterSubject: null, filterLabel: null },
          fields: [
            { name: 'Order', value: '8001' },
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
    { messageId: sampleId, from },
  )
  if (!created.parser) throw new Error(JSON.stringify(created))
  return { page, parserId: created.parser.id }
}

/** Waits (through the API, as the test's own observer) until the parser's ledger holds `count` processed emails. */
async function waitForProcessed(page: Page, parserId: string, count: number) {
  for (let attempt = 0; attempt < 150; attempt++) {
    const counts = await page.evaluate(async (id) => (await (await fetch(`/api/parsers/${id}/emails`)).json()).counts as Record<string, number>, parserId)
    if ((counts.all ?? 0) - (counts.waiting ?? 0) >= count) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`parser ${parserId} did not process ${count} emails`)
}

/** RFC 4180 records (quoted fields, doubled quotes, CRLF line ends). */
function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      record.push(field)
      field = ''
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field)
      records.push(record)
      record = []
      field = ''
      i++
    } else field += c
  }
  return records
}

async function downloadFrom(page: Page, name: string | RegExp) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()])
  const path = await download.path()
  return { filename: download.suggestedFilename(), bytes: await readFile(path) }
}

// (The engine reads a leading '=' after a label as a separator, so the '@' form reaches the ledger whole.)
const FORMULA = '@SUM(A1:A9)'

describe("a parser's data", () => {
  it('user downloads the emails as CSV and XLSX, all of them and the filtered view, and every value is in its cell', async () => {
    const from = sender('export')
    const { page, parserId } = await userWithParser('export', from)
    await deliver(order(from, 8002, 'Seán O\'Brien, Jr.', '$1,204.50'))
    await deliver(order(from, 8003, FORMULA, '-$3.00'))
    await waitForProcessed(page, parserId, 2)

    await page.goto(`/parsers/${parserId}`)
    await page.getByRole('heading', { name: 'Emails' }).waitFor()

    const csv = await downloadFrom(page, 'Download CSV of all emails: Ledger orders')
    expect(csv.filename).toMatch(/^Ledger orders \d{4}-\d{2}-\d{2}\.csv$/)
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const records = parseCsv(csv.bytes.toString('utf8').slice(1))
    expect(records[0]).toEqual(['Received', 'From', 'Subject', 'Status', 'Order', 'Customer', 'Total', 'Error'])
    expect(records).toHaveLength(3)
    const byOrder = new Map(records.slice(1).map((r) => [r[4], r]))
    expect(byOrder.get('8002')!.slice(1)).toEqual([`Ledger Shop <${from}>`, 'Order #8002 confirmed', 'Success', '8002', "Seán O'Brien, Jr.", '$1,204.50', ''])
    // Formula-looking text stays text: an apostrophe in front.
    expect(byOrder.get('8003')!.slice(1)).toEqual([`Ledger Shop <${from}>`, 'Order #8003 confirmed', 'Success', '8003', `'${FORMULA}`, "'-$3.00", ''])
    expect(new Date(byOrder.get('8002')![0]!).getTime()).not.toBeNaN()

    const xlsx = await downloadFrom(page, 'Download XLSX of all emails: Ledger orders')
    expect(xlsx.filename).toMatch(/^Ledger orders \d{4}-\d{2}-\d{2}\.xlsx$/)
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer)
    const sheet = workbook.worksheets[0]!
    expect(sheet.name).toBe('Ledger orders')
    const rows = [1, 2, 3].map((i) => (sheet.getRow(i).values as unknown[]).slice(1))
    expect(rows[0]).toEqual(['Received', 'From', 'Subject', 'Status', 'Order', 'Customer', 'Total', 'Error'])
    const xlsxByOrder = new Map(rows.slice(1).map((r) => [r[4], r]))
    expect(xlsxByOrder.get('8002')!.slice(1)).toEqual([`Ledger Shop <${from}>`, 'Order #8002 confirmed', 'Success', '8002', "Seán O'Brien, Jr.", '$1,204.50'])
    expect(xlsxByOrder.get('8003')!.slice(1)).toEqual([`Ledger Shop <${from}>`, 'Order #8003 confirmed', 'Success', '8003', FORMULA, '-$3.00'])
    expect(xlsxByOrder.get('8003')![0]).toBeInstanceOf(Date)
    const formulaCell = sheet.getRow(rows.findIndex((r) => r[4] === '8003') + 1).getCell(6)
    expect(formulaCell.type).toBe(ExcelJS.ValueType.String)

    // The filtered view: what the table shows after a search.
    await page.getByRole('searchbox').fill('8002')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await page.getByRole('radio', { name: 'This view' }).waitFor()
    expect(await page.getByRole('radio', { name: 'This view' }).isChecked()).toBe(true)
    const filtered = parseCsv((await downloadFrom(page, 'Download CSV of this view: Ledger orders')).bytes.toString('utf8').slice(1))
    expect(filtered.slice(1).map((r) => r[4])).toEqual(['8002'])
    await page.getByRole('radio', { name: 'All emails' }).check()
    const all = parseCsv((await downloadFrom(page, 'Download CSV of all emails: Ledger orders')).bytes.toString('utf8').slice(1))
    expect(all.slice(1).map((r) => r[4]).sort()).toEqual(['8002', '8003'])
  })

  it('the open dashboard and parser page show a new email within 5 s of its being parsed, without a reload', async () => {
    const from = sender('live')
    const { page, parserId } = await userWithParser('live', from)
    await page.goto('/dashboard')
    await page.getByRole('heading', { name: 'Recent Parsed Emails' }).waitFor()
    await page.getByText('No emails parsed yet', { exact: false }).or(page.getByRole('row')).first().waitFor()
    // A reload would drop this.
    await page.evaluate(() => Object.assign(window, { __stillSamePage: true }))

    await deliver(order(from, 8101, 'Zoë Kim', '$42.00'))
    await waitForProcessed(page, parserId, 1)
    // From the moment the ledger has it, the page has 5 s.
    await page.getByRole('row').filter({ hasText: 'Order #8101 confirmed' }).waitFor({ timeout: 5_000 })

    await page.getByRole('link', { name: 'Ledger orders' }).first().click()
    await page.getByRole('heading', { name: 'Emails' }).waitFor()
    await page.getByText('Order #8101 confirmed').first().waitFor()
    await deliver(order(from, 8102, 'Li Wei', '$7.00'))
    await waitForProcessed(page, parserId, 2)
    await page.getByText('Order #8102 confirmed').first().waitFor({ timeout: 5_000 })
    expect(await page.evaluate(() => (window as unknown as { __stillSamePage?: boolean }).__stillSamePage)).toBe(true)
  })
})
