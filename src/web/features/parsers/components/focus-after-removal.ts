/**
 * After `button` removed its item, focus goes to the button that took its place (or the one
 * before it), or to `fallbackSelector` when none is left: never to the top of the page. Call it
 * from the click handler; it waits for React to re-render the list.
 */
export function focusAfterRemoval(container: HTMLElement | null, button: HTMLElement, buttonSelector: string, fallbackSelector: string) {
  if (!container) return
  const position = [...container.querySelectorAll<HTMLElement>(buttonSelector)].indexOf(button)
  requestAnimationFrame(() => {
    const buttons = [...container.querySelectorAll<HTMLElement>(buttonSelector)]
    const next = buttons[Math.min(Math.max(position, 0), buttons.length - 1)]
    ;(next ?? container.querySelector<HTMLElement>(fallbackSelector))?.focus()
  })
}
