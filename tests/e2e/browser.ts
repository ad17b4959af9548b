import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, inject } from 'vitest'

const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
]

/** One Chromium per spec file; each story gets a fresh context (no shared cookies). */
export function useBrowser() {
  let browser: Browser
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: LAUNCH_ARGS,
    })
  })
  afterAll(async () => {
    await browser?.close()
  })
  const baseUrl = inject('baseUrl')
  return {
    baseUrl,
    emulatorUrl: inject('emulatorUrl'),
    async newPage(options: { clientIp?: string; javaScriptEnabled?: boolean; viewport?: { width: number; height: number }; bypassCSP?: boolean } = {}): Promise<Page> {
      const context = await browser.newContext({
        baseURL: baseUrl,
        extraHTTPHeaders: { 'x-forwarded-for': options.clientIp ?? clientIp() },
        javaScriptEnabled: options.javaScriptEnabled ?? true,
        bypassCSP: options.bypassCSP ?? false,
        ...(options.viewport ? { viewport: options.viewport } : {}),
      })
      const page = await context.newPage()
      page.setDefaultTimeout(15_000)
      return page
    },
  }
}

/** A fresh client address (benchmark range 198.18.0.0/15) per story: rate limits count per client. */
export function clientIp() {
  const octet = (n: number) => Math.floor(Math.random() * n)
  return `198.${18 + octet(2)}.${octet(256)}.${1 + octet(254)}`
}

let counter = 0
/** A unique email per story, so stories never collide. */
export function uniqueEmail(label: string) {
  counter += 1
  return `${label}.${Date.now().toString(36)}${counter}@example.com`
}

export const PASSWORD = 'Sunny-Meadow42'

/** The toast with this title, as the user sees it. */
export function toast(page: Page, title: string) {
  return page.locator('[data-sonner-toast]').filter({ hasText: title }).first()
}

/**
 * Signs a user up through the API and confirms the address from the development outbox, as the
 * user would from their inbox (faster than the form when the story is about something else).
 */
export async function signUpViaApi(baseUrl: string, email: string, password = PASSWORD) {
  const response = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl, 'x-forwarded-for': clientIp() },
    body: JSON.stringify({ email, password, name: email.split('@')[0] }),
  })
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`)
  const confirm = await fetch(await confirmationLinkFromOutbox(baseUrl, email), { redirect: 'manual', headers: { 'x-forwarded-for': clientIp() } })
  if (confirm.status !== 302) throw new Error(`confirmation failed: ${confirm.status} ${await confirm.text()}`)
}

/** The newest confirmation link for this address in the development outbox (read as a local caller). */
export async function confirmationLinkFromOutbox(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/dev/outbox`, { headers: { 'x-forwarded-for': '127.0.0.1' } })
  if (!response.ok) throw new Error(`outbox: ${response.status}`)
  const { messages } = (await response.json()) as { messages: Array<{ to: string; subject: string; text: string }> }
  const mail = messages.find((m) => m.to === email.toLowerCase() && m.subject === 'Confirm your Mailrow email address')
  const link = mail?.text.match(/https?:\/\/\S+/)?.[0]
  if (!link) throw new Error(`no confirmation mail for ${email}`)
  return link
}

/** Signs in through the login form and waits for the dashboard. */
export async function signInViaForm(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
}

/**
 * Waits for a navigation to `path`. Longer than the page's 15 s default: a navigation waits on the
 * server, which on a shared two-core machine may be busy with an earlier story's emails (a sign-in
 * once took over 15 s in a full CI run and passed alone, twice).
 */
export async function waitForPath(page: Page, path: string) {
  await page.waitForURL((url) => url.pathname === path, { timeout: 45_000 })
}

/** The emulator's consent page, as Google's would be: pick the account, grant every scope, Allow. */
export async function grantOnConsentPage(page: Page, emulatorUrl: string, account = 'demo@mailrow.test') {
  await page.waitForURL((url) => url.href.startsWith(emulatorUrl))
  await page.getByLabel(new RegExp(account.replace(/[.@]/g, '\\$&'))).check()
  for (const box of await page.locator('input[name=scope]').all()) await box.check()
  await page.getByRole('button', { name: 'Allow' }).click()
}

/** Connects the demo Gmail account from wizard step 1, as a user would. */
export async function connectDemoGmail(page: Page, emulatorUrl: string) {
  await page.goto('/create-parser')
  await page.getByRole('button', { name: 'Connect Gmail Account' }).click()
  await grantOnConsentPage(page, emulatorUrl)
  await toast(page, 'Gmail connected successfully!').waitFor()
}

/** Delivers a raw email to the demo mailbox that every story shares; returns its Gmail id. */
export async function deliverToDemoMailbox(emulatorUrl: string, raw: string): Promise<string> {
  const response = await fetch(`${emulatorUrl}/_control/mailboxes/demo@mailrow.test/messages`, { method: 'POST', headers: { 'content-type': 'message/rfc822' }, body: raw })
  return ((await response.json()) as { id: string }).id
}
