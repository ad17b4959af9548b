import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { connectDemoGmail, signInViaForm, signUpViaApi, toast, uniqueEmail, useBrowser, waitForPath } from './browser'
import { highlightText } from './email-frame'

const { newPage, baseUrl, emulatorUrl } = useBrowser()

async function next(page: Page) {
  await page.getByRole('button', { name: 'Next', exact: true }).click()
}

async function addField(page: Page, name: string, text: string) {
  await highlightText(page, text)
  const dialog = page.getByRole('dialog', { name: 'Name This Field' })
  await dialog.getByLabel('Field Name').fill(name)
  await dialog.getByLabel('Field Name').press('Enter')
  await toast(page, 'Field added').waitFor()
  await dialog.waitFor({ state: 'detached' })
}

const SUBJECT_FILTER = 'no email has this subject 5d2c'

describe('the wizard draft', () => {
  it('a refresh in step 3 keeps the trained fields, Back keeps the filters, and Cancel asks before discarding them', async () => {
    const email = uniqueEmail('draft')
    await signUpViaApi(baseUrl, email)
    const page = await newPage()
    await signInViaForm(page, email)
    await waitForPath(page, '/dashboard')
    await connectDemoGmail(page, emulatorUrl)
    await page.getByText('Gmail Connected', { exact: true }).waitFor()

    await next(page)
    await page.getByLabel('Subject Contains').fill(SUBJECT_FILTER)
    await next(page)
    await page.getByText('Invoice INV-2024-0042 from Northwind Supplies').waitFor()
    await addField(page, 'Amount Due', '$958.50')
    await addField(page, 'Invoice', 'INV-2024-0042')
    expect(new URL(page.url()).searchParams.get('step')).toBe('3')

    await page.reload()
    await page.getByRole('heading', { name: 'Train AI to Extract Data' }).waitFor()
    await page.getByText('Invoice INV-2024-0042 from Northwind Supplies').waitFor()
    expect(await page.getByTestId('field-count').textContent()).toBe('2')
    const fields = page.getByRole('region', { name: 'Selected Fields' })
    await fields.getByText('$958.50').waitFor()
    await fields.getByText('Amount Due').waitFor()
    await fields.getByText('INV-2024-0042').waitFor()

    // Browser Back is the previous step, with its values; Forward returns to the fields.
    await page.goBack()
    await page.getByRole('heading', { name: 'Set Email Filters' }).waitFor()
    expect(await page.getByLabel('Subject Contains').inputValue()).toBe(SUBJECT_FILTER)
    await page.goForward()
    await page.getByRole('heading', { name: 'Train AI to Extract Data' }).waitFor()
    expect(await page.getByTestId('field-count').textContent()).toBe('2')

    // Cancel asks; keeping the draft returns focus to Cancel.
    const cancel = page.getByRole('button', { name: 'Cancel', exact: true })
    await cancel.click()
    const dialog = page.getByRole('alertdialog', { name: 'Discard this parser?' })
    await dialog.getByText('The 2 fields you trained').waitFor()
    expect(await dialog.getByRole('button', { name: 'Keep editing' }).evaluate((el) => el === document.activeElement)).toBe(true)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(await cancel.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await page.getByTestId('field-count').textContent()).toBe('2')

    await cancel.click()
    await dialog.getByRole('button', { name: 'Discard' }).click()
    await waitForPath(page, '/dashboard')

    // The draft is gone: a new wizard starts empty.
    await page.goto('/create-parser')
    await page.getByText('Gmail Connected', { exact: true }).waitFor()
    await next(page)
    expect(await page.getByLabel('Subject Contains').inputValue()).toBe('')
  })
})
