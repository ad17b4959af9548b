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
    async newPage(options: { clientIp?: string } = {}): Promise<Page> {
      const context = await browser.newContext({ baseURL: baseUrl, extraHTTPHeaders: { 'x-forwarded-for': options.clientIp ?? clientIp() } })
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

/** Signs a user up through the API (faster than the form when the story is about something else). */
export async function signUpViaApi(baseUrl: string, email: string, password = PASSWORD) {
  const response = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl, 'x-forwarded-for': clientIp() },
    body: JSON.stringify({ email, password, name: email.split('@')[0] }),
  })
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`)
}

/** Signs in through the login form and waits for the dashboard. */
export async function signInViaForm(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign In', exact: true }).click()
}

export async function waitForPath(page: Page, path: string) {
  await page.waitForURL((url) => url.pathname === path)
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
