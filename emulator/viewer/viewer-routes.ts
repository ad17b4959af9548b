import { Hono, type Context } from 'hono'
import { findPart } from '../gmail/message-format'
import type { EmulatorEnv } from '../http/context'
import { escapeHtml, htmlPage, pageSecurityHeaders } from '../http/html'
import { columnToLetters } from '../sheets/a1-notation'
import { snapshotValues } from '../sheets/spreadsheet-store'
import type { EmulatorState } from '../state'

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })

function page(c: Context, title: string, body: string, status = 200) {
  return c.html(htmlPage(title, body), status as 200, pageSecurityHeaders())
}

function notFoundPage(c: Context, what: string) {
  return page(c, 'Not found', `<h1>Not found</h1><p>${escapeHtml(what)}</p><p><a href="/">Back to the emulator</a></p>`, 404)
}

const encodePath = (value: string) => encodeURIComponent(value)

export function viewerRoutes(state: EmulatorState) {
  const app = new Hono<EmulatorEnv>()

  app.get('/', (c) => {
    const mailboxes = state.mail
      .list()
      .map(
        (mailbox) =>
          `<li><a href="/mail/${encodePath(mailbox.account.email)}">${escapeHtml(mailbox.account.email)}</a> <span class="muted">${mailbox.messages.size} messages</span></li>`,
      )
      .join('')
    const sheets = state.sheets
      .list()
      .map(
        (sheet) =>
          `<li><a href="/sheets/${encodePath(sheet.id)}">${escapeHtml(sheet.properties.title)}</a> <span class="muted">${escapeHtml(sheet.owner)}</span></li>`,
      )
      .join('')
    return page(
      c,
      'Google emulator',
      `<h1>Google emulator</h1>
<p class="muted">OAuth 2.0 at <code>/o/oauth2/v2/auth</code> and <code>/token</code>, Gmail v1 at <code>/gmail/v1</code>, Sheets v4 at <code>/v4/spreadsheets</code>, control API at <code>/_control</code>.</p>
<h2>Mailboxes</h2><ul>${mailboxes || '<li class="muted">none</li>'}</ul>
<h2>Spreadsheets</h2><ul>${sheets || '<li class="muted">none yet</li>'}</ul>`,
    )
  })

  app.get('/mail/:email', (c) => {
    const mailbox = state.mail.find(c.req.param('email'))
    if (!mailbox) return notFoundPage(c, 'No such mailbox.')
    const email = mailbox.account.email
    const rows = state.mail
      .sortedMessages(mailbox)
      .map((message) => {
        const from = message.from[0]
        const sender = from ? from.name || from.address : ''
        const unread = message.labelIds.includes('UNREAD')
        const labels = state.mail
          .labelsOf(mailbox, message)
          .filter((label) => !['INBOX', 'UNREAD'].includes(label.id))
          .map((label) => escapeHtml(label.name))
          .join(', ')
        return `<tr${unread ? ' style="font-weight:600"' : ''}><td>${escapeHtml(dateFormat.format(message.internalDate))}</td><td>${escapeHtml(sender)}</td><td><a href="/mail/${encodePath(
          email,
        )}/${encodePath(message.id)}">${escapeHtml(message.subject || '(no subject)')}</a></td><td class="muted">${labels}</td></tr>`
      })
      .join('\n')
    return page(
      c,
      `Mailbox ${email}`,
      `<p><a href="/">Emulator</a> › ${escapeHtml(email)}</p>
<h1>${escapeHtml(mailbox.account.name)} &lt;${escapeHtml(email)}&gt;</h1>
<p class="muted">${mailbox.messages.size} messages · historyId ${mailbox.historyId}</p>
<table><thead><tr><th>Date (UTC)</th><th>From</th><th>Subject</th><th>Labels</th></tr></thead><tbody>${rows}</tbody></table>`,
    )
  })

  app.get('/mail/:email/:id', (c) => {
    const mailbox = state.mail.find(c.req.param('email'))
    const message = mailbox?.messages.get(c.req.param('id'))
    if (!mailbox || !message) return notFoundPage(c, 'No such message.')
    const email = mailbox.account.email
    const header = (name: string) => message.tree.headers.find((entry) => entry.name.toLowerCase() === name)?.value ?? ''
    const attachments: string[] = []
    const collect = (node: typeof message.tree) => {
      if (!node.isMultipart && node.filename) {
        attachments.push(
          `<li><a href="/mail/${encodePath(email)}/${encodePath(message.id)}/parts/${encodePath(node.partId)}">${escapeHtml(node.filename)}</a> <span class="muted">${escapeHtml(node.mimeType)}, ${node.body.length} bytes</span></li>`,
        )
      }
      node.parts.forEach(collect)
    }
    collect(message.tree)
    // The message's own HTML runs in an iframe without allow-scripts, under this page's no-script CSP.
    const htmlView = message.html
      ? `<h2>HTML</h2><iframe sandbox="" referrerpolicy="no-referrer" srcdoc="${escapeHtml(message.html)}" style="width:100%;height:600px;border:1px solid #dadce0;background:#fff"></iframe>`
      : ''
    const textView = message.text ? `<h2>Text</h2><pre>${escapeHtml(message.text)}</pre>` : ''
    return page(
      c,
      message.subject || 'Message',
      `<p><a href="/">Emulator</a> › <a href="/mail/${encodePath(email)}">${escapeHtml(email)}</a></p>
<h1>${escapeHtml(message.subject || '(no subject)')}</h1>
<table>
<tr><th>From</th><td>${escapeHtml(header('from'))}</td></tr>
<tr><th>To</th><td>${escapeHtml(header('to'))}</td></tr>
<tr><th>Date</th><td>${escapeHtml(header('date'))}</td></tr>
<tr><th>Gmail id</th><td><code>${escapeHtml(message.id)}</code> (thread <code>${escapeHtml(message.threadId)}</code>)</td></tr>
<tr><th>Labels</th><td>${escapeHtml(state.mail.labelsOf(mailbox, message).map((label) => label.name).join(', '))}</td></tr>
</table>
${attachments.length ? `<h2>Attachments</h2><ul>${attachments.join('')}</ul>` : ''}
${textView}
${htmlView}
<p><a href="/mail/${encodePath(email)}/${encodePath(message.id)}/raw">View raw RFC 822</a></p>`,
    )
  })

  app.get('/mail/:email/:id/raw', (c) => {
    const message = state.mail.find(c.req.param('email'))?.messages.get(c.req.param('id'))
    if (!message) return notFoundPage(c, 'No such message.')
    return c.body(message.raw.toString('utf8'), 200, { 'Content-Type': 'text/plain; charset=utf-8', ...pageSecurityHeaders() })
  })

  app.get('/mail/:email/:id/parts/:partId', (c) => {
    const message = state.mail.find(c.req.param('email'))?.messages.get(c.req.param('id'))
    const part = message ? findPart(message.tree, c.req.param('partId')) : undefined
    if (!part || part.isMultipart) return notFoundPage(c, 'No such attachment.')
    const filename = (part.filename || 'attachment').replace(/["\r\n\\]/g, '_')
    return c.body(new Uint8Array(part.body), 200, {
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': `attachment; filename="${filename}"`,
      ...pageSecurityHeaders(),
    })
  })

  app.get('/sheets/:id', (c) => {
    const spreadsheet = state.sheets.find(c.req.param('id'))
    if (!spreadsheet) return notFoundPage(c, 'No such spreadsheet.')
    const sheets = snapshotValues(spreadsheet)
    const gid = c.req.query('gid')
    const current = sheets.find((sheet) => String(sheet.sheetId) === gid) ?? sheets[0]!
    const tabs = sheets
      .map((sheet) =>
        sheet === current
          ? `<strong class="tab">${escapeHtml(sheet.title)}</strong>`
          : `<a class="tab" href="/sheets/${encodePath(spreadsheet.id)}?gid=${sheet.sheetId}">${escapeHtml(sheet.title)}</a>`,
      )
      .join(' ')
    const width = Math.max(1, ...current.values.map((row) => row.length))
    const head = `<tr><th></th>${Array.from({ length: width }, (_, index) => `<th>${columnToLetters(index)}</th>`).join('')}</tr>`
    const rows = current.values
      .map((row, rowIndex) => {
        const frozen = rowIndex < current.frozenRowCount
        const cells = Array.from({ length: width }, (_, col) => {
          const value = row[col]
          const text = value === undefined ? '' : String(value)
          return frozen ? `<th>${escapeHtml(text)}</th>` : `<td>${escapeHtml(text)}</td>`
        }).join('')
        return `<tr><th class="muted">${rowIndex + 1}</th>${cells}</tr>`
      })
      .join('\n')
    return page(
      c,
      spreadsheet.properties.title,
      `<p><a href="/">Emulator</a> › Spreadsheet</p>
<h1>${escapeHtml(spreadsheet.properties.title)}</h1>
<p class="muted">Owner ${escapeHtml(spreadsheet.owner)} · id <code>${escapeHtml(spreadsheet.id)}</code></p>
<nav class="tabs" style="margin:12px 0;display:flex;gap:12px">${tabs}</nav>
<table>${head}${rows || `<tr><td colspan="${width + 1}" class="muted">This sheet is empty.</td></tr>`}</table>`,
    )
  })

  // Google's own spreadsheet URL shape, so links copied from an app resolve here too.
  app.get('/spreadsheets/d/:id', (c) => c.redirect(`/sheets/${encodePath(c.req.param('id'))}`, 302))
  app.get('/spreadsheets/d/:id/*', (c) => c.redirect(`/sheets/${encodePath(c.req.param('id'))}`, 302))

  return app
}
