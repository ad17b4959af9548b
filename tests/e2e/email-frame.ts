import type { Frame, Page } from 'playwright-core'

/**
 * The shown email's frame, as the stories read and select in it.
 *
 * The frame runs no script (sandbox without allow-scripts), so Playwright's in-frame waits, which
 * poll with requestAnimationFrame, never run again after their first check: a story that waits
 * inside the frame for the email to load times out whenever it looks before the email is there.
 * Every wait here polls from the test's side instead, finding the frame again on each try, since
 * the frame shows a placeholder first and is replaced when the email list settles.
 */
async function currentFrame(page: Page): Promise<Frame | null> {
  const handle = await page.getByTestId('email-frame').elementHandle({ timeout: 1_000 }).catch(() => null)
  const frame = await handle?.contentFrame()
  if (!frame) return null
  await frame.waitForLoadState()
  return frame
}

const TIMEOUT_MS = 20_000

/**
 * Runs `inFrame` in the email frame until it returns something other than null, and returns that;
 * fails after 20 s with `waitingFor` in the message.
 */
export async function untilInEmail<T, A>(page: Page, waitingFor: string, inFrame: (arg: A) => T | null, arg: A): Promise<T> {
  const deadline = Date.now() + TIMEOUT_MS
  for (;;) {
    const frame = await currentFrame(page)
    const result = frame ? await frame.evaluate(inFrame as (arg: unknown) => T | null, arg as unknown).catch(() => null) : null
    if (result !== null) return result as T
    if (Date.now() > deadline) throw new Error(`not found in the email frame: ${waitingFor}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** Runs `inFrame` once in the email frame (after it has loaded). */
export async function inEmail<T, A>(page: Page, inFrame: (arg: A) => T, arg: A): Promise<T> {
  const frame = await currentFrame(page)
  if (!frame) throw new Error('email frame not found')
  return frame.evaluate(inFrame as (arg: unknown) => T, arg as unknown)
}

/** The text of the table cell after the cell reading `label`, once the email shows it. */
export function cellAfter(page: Page, label: string): Promise<string> {
  return untilInEmail(
    page,
    `a cell after ${label}`,
    (label) => [...document.querySelectorAll('td')].find((td) => td.textContent?.trim() === label)?.nextElementSibling?.textContent?.trim() || null,
    label,
  )
}

/** Selects the first appearance of `text` in the email as a mouse would leave it, and lets go. */
export async function highlightText(page: Page, text: string): Promise<void> {
  await untilInEmail(
    page,
    text,
    (text) => {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf(text)
        if (at < 0) continue
        const range = document.createRange()
        range.setStart(node, at)
        range.setEnd(node, at + text.length)
        document.getSelection()!.removeAllRanges()
        document.getSelection()!.addRange(range)
        node.parentElement!.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }))
        return true
      }
      return null
    },
    text,
  )
}

/**
 * Selects a whole table cell as a mouse drag over it would, and lets go: the cell reading `text`,
 * or with `after`, the cell after the one reading `text` (or `text:`). Returns the selected cell's text.
 */
export function highlightCell(page: Page, text: string, { after = false }: { after?: boolean } = {}): Promise<string> {
  return untilInEmail(
    page,
    after ? `a cell after ${text}` : `a cell reading ${text}`,
    ({ text, after }) => {
      // A label cell may end with a colon (`Order number:`).
      const found = [...document.querySelectorAll('td')].find((td) => td.textContent?.trim() === text || (after && td.textContent?.trim() === `${text}:`))
      const cell = after ? found?.nextElementSibling : found
      if (!cell) return null
      const range = document.createRange()
      range.selectNodeContents(cell)
      document.getSelection()!.removeAllRanges()
      document.getSelection()!.addRange(range)
      cell.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }))
      return cell.textContent!.trim()
    },
    { text, after },
  )
}
