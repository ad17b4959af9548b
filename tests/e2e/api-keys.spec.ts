import { describe, expect, it } from 'vitest'
import { API_PLAN_MESSAGE } from '../../src/shared/contracts/api'
import { clientIp, signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'
import { setPlanAsOperator } from './operator'

const { newPage, baseUrl } = useBrowser()

function callApi(key: string, path = '/usage') {
  return fetch(`${baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': clientIp() } })
}

describe('API keys', () => {
  it('a free user sees the section locked with the upgrade action; on Pro they create a key (seen once), call the API with it, revoke it, and the next call gets 401', async () => {
    const email = uniqueEmail('apikeys')
    await signUpViaApi(baseUrl, email)
    const page = await newPage()
    await signInViaForm(page, email)
    await waitForPath(page, '/dashboard')

    await page.goto('/settings#api-keys')
    const section = page.getByRole('region', { name: 'API keys' })
    await section.getByText(API_PLAN_MESSAGE).waitFor()
    expect(await section.getByRole('button', { name: 'Create key' }).count()).toBe(0)
    // Billing is on in the demo: Upgrade Now goes to (the emulator's) Stripe Checkout for Pro.
    await section.getByRole('button', { name: 'Upgrade Now' }).click()
    await page.waitForURL((url) => url.pathname.startsWith('/c/pay/'))

    await setPlanAsOperator(baseUrl, email, 'pro')
    await page.goto('/settings#api-keys')
    await section.getByText('No API keys yet.').waitFor()
    await section.getByLabel('Key name').fill('Nightly export')
    await section.getByRole('button', { name: 'Create key' }).click()
    const shown = section.getByTestId('new-api-key')
    await shown.waitFor()
    const key = (await shown.textContent())!.trim()
    expect(key).toMatch(/^mrw_[A-Za-z0-9_-]{43}$/)
    await section.getByText("Copy it now: it won't be shown again.").waitFor()
    const listed = section.getByRole('list', { name: 'API keys' }).getByRole('listitem').filter({ hasText: 'Nightly export' })
    await listed.getByText('never used').waitFor()

    // Shown once: after Done, and after a reload, the key is nowhere on the page.
    await section.getByRole('button', { name: 'Done' }).click()
    await shown.waitFor({ state: 'detached' })
    await page.reload()
    await listed.waitFor()
    expect(await page.content()).not.toContain(key.slice(8))

    const usage = await callApi(key)
    expect(usage.status).toBe(200)
    expect((await usage.json()).usage).toMatchObject({ used: 0, limit: 5000 })
    expect(usage.headers.get('ratelimit-remaining')).toEqual(expect.any(String))
    await page.reload()
    await listed.getByText('last used', { exact: false }).waitFor()

    await listed.getByRole('button', { name: 'Revoke Nightly export' }).click()
    await toast(page, 'API key "Nightly export" revoked').waitFor()
    await section.getByText('No API keys yet.').waitFor()
    const refused = await callApi(key)
    expect(refused.status).toBe(401)
    expect((await refused.json()).error.code).toBe('UNAUTHORIZED')
  })

  it('the API reference at /docs/api lists the operations and tries one', async () => {
    const page = await newPage()
    await page.goto('/docs/api')
    await page.getByRole('heading', { name: 'Mailrow API reference' }).waitFor()
    await page.getByRole('heading', { name: 'Submit an email to a parser' }).waitFor()
    const usage = page.getByRole('article', { name: "This month's usage" })
    await usage.getByRole('button', { name: 'Try it' }).click()
    await usage.getByTestId('getUsage-status').waitFor()
    expect(await usage.getByTestId('getUsage-status').textContent()).toBe('401')
  })
})
