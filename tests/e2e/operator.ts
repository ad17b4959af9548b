import { createHmac } from 'node:crypto'

/** The app secret of the e2e server, so stories can act as the operator (set a user's plan). */
export const E2E_APP_SECRET = 'e2e-app-secret-that-is-long-enough-0123456789'

/** What `npm run mailrow -- set-plan EMAIL PLAN` does, through the operator's endpoint. */
export async function setPlanAsOperator(baseUrl: string, email: string, plan: 'free' | 'starter' | 'pro') {
  const token = createHmac('sha256', E2E_APP_SECRET).update('mailrow-admin-v1').digest('base64url')
  const response = await fetch(`${baseUrl}/api/admin/plan`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, plan }),
  })
  if (!response.ok) throw new Error(`set-plan failed: ${response.status} ${await response.text()}`)
}
