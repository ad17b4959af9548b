import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { connectDemoGmail, signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'
import { cellAfter, highlightText, inEmail } from './email-frame'

const { newPage, baseUrl, emulatorUrl } = useBrowser()

/** A new user on step 3 of the wizard, training on the demo mailbox's Northwind orders. */
async function openTrainingStep(label: string): Promise<Page> {
  const email = uniqueEmail(label)
  await signUpViaApi(baseUrl, email)
  const page = await newPage()
  await signInViaForm(page, email)
  await waitForPath(page, '/dashboard')
  await connectDemoGmail(page, emulatorUrl)
  await page.getByText('Gmail Connected', { exact: true }).waitFor()
  await page.getByRole('button', { name: 'Next', exact: true }).click()
  await page.getByLabel('From Email Address').fill('orders@northwind-outfitters.test')
  await page.getByRole('button', { name: 'Next', exact: true }).click()
  await page.getByText(/^\d+ emails found$/).waitFor()
  return page
}

/** What has the keyboard focus: its accessible-ish name (label, text) for the assertions. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null
    if (!element || element === document.body) return '(page)'
    return element.getAttribute('aria-label') ?? element.textContent?.trim() ?? element.tagName
  })
}

/** Presses Tab until `name` has the focus (as a keyboard user would), failing after `max` presses. */
async function tabTo(page: Page, name: string, max = 150) {
  for (let i = 0; i < max; i++) {
    if ((await focused(page)) === name) return
    await page.keyboard.press('Tab')
  }
  throw new Error(`"${name}" was not reached with Tab`)
}

/** The texts each field's colour marks in the email frame (CSS Custom Highlights), by colour slot. */
async function markedInFrame(page: Page): Promise<Record<string, string[]>> {
  return inEmail(page, () => {
    const marks: Record<string, string[]> = {}
    for (const [name, highlight] of CSS.highlights.entries()) marks[name] = [...highlight.keys()].map((range) => range.toString())
    return marks
  }, undefined)
}

describe('highlighting', () => {
  it('user trains fields with the keyboard only: each gets its colour, and focus comes back after every dialog and removal', async () => {
    const page = await openTrainingStep('keys')
    const orderNumber = await cellAfter(page, 'Order number')
    const total = await cellAfter(page, 'Total')
    expect(orderNumber).toMatch(/^NW-\d{6}$/)

    // A real button, reached with Tab.
    await tabTo(page, 'Add field by typing')
    await page.keyboard.press('Enter')
    const typed = page.getByRole('dialog', { name: 'Add field by typing' })
    await typed.waitFor()
    // Escape gives focus back to the button.
    await page.keyboard.press('Escape')
    await typed.waitFor({ state: 'detached' })
    await expect.poll(() => focused(page)).toBe('Add field by typing')

    await page.keyboard.press('Enter')
    await typed.waitFor()
    await page.keyboard.type(orderNumber)
    await page.keyboard.press('Enter')
    const naming = page.getByRole('dialog', { name: 'Name This Field' })
    await naming.waitFor()
    expect(await naming.getByTestId('selected-text').textContent()).toBe(orderNumber)
    await page.keyboard.type('Order Number')
    await page.keyboard.press('Enter')
    await toast(page, 'Field added').waitFor()
    await naming.waitFor({ state: 'detached' })
    await expect.poll(() => focused(page)).toBe('Add field by typing')

    await page.keyboard.press('Enter')
    await typed.waitFor()
    await page.keyboard.type(total)
    await page.keyboard.press('Enter')
    await naming.waitFor()
    await page.keyboard.type('Total')
    await page.keyboard.press('Enter')
    await naming.waitFor({ state: 'detached' })
    await expect.poll(() => focused(page)).toBe('Add field by typing')
    expect(await page.getByTestId('field-count').textContent()).toBe('2')

    // Each field its own colour, the same in the list and in the email.
    const swatches = page.getByRole('region', { name: 'Selected Fields' }).getByTestId('field-swatch')
    expect(await swatches.evaluateAll((els) => els.map((el) => el.getAttribute('data-colour')))).toEqual(['amber', 'sky'])
    await expect.poll(() => markedInFrame(page)).toEqual({ 'mailrow-field-0': [orderNumber], 'mailrow-field-1': [total] })

    // Removing a field moves focus to the next one's button, then to the list's heading.
    await tabTo(page, 'Remove field Order Number')
    await page.keyboard.press('Enter')
    await expect.poll(() => focused(page)).toBe('Remove field Total')
    expect(await page.getByTestId('field-count').textContent()).toBe('1')
    await page.keyboard.press('Enter')
    await expect.poll(() => focused(page)).toBe('Selected Fields')
    expect(await page.getByTestId('field-count').textContent()).toBe('0')
  })

  it('a selection snaps to the whole value: the id behind a double-clicked number, whole words, an amount with its currency', async () => {
    const page = await openTrainingStep('snap')
    const orderNumber = await cellAfter(page, 'Order number')
    const total = await cellAfter(page, 'Total')
    const naming = page.getByRole('dialog', { name: 'Name This Field' })

    // What a double-click on the digits selects.
    await highlightText(page, orderNumber.slice(3))
    await naming.waitFor()
    expect(await naming.getByTestId('selected-text').textContent()).toBe(orderNumber)
    await page.keyboard.press('Escape')
    await naming.waitFor({ state: 'detached' })

    await highlightText(page, total.slice(2, -1))
    await naming.waitFor()
    expect(await naming.getByTestId('selected-text').textContent()).toBe(total)
    await page.keyboard.press('Escape')

    await highlightText(page, 'hanks for your ord')
    await naming.waitFor()
    expect(await naming.getByTestId('selected-text').textContent()).toBe('Thanks for your order')
  })
})
