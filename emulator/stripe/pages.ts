import { Hono } from 'hono'
import { escapeHtml, pageSecurityHeaders } from '../http/html'
import { TEST_CARDS, type StripeStore } from './stripe-store'

const money = (cents: number, currency: string) => `${currency === 'usd' ? '$' : `${currency.toUpperCase()} `}${(cents / 100).toFixed(2)}`
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10)

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  :root { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1f36; }
  body { margin: 0; background: #f6f9fc; }
  header { background: #635bff; color: #fff; padding: 12px 24px; font-size: 14px; }
  main { max-width: 560px; margin: 32px auto; padding: 0 16px; }
  .card { background: #fff; border: 1px solid #e3e8ee; border-radius: 8px; padding: 24px; margin-bottom: 16px; }
  label { display: block; font-size: 14px; margin: 12px 0 4px; }
  input, select { font: inherit; width: 100%; box-sizing: border-box; padding: 8px 10px; border: 1px solid #cfd7df; border-radius: 6px; }
  button { font: inherit; margin-top: 16px; padding: 10px 18px; border-radius: 6px; border: 1px solid #635bff; background: #635bff; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #635bff; }
  .muted { color: #697386; font-size: 13px; }
  .error { color: #df1b41; font-weight: 500; }
  table { width: 100%; border-collapse: collapse; font-size: 14px; }
  td, th { text-align: left; padding: 6px 4px; border-bottom: 1px solid #e3e8ee; }
  .row { display: flex; gap: 12px; } .row > div { flex: 1; }
</style>
</head>
<body>
<header><strong>Stripe emulator</strong> · test mode · Mailrow's local stand-in for Stripe</header>
<main>
${body}
</main>
</body>
</html>`
}

/** The hosted Checkout and Billing Portal pages, as plain server-rendered forms. */
export function stripePageRoutes(store: StripeStore, options: { afterAction: () => Promise<void> }) {
  const html = (body: string, status: 200 | 400 | 402 | 404 = 200) => new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8', ...pageSecurityHeaders() } })

  function checkoutPage(sessionId: string, error?: string, status: 200 | 402 = 200) {
    const session = store.getCheckoutSession(sessionId)
    const price = store.getPrice(session.price)
    const email = store.getCustomer(session.customer).email ?? ''
    if (session.status !== 'open') return html(page('Checkout', `<div class="card"><h1>This checkout session has ended.</h1><p><a href="${escapeHtml(session.cancelUrl)}">Return</a></p></div>`), 400)
    return html(
      page(
        'Checkout',
        `<div class="card">
  <p class="muted">Subscribe to</p>
  <h1>${escapeHtml(price.nickname ?? price.id)}</h1>
  <p><strong>${money(price.unit_amount, price.currency)}</strong> per month</p>
  <p class="muted">${escapeHtml(email)}</p>
</div>
<form class="card" method="post" action="/c/pay/${escapeHtml(session.id)}">
  <h2>Pay with card</h2>
  ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
  <label for="card">Card number</label>
  <input id="card" name="card" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required>
  <div class="row">
    <div><label for="exp">Expiry</label><input id="exp" name="exp" placeholder="MM / YY" value="12 / 34"></div>
    <div><label for="cvc">CVC</label><input id="cvc" name="cvc" placeholder="CVC" value="123"></div>
  </div>
  <button type="submit">Subscribe</button>
  <p class="muted">Test cards: ${TEST_CARDS.ok} succeeds, ${TEST_CARDS.declined} is declined.</p>
</form>
<p><a href="${escapeHtml(session.cancelUrl)}">← Back</a></p>`,
      ),
      status,
    )
  }

  function portalPage(sessionId: string, notice?: string, status: 200 | 402 = 200) {
    const session = store.getPortalSession(sessionId)
    const customer = store.getCustomer(session.customer)
    const card = store.card(session.customer)
    const subs = store.listSubscriptions({ customer: session.customer })
    const prices = store.listPrices()
    const action = (path: string) => `/p/session/${escapeHtml(session.id)}/${path}`
    const subscriptionCards = subs
      .map((sub) => {
        const item = sub.items.data[0]!
        const price = item.price!
        const ends = sub.cancel_at_period_end
        return `<section class="card" aria-label="Current plan">
  <h2>Current plan: ${escapeHtml(price.nickname ?? price.id)}</h2>
  <p>${money(price.unit_amount, price.currency)} per month · <span data-status>${escapeHtml(sub.status)}</span></p>
  <p>${ends ? `Your plan will be canceled on ${day(item.current_period_end)}.` : `Your plan renews on ${day(item.current_period_end)}.`}</p>
  ${
    ends
      ? `<form method="post" action="${action('resume')}"><input type="hidden" name="subscription" value="${sub.id}"><button type="submit">Renew plan</button></form>`
      : `<form method="post" action="${action('cancel')}"><input type="hidden" name="subscription" value="${sub.id}"><button type="submit" class="secondary">Cancel plan</button></form>`
  }
  <form method="post" action="${action('switch')}">
    <input type="hidden" name="subscription" value="${sub.id}">
    <label for="price">Change plan</label>
    <select id="price" name="price">${prices.map((p) => `<option value="${p.id}"${p.id === price.id ? ' selected' : ''}>${escapeHtml(p.nickname ?? p.id)} (${money(p.unit_amount, p.currency)}/month)</option>`).join('')}</select>
    <button type="submit" class="secondary">Update plan</button>
  </form>
</section>`
      })
      .join('')
    const invoices = store.listInvoices({ customer: session.customer })
    return html(
      page(
        'Billing',
        `<p><a href="${escapeHtml(session.returnUrl)}">← Return to Mailrow</a></p>
<h1>Billing for ${escapeHtml(customer.email ?? customer.id)}</h1>
${notice ? `<p class="${status === 402 ? 'error' : 'muted'}" role="status">${escapeHtml(notice)}</p>` : ''}
${subscriptionCards || '<div class="card"><p>No active subscription.</p></div>'}
<form class="card" method="post" action="${action('card')}">
  <h2>Payment method</h2>
  <p>${card ? `Card ending in ${card.last4}` : 'No card on file.'}</p>
  <label for="card">New card number</label>
  <input id="card" name="card" inputmode="numeric" placeholder="4242 4242 4242 4242" required>
  <button type="submit" class="secondary">Update card</button>
</form>
<section class="card"><h2>Invoice history</h2>
<table><thead><tr><th>Date</th><th>Amount</th><th>Status</th><th></th></tr></thead><tbody>
${invoices.map((inv) => `<tr><td>${day(inv.created)}</td><td>${money(inv.amount_due, inv.currency)}</td><td>${inv.status}</td><td><a href="${escapeHtml(inv.hosted_invoice_url)}">View</a></td></tr>`).join('')}
</tbody></table></section>`,
      ),
      status,
    )
  }

  const formOf = async (request: Request) => new URLSearchParams(await request.text())

  /** The subscription named by a portal form, only if it belongs to the session's customer. */
  const ownSubscription = (sessionId: string, subscriptionId: string | null) => {
    const session = store.getPortalSession(sessionId)
    const sub = store.listSubscriptions({ customer: session.customer, status: 'all' }).find((s) => s.id === subscriptionId)
    return sub ?? null
  }

  return new Hono()
    .get('/c/pay/:id', (c) => checkoutPage(c.req.param('id')))
    .post('/c/pay/:id', async (c) => {
      const form = await formOf(c.req.raw)
      const result = store.payCheckoutSession(c.req.param('id'), form.get('card') ?? '')
      if (!result.ok) return checkoutPage(c.req.param('id'), result.message, 402)
      await options.afterAction()
      return c.redirect(result.redirect, 303)
    })
    .get('/p/session/:id', (c) => portalPage(c.req.param('id')))
    .post('/p/session/:id/:action', async (c) => {
      const sessionId = c.req.param('id')
      const form = await formOf(c.req.raw)
      const action = c.req.param('action')
      if (action === 'card') {
        const result = store.updateCard(store.getPortalSession(sessionId).customer, form.get('card') ?? '')
        if (!result.ok) return portalPage(sessionId, result.message, 402)
      } else {
        const sub = ownSubscription(sessionId, form.get('subscription'))
        if (!sub) return portalPage(sessionId, 'That subscription was not found.', 402)
        if (action === 'cancel') store.updateSubscription(sub.id, { cancelAtPeriodEnd: true })
        else if (action === 'resume') store.updateSubscription(sub.id, { cancelAtPeriodEnd: false })
        else if (action === 'switch') store.updateSubscription(sub.id, { price: form.get('price') ?? '' })
        else return html(page('Not found', '<p>Unknown action.</p>'), 404)
      }
      await options.afterAction()
      return c.redirect(`/p/session/${sessionId}`, 303)
    })
    .get('/invoices/:id', (c) => {
      const inv = store.getInvoice(c.req.param('id'))
      return html(
        page(
          `Invoice ${inv.number}`,
          `<div class="card"><h1>Invoice ${escapeHtml(inv.number)}</h1><p>${money(inv.amount_due, inv.currency)} · ${inv.status}</p><p class="muted">Period ${day(inv.period_start)} – ${day(inv.period_end)}</p></div>`,
        ),
      )
    })
    .get('/invoices/:id/pdf', (c) => {
      const inv = store.getInvoice(c.req.param('id'))
      return c.text(`Invoice ${inv.number}\nAmount: ${money(inv.amount_due, inv.currency)}\nStatus: ${inv.status}\n`)
    })
}
