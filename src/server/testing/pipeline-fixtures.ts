import { eq } from 'drizzle-orm'
import { pipelineDepsOf } from '../bootstrap'
import { users } from '../db/schema'
import type { PipelineDeps } from '../features/pipeline/pipeline.service'
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

const PRODUCTS = ['Blue Widget', 'Crème Brûlée Torch', "Kids' T-Shirt, Size 8", 'Desk Lamp', 'Merino Beanie', 'Camp Mug', 'Rain Jacket', 'Trail Socks', 'Headlamp', 'Daypack 22L']

/**
 * An order with `itemCount` line items in a table under an Item / Qty / Price header, and a total
 * row; with no items, no table (the items "follow in a separate email").
 */
export function itemOrderEmail(n: number, itemCount: number) {
  const items = Array.from({ length: itemCount }, (_, i) => ({
    name: PRODUCTS[(n + i) % PRODUCTS.length]!,
    qty: String(1 + ((n + i) % 3)),
    price: `$${((n * 13 + i * 7) % 90) + 10}.${String((n + i) % 100).padStart(2, '0')}`,
  }))
  const order = String(5000 + n)
  const rows = items.map((item) => `<tr><td>${item.name}</td><td>${item.qty}</td><td>${item.price}</td></tr>`).join('')
  return {
    from: 'Acme Store <orders@acme.test>',
    subject: `Order #${order} confirmed`,
    html: `<h1>Thanks for your order</h1><table><tr><td>Order number:</td><td>${order}</td></tr></table>${
      itemCount ? `<table><tr><th>Item</th><th>Qty</th><th>Price</th></tr>${rows}<tr><td colspan="2">Total</td><td>$999.00</td></tr></table>` : '<p>Your items follow in a separate email.</p>'
    }<p>Acme Store</p>`,
    labels: ['Orders'],
    expected: { order, items },
  }
}

/** Fields highlighted in `itemOrderEmail(0, 2)`: the order number and the first item's name and price. */
export function itemOrderFields() {
  const { expected } = itemOrderEmail(0, 2)
  return [
    { name: 'Order Number', value: expected.order },
    { name: 'Item', value: expected.items[0]!.name },
    { name: 'Price', value: expected.items[0]!.price },
  ]
}

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
    lineItems,
  }: {
    email: string
    plan?: 'free' | 'starter' | 'pro'
    parseHistorical?: boolean
    inbox?: string
    /** Train on a two-item order (itemOrderEmail) instead, with this row mode. */
    lineItems?: 'per_email' | 'per_item'
  },
) {
  const client: HttpClient = await signUpAndIn(t, email)
  await t.db.update(users).set({ plan }).where(eq(users.email, email))
  await connectGmail(google, client, { account: inbox })
  const { expected: _, ...sample } = lineItems ? itemOrderEmail(0, 2) : orderEmail(0)
  const sampleId = await deliverMail(google, inbox, sample)
  const created = await client.post('/api/parsers', {
    name: 'Orders',
    filters: { filterFrom: 'orders@acme.test', filterSubject: null, filterLabel: null },
    fields: lineItems ? itemOrderFields() : ORDER_FIELDS,
    sample: { messageId: sampleId },
    parserType: 'template',
    parseAttachments: false,
    destination: { type: 'new' },
    parseHistorical,
    ...(lineItems ? { rowMode: lineItems } : {}),
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

/** Delivers item orders `from`, `from + 1`, … with the given item counts; their ids and expected items. */
export async function deliverItemOrders(google: TestEmulator, from: number, itemCounts: number[], inbox = INBOX) {
  const orders: Array<{ id: string; order: string; items: Array<{ name: string; price: string }> }> = []
  for (const [i, count] of itemCounts.entries()) {
    const { expected, ...mail } = itemOrderEmail(from + i, count)
    orders.push({ id: await deliverMail(google, inbox, mail), order: expected.order, items: expected.items })
  }
  return orders
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

/**
 * Adds a fault to the emulator; `fired()` counts the requests it fired on, from the emulator's
 * request log (a request is logged once it has been answered, so a stalled one shows when it ends).
 */
export async function injectFault(google: TestEmulator, spec: Record<string, unknown>) {
  const created = await google.control('/faults', { body: spec })
  if (created.status !== 201) throw new Error(`fault not added: ${JSON.stringify(created.json)}`)
  const id = created.json.id as string
  return {
    id,
    /** Requests the fault has answered (logged once its latency is over). */
    fired: async () => ((await google.control('/requests')).json.requests as Array<{ fault?: string }>).filter((r) => r.fault === id).length,
    /** Requests that have reached the fault, answered or still held by its latency. */
    arrived: async () => ((await google.control('/faults')).json.faults as Array<{ id: string; fired: number }>).find((f) => f.id === id)?.fired ?? 0,
  }
}

/** Every fault fired exactly as often as it was told to (`times`). */
export async function expectFaultsFired(faults: Array<{ fired: () => Promise<number> }>, times: number[]) {
  const fired = await Promise.all(faults.map((f) => f.fired()))
  if (fired.some((count, i) => count !== times[i])) throw new Error(`faults fired ${JSON.stringify(fired)} times, expected ${JSON.stringify(times)}`)
}

/** The pipeline's dependencies for a test app, with the sheet writer's waits and deadline off. */
export function pipelineTestDeps(t: TestApp): PipelineDeps {
  return { ...pipelineDepsOf(t.deps)!, write: { sleep: async () => {}, ambiguousDeadlineMs: 0 } }
}
