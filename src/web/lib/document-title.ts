import { useEffect } from 'react'
import { useMatches } from 'react-router'

/** What a route in src/web/app/router.tsx says about its page: its title ("Dashboard"). */
export type RouteHandle = { title?: string }

/** The landing page's title, in index.html and landing.html too. */
const SITE_TITLE = 'Mailrow: notification emails to spreadsheet rows'

/**
 * "Dashboard · Mailrow": the deepest matched route's title, so each page has its own (WCAG 2.4.2);
 * with what the page is about in front when it has a subject ("Shop orders · Parser · Mailrow").
 */
export function documentTitle(handles: readonly unknown[], subject?: string): string {
  const title = handles
    .map((handle) => (handle as RouteHandle | undefined)?.title)
    .filter(Boolean)
    .at(-1)
  if (!title) return SITE_TITLE
  return subject ? `${subject} · ${title} · Mailrow` : `${title} · Mailrow`
}

/** Puts the page's subject (a parser's name, once it has loaded) in front of its route's title. */
export function usePageTitle(subject: string | undefined) {
  // The router sets the route's title after every navigation, a new ?page= on this page too: set it again then.
  const matches = useMatches()
  useEffect(() => {
    if (subject) document.title = documentTitle(matches.map((match) => match.handle), subject)
  }, [matches, subject])
}
