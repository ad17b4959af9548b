import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { describe, expect, it, onTestFinished } from 'vitest'
import { highlightCell } from './email-frame'
import { connectDemoGmail, deliverToDemoMailbox, PASSWORD, signInViaForm, signUpViaApi, uniqueEmail, useBrowser, waitForPath } from './browser'

const { newPage, baseUrl, emulatorUrl } = useBrowser()

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
/** WCAG 2.0, 2.1 and 2.2, levels A and AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: '390 px', width: 390, height: 844 },
] as const
const NORTHWIND = 'orders@northwind-outfitters.test'

type AxeResult = { violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }

/** What one audit found, as lines a reader can act on (empty when clean). */
async function audit(page: Page, where: string, width: number): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource })
  const result = await page.evaluate(
    (tags) => (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResult> } }).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }),
    WCAG_TAGS,
  )
  const problems = result.violations.map(
    (violation) =>
      `${where}: ${violation.id} (${violation.impact}) ${violation.help}\n` +
      violation.nodes.map((node) => `      ${node.target.join(' ')}\n        ${(node.failureSummary ?? '').replace(/\n/g, '\n        ')}`).join('\n'),
  )
  if (width < 500) {
    const overflow = await page.evaluate(() => {
      const { scrollWidth } = document.documentElement
      if (scrollWidth <= window.innerWidth) return null
      const wide = [...document.querySelectorAll('body *')]
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 3)
        .map((element) => `<${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}">`)
      return `scrollWidth ${scrollWidth} > innerWidth ${window.innerWidth}; past the edge: ${wide.join(', ')}`
    })
    if (overflow) problems.push(`${where}: horizontal scroll: ${overflow}`)
  }
  return problems
}

/** The page is drawn: the session check is over and the data requests have settled. */
async function settled(page: Page) {
  await page.waitForFunction(() => document.querySelector('main, [role=main]') && !document.querySelector('[aria-label="Checking your session"]'))
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined)
}

type Visit = { path: string; ready?: (page: Page) => Promise<unknown>; then?: (page: Page) => Promise<string[]> }

/** Visits each page at each width; audits it; returns the problems and each path's title. */
async function auditPages(page: Page, visits: Visit[], titles: Map<string, string>): Promise<string[]> {
  const problems: string[] = []
  for (const { name, width, height } of WIDTHS) {
    await page.setViewportSize({ width, height })
    for (const visit of visits) {
      await page.goto(visit.path)
      await settled(page)
      await visit.ready?.(page)
      const where = `${visit.path} at ${name}`
      problems.push(...(await audit(page, where, width)))
      titles.set(new URL(page.url()).pathname, await page.title())
      if (visit.then) problems.push(...(await visit.then(page)).map((problem) => `${where}, ${problem}`))
    }
  }
  return problems
}

function report(problems: string[]) {
  if (problems.length > 0) console.log(`\n${problems.length} accessibility problems:\n\n${problems.join('\n\n')}\n`)
}

describe('accessibility (axe-core, WCAG 2 A and AA)', () => {
  it('every public page, at desktop width and 390 px: no violation, no horizontal scroll, its own title', { timeout: 600_000 }, async () => {
    const page = await newPage({ bypassCSP: true })
    const titles = new Map<string, string>()
    const problems = await auditPages(
      page,
      [
        { path: '/', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
        { path: '/login', ready: (p) => p.getByLabel('Email', { exact: true }).waitFor() },
        { path: '/signup', ready: (p) => p.getByLabel('Email', { exact: true }).waitFor() },
        { path: '/forgot-password' },
        { path: '/reset-password?token=not-a-real-token' },
        { path: '/privacy' },
        { path: '/terms' },
        { path: '/dev/outbox' },
        { path: '/no/such/page' },
      ],
      titles,
    )
    report(problems)
    expect(problems).toEqual([])
    expect(new Set(titles.values()).size, JSON.stringify(Object.fromEntries(titles), null, 2)).toBe(titles.size)
    expect(titles.get('/login')).toBe('Sign in · Mailrow')
  })

  it('every signed-in page and the wizard steps, at desktop width and 390 px, with their dialogs', { timeout: 900_000 }, async () => {
    const email = uniqueEmail('a11y')
    await signUpViaApi(baseUrl, email)
    const page = await newPage({ bypassCSP: true })
    await signInViaForm(page, email)
    await waitForPath(page, '/dashboard')
    await connectDemoGmail(page, emulatorUrl)

    // A parser trained on a Northwind order, with its emails processed.
    const created = await page.evaluate(async (from) => {
      const emails = (await (await fetch('/api/gmail/matching-emails', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ filterFrom: from }) })).json()).emails as Array<{ id: string; subject: string }>
      const sample = emails[0]!
      const response = await fetch('/api/parsers', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Northwind orders',
          filters: { filterFrom: from },
          fields: [{ name: 'Order number', value: /NW-\d+/.exec(sample.subject)![0] }],
          sample: { messageId: sample.id },
          parserType: 'template',
          parseAttachments: false,
          destination: { type: 'new' },
          parseHistorical: false,
        }),
      })
      return { status: response.status, body: await response.json() }
    }, NORTHWIND)
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const parser = created.body.parser as { id: string }
    // A new order arrives and is parsed: the parser's page lists it, "Train on this email" opens it.
    const raw = [
      `From: Northwind Outfitters <${NORTHWIND}>`,
      'To: demo@mailrow.test',
      'Subject: Order NW-990417 confirmed',
      `Date: ${new Date().toUTCString()}`,
      `Message-ID: <a11y-${Date.now()}@northwind-outfitters.test>`,
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<h1>Thanks for your order</h1><table><tr><td>Order number:</td><td>NW-990417</td></tr><tr><td>Total:</td><td>$84.88</td></tr></table>',
      '',
    ].join('\r\n')
    const deliveredId = await deliverToDemoMailbox(emulatorUrl, raw)
    // The demo mailbox is shared by every story: this order would otherwise be the newest
    // Northwind email that the later stories' wizards show first.
    onTestFinished(async () => {
      await fetch(`${emulatorUrl}/_control/mailboxes/demo@mailrow.test/messages/${deliveredId}`, { method: 'DELETE' })
    })
    let emailId: string | undefined
    for (let tries = 0; tries < 60 && !emailId; tries += 1) {
      emailId = await page.evaluate(async (id) => (await (await fetch(`/api/parsers/${id}/emails`)).json()).emails?.[0]?.id as string | undefined, parser.id)
      if (!emailId) await page.waitForTimeout(1_000)
    }
    expect(emailId).toBeTruthy()

    const titles = new Map<string, string>()
    const problems = await auditPages(
      page,
      [
        {
          path: '/dashboard',
          ready: (p) => p.getByRole('heading', { name: 'Your Parsers' }).waitFor(),
          then: async (p) => {
            await p.getByRole('button', { name: 'Test Parser: Northwind orders' }).click()
            const dialog = p.getByRole('dialog', { name: 'Test Parser: Northwind orders' })
            await dialog.waitFor()
            await p.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined)
            const width = p.viewportSize()!.width
            const found = await audit(p, 'Test Parser dialog', width)
            const spill = await dialog.evaluate((element) => (element.scrollWidth > element.clientWidth ? `${element.scrollWidth} px of content in ${element.clientWidth} px` : null))
            if (spill) found.push(`Test Parser dialog: wider than its frame: ${spill}`)
            await p.keyboard.press('Escape')
            return found
          },
        },
        { path: '/parsers', ready: (p) => p.getByText('Northwind orders').first().waitFor() },
        { path: `/parsers/${parser.id}`, ready: (p) => p.getByRole('heading', { name: 'Northwind orders' }).first().waitFor() },
        { path: `/parsers/${parser.id}/emails/${emailId}/train` },
        {
          path: '/settings',
          then: async (p) => {
            await p.getByRole('button', { name: 'Enable two-factor authentication' }).click()
            const dialog = p.getByRole('dialog')
            await dialog.getByLabel('Password').fill(PASSWORD)
            const found = await audit(p, 'two-factor password dialog', p.viewportSize()!.width)
            await dialog.getByRole('button', { name: 'Continue' }).click()
            await p.getByTestId('totp-secret').waitFor()
            found.push(...(await audit(p, 'two-factor set-up', p.viewportSize()!.width)))
            return found
          },
        },
        {
          path: '/create-parser',
          ready: (p) => p.getByText('Gmail Connected', { exact: true }).waitFor(),
          then: async (p) => {
            const width = p.viewportSize()!.width
            await p.getByRole('button', { name: 'Next', exact: true }).click()
            await p.getByLabel('From Email Address').waitFor()
            const found = await audit(p, 'wizard step 2 (filters)', width)
            await p.getByLabel('From Email Address').fill(NORTHWIND)
            await p.getByRole('button', { name: 'Next', exact: true }).click()
            await p.getByRole('heading', { name: 'Train AI to Extract Data' }).waitFor()
            await p.getByText(/^\d+ emails found$/).waitFor()
            await p.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined)
            found.push(...(await audit(p, 'wizard step 3 (training)', width)))
            // Steps 4 and 5 need a trained field.
            await highlightCell(p, 'Order number', { after: true })
            const naming = p.getByRole('dialog', { name: 'Name This Field' })
            await naming.getByLabel('Field Name').fill('Order Number')
            await naming.getByLabel('Field Name').press('Enter')
            await naming.waitFor({ state: 'detached' })
            // Audited after the "Field added" toast is gone: mid-fade, its colours are not its own.
            await p.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 15_000 })
            await p.getByRole('button', { name: 'Next', exact: true }).click()
            await p.getByRole('heading', { name: 'Choose Destination' }).waitFor()
            await p.getByText('Google Sheets Connected').waitFor()
            found.push(...(await audit(p, 'wizard step 4 (destination)', width)))
            await p.getByRole('button', { name: 'Next', exact: true }).click()
            await p.getByRole('heading', { name: 'Review Your Parser' }).waitFor()
            found.push(...(await audit(p, 'wizard step 5 (review)', width)))
            // The wizard keeps its draft in this tab: the next width starts again from step 1.
            await p.evaluate(() => {
              for (const key of Object.keys(sessionStorage)) if (key.startsWith('mailrow:wizard-draft')) sessionStorage.removeItem(key)
            })
            return found
          },
        },
      ],
      titles,
    )
    // The notifications panel, from the header.
    await page.goto('/dashboard')
    await settled(page)
    await page.getByRole('button', { name: /Notifications/ }).first().click()
    await page.getByRole('dialog', { name: 'Notifications' }).waitFor()
    problems.push(...(await audit(page, 'notifications panel at 390 px', 390)))

    report(problems)
    expect(problems).toEqual([])
    expect(new Set(titles.values()).size, JSON.stringify(Object.fromEntries(titles), null, 2)).toBe(titles.size)
    expect(titles.get('/dashboard')).toBe('Dashboard · Mailrow')
  })
})
