import { eq } from 'drizzle-orm'
import { users } from '../db/schema'
import { signUpAndIn, type HttpClient, type TestApp } from './test-app'
import { connectGmail, deliverMail, type TestEmulator } from './test-emulator'

export const INBOX = 'demo@mailrow.test'

/** An order confirmation of one sender template, with values that vary in length and form. */
export function orderEmail(n: number) {
  const customers = ['Ana López', "Seán O'Brien", 'Zoë Kim', 'Li Wei', 'Ngozi Adeyemi']
  const total = ((n * 37.25) % 2000 + 5).toLocaleString('en-US', { style: 'currency', currency: 'USD' })
  return {
    from: 'Acme Store <orders@acme.test>',
    subject: `Order #${1000 + n} confirmed`,
    html: `<h1>Thanks for your order</h1><table><tr><td>Order number:</td><td>${1000 + n}</td></tr><tr><td>Customer:</td><td>${customers[n % customers.length]}</td></tr><tr><td>Total:</td><td>${total}</td></tr></table><p>Acme Store</p>`,
    labels: ['Orders'],
    expected: { order: String(1000 + n), customer: customers[n % customers.length]!, total },
  }
}

export const ORDER_FIELDS = [
  { name: 'Order Number', value: '1000' },
  { name: 'Customer', value: 'Ana López' },
  { name: 'Total', value: '$5.00' },
]

/**
 * A signed-in user with Gmail connected and an active order parser writing to a new spreadsheet.
 * The sample (order 0) arrives before the parser exists, so only later mail is parsed.
 */
export async function userWithOrderParser(
  t: TestApp,
  google: TestEmulator,
  {
    email,
    plan = 'free',
    parseHistorical = false,
    inbox = INBOX,
  }: { email: string; plan?: 'free' | 'starter' | 'pro'; parseHistorical?: boolean; inbox?: string },
) {
  const client: HttpClient = await signUpAndIn(t, email)
  await t.db.update(users).set({ plan }).where(eq(users.email, email))
  await connectGmail(google, client, { account: inbox })
  const { expected: _, ...sample } = orderEmail(0)
  const sampleId = await deliverMail(google, inbox, sample)
  const created = await client.post('/api/parsers', {
    name: 'Orders',
    filters: { filterFrom: 'orders@acme.test', filterSubject: null, filterLabel: null },
    fields: ORDER_FIELDS,
    sample: { messageId: sampleId },
    parserType: 'template',
    parseAttachments: false,
    destination: { type: 'new' },
    parseHistorical,
  })
  if (created.status !== 201) throw new Error(`parser not created: ${created.text}`)
  const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email))
  return { client, userId: user!.id, parser: created.json.parser, spreadsheetId: created.json.parser.destination_config.spreadsheetId as string }
}

export async function deliverOrders(google: TestEmulator, from: number, count: number, inbox = INBOX) {
  const ids: string[] = []
  for (let n = from; n < from + count; n++) {
    const { expected: _, ...mail } = orderEmail(n)
    ids.push(await deliverMail(google, inbox, mail))
  }
  return ids
}

export async function sheetRows(google: TestEmulator, spreadsheetId: string): Promise<string[][]> {
  const sheet = (await google.control(`/spreadsheets/${spreadsheetId}`)).json
  return sheet.sheets?.[0]?.values ?? []
}

/** Waits for a condition, polling; fails after the timeout with the last value seen. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let value = await read()
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value).slice(0, 500)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
    value = await read()
  }
  return value
}
