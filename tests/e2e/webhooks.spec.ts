import { inject, describe, expect, it, afterAll, beforeAll } from 'vitest'
import { startWebhookReceiver, verifyStandardWebhook, type WebhookReceiver } from '../../src/server/testing/webhook-receiver'
import { signInViaForm, signUpViaApi, uniqueEmail, useBrowser, waitForPath } from './browser'

const { newPage, baseUrl } = useBrowser()

let receiver: WebhookReceiver
beforeAll(async () => {
  receiver = await startWebhookReceiver()
  receiver.respondWith(() => ({ status: 200, body: 'received by the story receiver' }))
})
afterAll(async () => {
  await receiver.close()
})

/** What `npm run mailrow -- set-plan EMAIL PLAN` does, through the running server. */
async function setPlan(email: string, plan: 'free' | 'pro') {
  const response = await fetch(`${baseUrl}/api/admin/plan`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${inject('adminToken')}` },
    body: JSON.stringify({ email, plan }),
  })
  expect(response.status).toBe(200)
}

async function signedIn(label: string, plan: 'free' | 'pro') {
  const email = uniqueEmail(label)
  await signUpViaApi(baseUrl, email)
  await setPlan(email, plan)
  const page = await newPage()
  await signInViaForm(page, email)
  await waitForPath(page, '/dashboard')
  return page
}

describe('webhooks', () => {
  it('user on Pro adds a webhook, sends a test event and sees it in the delivery log', async () => {
    const page = await signedIn('webhooks', 'pro')
    await page.goto('/settings#webhooks')
    const section = page.getByRole('region', { name: 'Webhooks' })
    await section.getByRole('button', { name: 'Add webhook' }).click()

    const dialog = page.getByRole('dialog', { name: 'Add webhook' })
    await dialog.getByLabel('Endpoint URL').fill(`${receiver.url}/mailrow`)
    await dialog.getByLabel('Description (optional)').fill('Story receiver')
    await dialog.getByRole('button', { name: 'Add webhook' }).click()
    const added = page.getByRole('dialog', { name: 'Webhook added' })
    const secret = (await added.getByTestId('webhook-secret').textContent())!
    expect(secret).toMatch(/^whsec_/)
    await added.getByRole('button', { name: 'Done' }).click()

    const webhook = section.getByRole('article', { name: `Webhook ${receiver.url}/mailrow` })
    await webhook.getByRole('button', { name: 'Send test event' }).click()
    const log = webhook.getByRole('table', { name: 'Delivery log' })
    const row = log.getByRole('row').filter({ hasText: 'webhook.test' })
    await row.getByText('Delivered').waitFor()
    await row.getByText('HTTP 200').waitFor()
    await row.getByText('received by the story receiver').waitFor()

    // The receiver got one request, and its signature checks out with the secret the page showed.
    expect(receiver.received).toHaveLength(1)
    expect(verifyStandardWebhook(secret, receiver.received[0]!)).toBe(true)
    expect(JSON.parse(receiver.received[0]!.body).type).toBe('webhook.test')
  })

  it('user on the free plan sees webhooks locked with the upgrade action', async () => {
    const page = await signedIn('webhooks-free', 'free')
    await page.goto('/settings#webhooks')
    const section = page.getByRole('region', { name: 'Webhooks' })
    await section.getByText('Webhooks require Pro plan. Please upgrade to use this feature.').waitFor()
    expect(await section.getByRole('button', { name: 'Add webhook' }).count()).toBe(0)
    await section.getByRole('link', { name: 'Upgrade Now' }).click()
    await page.waitForURL((url) => url.hash === '#plan')
  })
})
