import { escapeHtml } from '../http/html'
import { buildRfc822, type OutgoingAttachment } from './mime-builder'
import { createRandom, type Random } from '../prng'

/** One generated notification email, before it becomes RFC 822. */
export type DemoEmail = {
  kind: string
  from: { name: string; address: string }
  subject: string
  text: string
  html: string
  labels: string[]
  attachments?: OutgoingAttachment[]
}

type Person = { first: string; last: string; email: string; phone: string; company: string; city: string; street: string; zip: string }

const FIRST = ['Ava', 'Liam', 'Maya', 'Noah', 'Chloé', 'Ethan', 'Priya', 'Lucas', 'Sofia', 'Mateo', 'Hana', 'Oliver', 'Zoe', 'Daniel', 'Amara', 'Jonas']
const LAST = ['Patel', 'Nguyen', 'García', 'Schmidt', 'Okafor', 'Rossi', 'Kim', 'Müller', 'Johnson', 'Silva', 'Dubois', 'Larsen', 'Cohen', 'Tanaka']
const COMPANIES = ['Fernwood Dental', 'Brightline Logistics', 'Oak & Ember Bakery', 'Northshore Realty', 'Pixelcraft Studio', 'Greenleaf Landscaping', 'Summit Physio', 'Harborview Legal']
const CITIES = [
  ['Portland', 'OR', '97205'],
  ['Austin', 'TX', '78701'],
  ['Denver', 'CO', '80202'],
  ['Madison', 'WI', '53703'],
  ['Raleigh', 'NC', '27601'],
  ['Sacramento', 'CA', '95814'],
] as const
const STREETS = ['Maple Ave', 'Cedar St', 'Harbor Rd', 'Elm Court', 'Willow Way', 'Pine St', 'Lakeview Dr']

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })
const eur = new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR' })
const longDate = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
const timeOfDay = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' })

function person(random: Random): Person {
  const first = random.pick(FIRST)
  const last = random.pick(LAST)
  const [city, state, zip] = random.pick(CITIES)
  const plain = (text: string) => text.normalize('NFKD').replace(/[^\w]/g, '').toLowerCase()
  return {
    first,
    last,
    email: `${plain(first)}.${plain(last)}@${random.pick(['example.com', 'example.org', 'mail.example.net'])}`,
    phone: `(${random.int(201, 989)}) 555-0${random.int(100, 199)}`,
    company: random.pick(COMPANIES),
    city: `${city}, ${state}`,
    street: `${random.int(12, 980)} ${random.pick(STREETS)}`,
    zip,
  }
}

const money = (cents: number) => usd.format(cents / 100)

/** Distinct line items: a real order never lists the same product twice. */
function pickSome<T>(random: Random, items: readonly T[], count: number): T[] {
  const pool = [...items]
  const picked: T[] = []
  while (picked.length < count && pool.length) picked.push(pool.splice(Math.floor(random.next() * pool.length), 1)[0]!)
  return picked
}
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000)

/** A plain, table-based notification layout, as transactional mail is written. */
function layout(brand: string, accent: string, heading: string, intro: string, rows: [string, string][], extra = '', footer = ''): string {
  const table = rows
    .map(
      ([label, value]) =>
        `<tr><td style="padding:6px 0;color:#5f6368;width:40%">${escapeHtml(label)}</td><td style="padding:6px 0;font-weight:600">${escapeHtml(value)}</td></tr>`,
    )
    .join('\n')
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(heading)}</title></head>
<body style="margin:0;background:#f4f5f7;font-family:Helvetica,Arial,sans-serif;color:#202124">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="background:#ffffff;border-radius:8px">
<tr><td style="background:${accent};color:#ffffff;padding:16px 24px;font-size:20px;font-weight:bold;border-radius:8px 8px 0 0">${escapeHtml(brand)}</td></tr>
<tr><td style="padding:24px">
<h1 style="font-size:20px;margin:0 0 12px">${escapeHtml(heading)}</h1>
<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(intro)}</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="font-size:14px">
${table}
</table>
${extra}
</td></tr>
<tr><td style="padding:16px 24px;color:#80868b;font-size:12px;border-top:1px solid #e8eaed">${escapeHtml(footer || `You are receiving this email because of your ${brand} account.`)}</td></tr>
</table>
</td></tr></table>
</body></html>`
}

function itemsTable(items: { name: string; qty: number; cents: number }[], totals: [string, string][]): string {
  const rows = items
    .map(
      (item) =>
        `<tr><td style="padding:6px 0;border-bottom:1px solid #eee">${escapeHtml(item.name)}</td><td align="center" style="padding:6px 0;border-bottom:1px solid #eee">${item.qty}</td><td align="right" style="padding:6px 0;border-bottom:1px solid #eee">${escapeHtml(money(item.cents * item.qty))}</td></tr>`,
    )
    .join('\n')
  const totalRows = totals
    .map(([label, value]) => `<tr><td colspan="2" align="right" style="padding:4px 8px 4px 0;color:#5f6368">${escapeHtml(label)}</td><td align="right" style="padding:4px 0;font-weight:600">${escapeHtml(value)}</td></tr>`)
    .join('\n')
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="font-size:14px;margin-top:16px">
<tr><th align="left" style="border-bottom:2px solid #202124;padding:6px 0">Item</th><th style="border-bottom:2px solid #202124;padding:6px 0">Qty</th><th align="right" style="border-bottom:2px solid #202124;padding:6px 0">Price</th></tr>
${rows}
${totalRows}
</table>`
}

const PRODUCTS = [
  ['Merino Wool Beanie', 2800],
  ['Trail Running Socks (3-pack)', 1950],
  ['Insulated Water Bottle 750ml', 3400],
  ['Packable Rain Jacket', 12900],
  ['Canvas Daypack 22L', 8900],
  ['Headlamp 400 lm', 3999],
  ['Camp Mug Enamel', 1600],
] as const

function onlineOrder(random: Random, date: Date, seq: number): DemoEmail {
  const customer = person(random)
  const order = `NW-${104200 + seq * 7 + random.int(0, 6)}`
  const items = pickSome(random, PRODUCTS, random.int(1, 3)).map(([name, cents]) => ({ name, qty: random.int(1, 2), cents }))
  const subtotal = items.reduce((sum, item) => sum + item.cents * item.qty, 0)
  const shipping = subtotal > 7500 ? 0 : 695
  const tax = Math.round(subtotal * 0.0825)
  const total = subtotal + shipping + tax
  const delivery = longDate.format(addDays(date, random.int(3, 6)))
  const totals: [string, string][] = [
    ['Subtotal', money(subtotal)],
    ['Shipping', shipping ? money(shipping) : 'Free'],
    ['Tax', money(tax)],
    ['Total', money(total)],
  ]
  const text = [
    `Hi ${customer.first},`,
    '',
    `Thanks for your order! We're getting order ${order} ready to ship.`,
    '',
    `Order number: ${order}`,
    `Order date: ${longDate.format(date)}`,
    ...items.map((item) => `- ${item.name} x${item.qty}: ${money(item.cents * item.qty)}`),
    ...totals.map(([label, value]) => `${label}: ${value}`),
    '',
    'Shipping to:',
    `${customer.first} ${customer.last}`,
    customer.street,
    `${customer.city} ${customer.zip}`,
    '',
    `Estimated delivery: ${delivery}`,
    '',
    'Northwind Outfitters · 1200 Industrial Way, Portland, OR 97210',
  ].join('\n')
  const html = layout(
    'Northwind Outfitters',
    '#1f5134',
    `Thanks for your order, ${customer.first}!`,
    `We're getting order ${order} ready to ship. Estimated delivery: ${delivery}.`,
    [
      ['Order number', order],
      ['Order date', longDate.format(date)],
      ['Ship to', `${customer.first} ${customer.last}, ${customer.street}, ${customer.city} ${customer.zip}`],
    ],
    itemsTable(items, totals),
    'Northwind Outfitters · 1200 Industrial Way, Portland, OR 97210',
  )
  return {
    kind: 'online-order',
    from: { name: 'Northwind Outfitters', address: 'orders@northwind-outfitters.test' },
    subject: `Your Northwind Outfitters order ${order} is confirmed`,
    text,
    html,
    labels: ['INBOX', 'CATEGORY_UPDATES', 'Orders'],
  }
}

const SERVICES = [
  ['Website maintenance (monthly)', 45000],
  ['Logo refresh – design hours', 9500],
  ['Landing page copywriting', 32000],
  ['SEO audit', 60000],
  ['Hosting & SSL (annual)', 18000],
  ['Photography – half day', 52500],
] as const

function invoice(random: Random, date: Date, seq: number): DemoEmail {
  const client = person(random)
  const number = `INV-${date.getUTCFullYear()}-${String(300 + seq).padStart(4, '0')}`
  const items = pickSome(random, SERVICES, random.int(2, 4)).map(([name, cents]) => ({ name, qty: random.int(1, 3), cents }))
  const subtotal = items.reduce((sum, item) => sum + item.cents * item.qty, 0)
  const tax = Math.round(subtotal * 0.07)
  const total = subtotal + tax
  const due = longDate.format(addDays(date, 30))
  const totals: [string, string][] = [
    ['Subtotal', money(subtotal)],
    ['Sales tax (7%)', money(tax)],
    ['Amount due', money(total)],
  ]
  const csv = [
    'description,quantity,unit_price,amount',
    ...items.map((item) => `"${item.name}",${item.qty},${(item.cents / 100).toFixed(2)},${((item.cents * item.qty) / 100).toFixed(2)}`),
    `"Sales tax",1,${(tax / 100).toFixed(2)},${(tax / 100).toFixed(2)}`,
    `"Total",,,${(total / 100).toFixed(2)}`,
  ].join('\r\n')
  const text = [
    `Hello ${client.first},`,
    '',
    `Please find invoice ${number} for ${client.company} below.`,
    '',
    `Invoice number: ${number}`,
    `Issue date: ${longDate.format(date)}`,
    `Due date: ${due}`,
    '',
    ...items.map((item) => `${item.name} — ${item.qty} × ${money(item.cents)} = ${money(item.cents * item.qty)}`),
    '',
    ...totals.map(([label, value]) => `${label}: ${value}`),
    '',
    `Pay online: https://pay.brightpath.test/i/${number}`,
    '',
    'Thank you for your business!',
    'Brightpath Studio',
  ].join('\n')
  const html = layout(
    'Brightpath Studio',
    '#4a3aa8',
    `Invoice ${number}`,
    `Hello ${client.first}, here is your invoice for ${client.company}. Payment is due by ${due}.`,
    [
      ['Invoice number', number],
      ['Issue date', longDate.format(date)],
      ['Due date', due],
      ['Billed to', `${client.company}, ${client.city}`],
    ],
    `${itemsTable(items, totals)}<p style="margin-top:20px"><a href="https://pay.brightpath.test/i/${number}" style="background:#4a3aa8;color:#fff;padding:10px 18px;border-radius:4px;text-decoration:none">Pay ${escapeHtml(money(total))}</a></p>`,
  )
  return {
    kind: 'invoice',
    from: { name: 'Brightpath Studio Billing', address: 'billing@brightpath.test' },
    subject: `Invoice ${number} from Brightpath Studio`,
    text,
    html,
    labels: ['INBOX', 'CATEGORY_UPDATES', 'Finance'],
    attachments: [{ filename: `${number}.csv`, contentType: 'text/csv', content: Buffer.from(csv, 'utf8') }],
  }
}

const BUDGETS = ['Under $5,000', '$5,000 – $15,000', '$15,000 – $50,000', 'Not sure yet']
const INTERESTS = ['Website redesign', 'Monthly bookkeeping', 'Kitchen remodel quote', 'Team workshop', 'Wedding photography', 'Office cleaning']
const MESSAGES = [
  "Hi there — we're looking to get started next month. Could someone call me back this week?",
  "We found you through a friend's recommendation. What does your availability look like in the spring?",
  'Can you send pricing for a team of about 12 people? Thanks!',
  "I'd like a quote. Our current provider isn't working out & we need to switch soon.",
]

function webLead(random: Random, date: Date, seq: number): DemoEmail {
  const lead = person(random)
  const interest = random.pick(INTERESTS)
  const budget = random.pick(BUDGETS)
  const message = random.pick(MESSAGES)
  const submission = `SUB-${58000 + seq * 13}`
  const rows: [string, string][] = [
    ['Name', `${lead.first} ${lead.last}`],
    ['Email', lead.email],
    ['Phone', lead.phone],
    ['Company', lead.company],
    ['Interested in', interest],
    ['Budget', budget],
    ['Message', message],
  ]
  const text = [
    'You have a new submission from your "Contact us" form.',
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    `Submitted: ${longDate.format(date)} at ${timeOfDay.format(date)} UTC`,
    `Submission ID: ${submission}`,
    'Page: https://www.fernwood.test/contact',
    '',
    '— Sent by Lumen Forms',
  ].join('\n')
  const html = layout(
    'Lumen Forms',
    '#0b7285',
    'New form submission: Contact us',
    `${lead.first} ${lead.last} just filled in your "Contact us" form.`,
    [...rows, ['Submitted', `${longDate.format(date)} ${timeOfDay.format(date)} UTC`], ['Submission ID', submission]],
    '',
    'Sent by Lumen Forms · Manage notifications in your form settings.',
  )
  return {
    kind: 'web-lead',
    from: { name: 'Lumen Forms', address: 'notifications@lumenforms.test' },
    subject: `New lead: ${lead.first} ${lead.last} – ${interest}`,
    text,
    html,
    labels: ['INBOX', 'UNREAD', 'Leads'],
  }
}

const STATUSES = [
  ['Shipped', 'Your package has left our facility.'],
  ['In transit', 'Your package is on its way.'],
  ['Out for delivery', 'Your package is out for delivery today.'],
  ['Delivered', 'Your package was delivered.'],
] as const

function shippingUpdate(random: Random, date: Date, seq: number): DemoEmail {
  const recipient = person(random)
  const tracking = `PJ${random.int(100000000, 999999999)}US`
  const [status, sentence] = STATUSES[seq % STATUSES.length]!
  const eta = status === 'Delivered' ? longDate.format(date) : longDate.format(addDays(date, random.int(1, 4)))
  const rows: [string, string][] = [
    ['Tracking number', tracking],
    ['Status', status],
    [status === 'Delivered' ? 'Delivered on' : 'Estimated delivery', eta],
    ['Ship to', `${recipient.city} ${recipient.zip}`],
    ['Shipped by', random.pick(['Northwind Outfitters', 'Maple & Moss', 'Keystone Supply Co.'])],
    ['Weight', `${(random.int(4, 60) / 10).toFixed(1)} lb`],
  ]
  const text = [
    `Hello ${recipient.first},`,
    '',
    sentence,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    `Track your package: https://parceljet.test/track/${tracking}`,
  ].join('\n')
  const html = layout('ParcelJet', '#d9480f', `${status}: ${tracking}`, sentence, rows, `<p><a href="https://parceljet.test/track/${tracking}">Track your package</a></p>`)
  return {
    kind: 'shipping-update',
    from: { name: 'ParcelJet Tracking', address: 'tracking@parceljet.test' },
    subject: `${status}: your ParcelJet package ${tracking}`,
    text,
    html,
    labels: ['INBOX', 'CATEGORY_UPDATES'],
  }
}

const MERCHANTS = ['Blue Bottle Coffee', 'Whole Foods Market', 'Shell Station #4412', 'City Parking Garage', 'Target T-1923', 'Uber Trip', 'Spotify', 'Trader Joe’s']

function bankAlert(random: Random, date: Date): DemoEmail {
  const merchant = random.pick(MERCHANTS)
  const cents = random.int(350, 18999)
  const card = String(random.int(1000, 9999))
  const balance = random.int(120000, 980000)
  const rows: [string, string][] = [
    ['Amount', money(cents)],
    ['Merchant', merchant],
    ['Card', `Visa ending in ${card}`],
    ['Date', `${longDate.format(date)} ${timeOfDay.format(date)} UTC`],
    ['Available balance', money(balance)],
  ]
  const text = [
    'Harbor Bank transaction alert',
    '',
    `A charge of ${money(cents)} at ${merchant} was made with your card ending in ${card}.`,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    "If you don't recognize this transaction, call us at 1-800-555-0142.",
    'Harbor Bank, N.A. Member FDIC.',
  ].join('\n')
  const html = layout(
    'Harbor Bank',
    '#0b3d91',
    'Transaction alert',
    `A charge of ${money(cents)} at ${merchant} was made with your card ending in ${card}.`,
    rows,
    '<p style="font-size:13px;color:#5f6368">If you don\'t recognize this transaction, call us at 1-800-555-0142.</p>',
    'Harbor Bank, N.A. Member FDIC. Please do not reply to this email.',
  )
  return {
    kind: 'bank-alert',
    from: { name: 'Harbor Bank Alerts', address: 'alerts@harborbank.test' },
    subject: `Transaction alert: ${money(cents)} at ${merchant}`,
    text,
    html,
    labels: ['INBOX', 'Finance'],
  }
}

const HOTELS = ['StayWell Downtown Seattle', 'StayWell Riverside Chicago', 'StayWell Airport Denver', 'StayWell Harbor Boston']
const ROOMS = ['King Room', 'Queen Room with Two Beds', 'Junior Suite', 'Deluxe King, City View']

function hotelBooking(random: Random, date: Date, seq: number): DemoEmail {
  const guest = person(random)
  const hotel = random.pick(HOTELS)
  const checkIn = addDays(date, random.int(7, 40))
  const nights = random.int(1, 4)
  const rate = random.int(11900, 26900)
  const total = rate * nights + Math.round(rate * nights * 0.14)
  const confirmation = `SW${random.int(1000000, 9999999)}`
  const rows: [string, string][] = [
    ['Confirmation number', confirmation],
    ['Hotel', hotel],
    ['Check-in', `${longDate.format(checkIn)} (from 3:00 PM)`],
    ['Check-out', `${longDate.format(addDays(checkIn, nights))} (until 11:00 AM)`],
    ['Room', random.pick(ROOMS)],
    ['Guests', `${random.int(1, 3)} adult(s)`],
    ['Nights', String(nights)],
    ['Total incl. taxes', money(total)],
  ]
  const text = [
    `Dear ${guest.first} ${guest.last},`,
    '',
    `Your stay at ${hotel} is confirmed.`,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    `Manage your booking: https://staywell.test/bookings/${confirmation}`,
    '',
    `Booking reference ${seq + 1} of your StayWell Rewards account.`,
  ].join('\n')
  const html = layout('StayWell Hotels', '#2b8a3e', 'Your reservation is confirmed', `Dear ${guest.first}, we look forward to welcoming you.`, rows)
  return {
    kind: 'hotel-booking',
    from: { name: 'StayWell Hotels', address: 'reservations@staywell.test' },
    subject: `Booking confirmed: ${hotel} – ${confirmation}`,
    text,
    html,
    labels: ['INBOX', 'Travel'],
  }
}

const RESTAURANTS = ['Osteria Lupa', 'The Copper Pot', 'Sakura Omakase', 'Verde Cantina', 'Bistro Margaux']

function tableBooking(random: Random, date: Date): DemoEmail {
  const guest = person(random)
  const restaurant = random.pick(RESTAURANTS)
  const when = addDays(date, random.int(1, 14))
  const hour = random.pick(['6:00 PM', '6:30 PM', '7:15 PM', '8:00 PM', '12:30 PM'])
  const party = random.int(2, 6)
  const code = `T2-${random.int(10000, 99999)}`
  const rows: [string, string][] = [
    ['Restaurant', restaurant],
    ['Date', longDate.format(when)],
    ['Time', hour],
    ['Party size', `${party} people`],
    ['Name', `${guest.first} ${guest.last}`],
    ['Confirmation code', code],
  ]
  const text = [`You're all set, ${guest.first}!`, '', ...rows.map(([label, value]) => `${label}: ${value}`), '', 'Need to change plans? Reply CANCEL or use the app.'].join('\n')
  const html = layout('Tablefor2', '#c2255c', `Table for ${party} at ${restaurant}`, `You're all set, ${guest.first}!`, rows)
  return {
    kind: 'restaurant-booking',
    from: { name: 'Tablefor2', address: 'bookings@tablefor2.test' },
    subject: `Reservation confirmed: ${restaurant}, ${longDate.format(when)} at ${hour}`,
    text,
    html,
    labels: ['INBOX', 'Travel'],
  }
}

function paymentReceived(random: Random, date: Date, seq: number): DemoEmail {
  const payer = person(random)
  const cents = random.int(4500, 250000)
  const fee = Math.round(cents * 0.029) + 25
  const id = `pay_${(seq * 7919 + random.int(1000, 9999)).toString(36)}${random.int(100, 999)}`
  const rows: [string, string][] = [
    ['Amount', eur.format(cents / 100)],
    ['From', `${payer.company} (${payer.email})`],
    ['Payment ID', id],
    ['Fee', eur.format(fee / 100)],
    ['Net', eur.format((cents - fee) / 100)],
    ['Payout date', longDate.format(addDays(date, 2))],
  ]
  const text = [`You received a payment of ${eur.format(cents / 100)} from ${payer.company}.`, '', ...rows.map(([label, value]) => `${label}: ${value}`), '', 'View in dashboard: https://dashboard.payline.test/payments'].join('\n')
  const html = layout('Payline', '#364fc7', 'Payment received', `You received a payment of ${eur.format(cents / 100)} from ${payer.company}.`, rows)
  return {
    kind: 'payment-received',
    from: { name: 'Payline', address: 'receipts@payline.test' },
    subject: `You received ${eur.format(cents / 100)} from ${payer.company}`,
    text,
    html,
    labels: ['INBOX', 'Finance'],
  }
}

const SHOP_ITEMS = [
  ['Hand-thrown Ceramic Vase', 4800],
  ['Beeswax Candle Set', 2200],
  ['Linen Tea Towels (2)', 1900],
  ['Dried Flower Bouquet', 3600],
  ['Olive Wood Serving Board', 5400],
] as const

function shopOrder(random: Random, date: Date, seq: number): DemoEmail {
  const customer = person(random)
  const order = `#${1040 + seq}`
  const items = pickSome(random, SHOP_ITEMS, random.int(1, 3)).map(([name, cents]) => ({ name, qty: random.int(1, 2), cents }))
  const subtotal = items.reduce((sum, item) => sum + item.cents * item.qty, 0)
  const shippingMethod = random.pick(['Standard (5–7 days)', 'Express (2 days)', 'Local pickup'])
  const shipping = shippingMethod.startsWith('Express') ? 1500 : shippingMethod.startsWith('Local') ? 0 : 600
  const total = subtotal + shipping
  const totals: [string, string][] = [
    ['Subtotal', money(subtotal)],
    ['Shipping', money(shipping)],
    ['Total', money(total)],
  ]
  const text = [
    `Order ${order} placed by ${customer.first} ${customer.last}`,
    '',
    `Customer email: ${customer.email}`,
    `Shipping method: ${shippingMethod}`,
    '',
    ...items.map((item) => `${item.qty} × ${item.name} — ${money(item.cents * item.qty)}`),
    ...totals.map(([label, value]) => `${label}: ${value}`),
    '',
    `View order: https://admin.shopwise.test/maple-and-moss/orders/${1040 + seq}`,
  ].join('\n')
  const html = layout(
    'Maple & Moss',
    '#5c940d',
    `Order ${order} placed by ${customer.first} ${customer.last}`,
    `${customer.first} just placed an order on your store.`,
    [
      ['Customer email', customer.email],
      ['Shipping method', shippingMethod],
      ['Ship to', `${customer.street}, ${customer.city} ${customer.zip}`],
    ],
    itemsTable(items, totals),
    'Shopwise store notifications for Maple & Moss',
  )
  return {
    kind: 'shop-order',
    from: { name: 'Shopwise', address: 'store+maple-and-moss@shopwise.test' },
    subject: `[Maple & Moss] Order ${order} placed by ${customer.first} ${customer.last}`,
    text,
    html,
    labels: ['INBOX', 'UNREAD', 'Orders'],
  }
}

const ISSUES = [
  ["Can't log in after password reset", 'High'],
  ['Invoice shows the wrong VAT number', 'Normal'],
  ['Export to CSV times out', 'Normal'],
  ['Feature request: dark mode', 'Low'],
  ['Two-factor codes not arriving', 'Urgent'],
] as const

function supportTicket(random: Random, date: Date, seq: number): DemoEmail {
  const requester = person(random)
  const [issue, priority] = random.pick(ISSUES)
  const ticket = 48200 + seq * 3
  const rows: [string, string][] = [
    ['Ticket', `#${ticket}`],
    ['Requester', `${requester.first} ${requester.last} <${requester.email}>`],
    ['Priority', priority],
    ['Subject', issue],
    ['Opened', `${longDate.format(date)} ${timeOfDay.format(date)} UTC`],
  ]
  const description = `Hi, ${issue.toLowerCase()}. This started yesterday afternoon. I've tried clearing my cache. Account: ${requester.company}.`
  const text = [`A new ticket was opened in CloudDesk.`, '', ...rows.map(([label, value]) => `${label}: ${value}`), '', 'Description:', description].join('\n')
  const html = layout('CloudDesk', '#495057', `New ticket #${ticket}: ${issue}`, description, rows)
  return {
    kind: 'support-ticket',
    from: { name: 'CloudDesk', address: 'support@clouddesk.test' },
    subject: `[CloudDesk] New ticket #${ticket}: ${issue}`,
    text,
    html,
    labels: ['INBOX', 'CATEGORY_UPDATES'],
  }
}

const ROUTES = [
  ['SEA', 'Seattle', 'SFO', 'San Francisco'],
  ['JFK', 'New York', 'LHR', 'London'],
  ['ORD', 'Chicago', 'DEN', 'Denver'],
  ['BOS', 'Boston', 'MIA', 'Miami'],
] as const

function flightBooking(random: Random, date: Date): DemoEmail {
  const traveller = person(random)
  const [fromCode, fromCity, toCode, toCity] = random.pick(ROUTES)
  const depart = addDays(date, random.int(10, 60))
  const flight = `SR${random.int(100, 2999)}`
  const pnr = Array.from({ length: 6 }, () => random.pick('ABCDEFGHJKLMNPQRSTUVWXYZ23456789'.split(''))).join('')
  const fare = random.int(8900, 89000)
  const rows: [string, string][] = [
    ['Booking reference', pnr],
    ['Passenger', `${traveller.first} ${traveller.last}`],
    ['Flight', flight],
    ['From', `${fromCity} (${fromCode})`],
    ['To', `${toCity} (${toCode})`],
    ['Departure', `${longDate.format(depart)} ${random.pick(['07:05', '09:40', '13:25', '18:50'])}`],
    ['Fare paid', money(fare)],
  ]
  const text = [`Thank you for booking with SkyRoute, ${traveller.first}.`, '', ...rows.map(([label, value]) => `${label}: ${value}`), '', 'Check in online 24 hours before departure.'].join('\n')
  const html = layout('SkyRoute Airlines', '#1864ab', `Your trip to ${toCity}`, `Thank you for booking with SkyRoute, ${traveller.first}.`, rows)
  return {
    kind: 'flight-booking',
    from: { name: 'SkyRoute Airlines', address: 'no-reply@skyroute.test' },
    subject: `Your SkyRoute booking ${pnr}: ${fromCode} → ${toCode}`,
    text,
    html,
    labels: ['INBOX', 'Travel'],
  }
}

const TEMPLATES = [onlineOrder, invoice, webLead, shippingUpdate, bankAlert, hotelBooking, tableBooking, paymentReceived, shopOrder, supportTicket, flightBooking] as const

/** A deterministic stream of notification emails: same seed, same mailbox. */
export function createDemoEmailGenerator(seed: number) {
  const random = createRandom(seed)
  let count = 0
  return {
    next(date: Date): DemoEmail {
      const template = TEMPLATES[count % TEMPLATES.length]!
      count += 1
      return template(random, date, count)
    },
  }
}

export function demoEmailToRfc822(email: DemoEmail, to: string, date: Date, sequence: number): Buffer {
  const domain = email.from.address.split('@')[1] ?? 'mailrow.test'
  return buildRfc822({
    from: email.from,
    to: { address: to },
    subject: email.subject,
    date,
    messageId: `${date.getTime().toString(36)}.${sequence}.${email.kind}@${domain}`,
    text: email.text,
    html: email.html,
    attachments: email.attachments,
    headers: { 'X-Mailer': `${email.from.name} Notifications` },
  })
}

/** Arrival times for the initial mailbox: spread over the weeks before `now`, newest last. */
export function demoArrivalTimes(count: number, now: number, seed: number, spanDays = 28): Date[] {
  const random = createRandom(seed ^ 0x5eed)
  const times = Array.from({ length: count }, () => now - Math.floor(random.next() * spanDays * 86_400_000) - 60_000)
  return times.sort((a, b) => a - b).map((time) => new Date(time))
}
