import { escapeHtml, htmlPage } from '../http/html'
import type { AccountInfo, OAuthClient, PendingAuthorization } from './oauth-store'
import { isIdentityScope } from './oauth-store'
import { describeScope } from './scopes'

export function renderConsentPage(input: {
  pending: PendingAuthorization
  client: OAuthClient
  accounts: AccountInfo[]
  selectedEmail: string | undefined
  error?: string
  nonce: string
}): string {
  const { pending, client, accounts } = input
  const appName = client.name ?? client.clientId
  const hinted = accounts.find((account) => account.email === pending.loginHint)?.email
  const selected = input.selectedEmail ?? hinted ?? accounts[0]?.email
  const identity = pending.scopes.filter(isIdentityScope)
  const optional = pending.scopes.filter((scope) => !isIdentityScope(scope))
  const accountList = accounts.length
    ? accounts
        .map(
          (account) => `<label class="account"><input type="radio" name="account" value="${escapeHtml(account.email)}"${
            account.email === selected ? ' checked' : ''
          }> <span><strong>${escapeHtml(account.name)}</strong><br><span class="muted">${escapeHtml(account.email)}</span></span></label>`,
        )
        .join('\n')
    : '<p class="error">No mailbox accounts exist. Create one with POST /_control/mailboxes.</p>'
  const identityList = identity.length
    ? `<ul class="identity">${identity.map((scope) => `<li>${escapeHtml(describeScope(scope))}</li>`).join('')}</ul>`
    : ''
  const optionalList = optional.length
    ? `<fieldset class="scopes"><legend>Select what <strong>${escapeHtml(appName)}</strong> can access</legend>
<label class="scope all"><input type="checkbox" id="select-all"> <span>Select all</span></label>
${optional
  .map(
    (scope) => `<label class="scope"><input type="checkbox" name="scope" value="${escapeHtml(scope)}"> <span>${escapeHtml(
      describeScope(scope),
    )}<br><code class="muted">${escapeHtml(scope)}</code></span></label>`,
  )
  .join('\n')}
</fieldset>`
    : ''
  const body = `<div class="card consent">
<h1>Sign in to continue to ${escapeHtml(appName)}</h1>
${input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : ''}
<form method="post" action="/o/oauth2/v2/auth/consent">
<input type="hidden" name="request" value="${escapeHtml(pending.id)}">
<fieldset class="accounts"><legend>Choose an account</legend>
${accountList}
</fieldset>
${identity.length ? `<p><strong>${escapeHtml(appName)}</strong> will be able to:</p>${identityList}` : ''}
${optionalList}
<p class="muted">Redirects to <code>${escapeHtml(pending.redirectUri)}</code>. This is the Mailrow Google emulator; no real Google account is involved.</p>
<div class="actions">
<button type="submit" name="action" value="deny">Deny</button>
<button type="submit" name="action" value="allow" class="primary">Allow</button>
</div>
</form>
</div>
<script nonce="${input.nonce}">
const all = document.getElementById('select-all')
const boxes = [...document.querySelectorAll('input[name=scope]')]
if (all) {
  all.addEventListener('change', () => boxes.forEach((box) => (box.checked = all.checked)))
  boxes.forEach((box) => box.addEventListener('change', () => (all.checked = boxes.every((b) => b.checked))))
}
</script>`
  const style = `<style>
.consent { max-width: 560px; margin: 24px auto; }
fieldset { border: 1px solid #dadce0; border-radius: 8px; margin: 16px 0; padding: 8px 16px; }
legend { padding: 0 6px; font-size: 14px; }
label.account, label.scope { display: flex; gap: 12px; align-items: flex-start; padding: 8px 0; border-bottom: 1px solid #f1f3f4; }
label.scope:last-child, label.account:last-child { border-bottom: 0; }
.actions { display: flex; justify-content: flex-end; gap: 12px; margin-top: 16px; }
ul.identity { margin: 4px 0 0; }
</style>`
  return htmlPage(`Sign in - ${appName}`, body, style)
}

export function renderOAuthErrorPage(input: { status: number; error: string; detail: string }): string {
  return htmlPage(
    `Error ${input.status}: ${input.error}`,
    `<div class="card" style="max-width:560px;margin:24px auto">
<h1>Access blocked: this request is invalid</h1>
<p class="error"><strong>Error ${input.status}: ${escapeHtml(input.error)}</strong></p>
<p>${escapeHtml(input.detail)}</p>
</div>`,
  )
}
