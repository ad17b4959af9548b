/**
 * First focusable element of every page (the landing page and every page in AppShell): jumps past
 * the header to the page's main region, `#main-content` or else its `<main>`.
 */
export function SkipLink() {
  return (
    <a
      href="#main-content"
      onClick={(event) => {
        const target = document.getElementById('main-content') ?? document.querySelector('main')
        if (!target) return
        event.preventDefault()
        if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1')
        target.focus()
        target.scrollIntoView()
      }}
      className="sr-only rounded-md bg-background px-4 py-2 text-sm font-medium shadow-lg ring-2 ring-ring focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50"
    >
      Skip to content
    </a>
  )
}
