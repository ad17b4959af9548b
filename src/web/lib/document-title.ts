import { useEffect } from 'react'
import { useLocation, useMatches, type DataRouter } from 'react-router'

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

/**
 * The subject the mounted page gave its path. The router sets the title on every state change, a
 * new ?status= on the same page too, and may do so after the page's effect ran: it asks here so it
 * keeps the subject instead of racing the page. Keyed by path so that a navigation to another page
 * never shows the old page's subject, even before the old page unmounts.
 */
let pageSubject: { pathname: string; subject: string } | undefined

export function subjectFor(pathname: string): string | undefined {
  return pageSubject?.pathname === pathname ? pageSubject.subject : undefined
}

/** Puts the page's subject (a parser's name, once it has loaded) in front of its route's title. */
export function usePageTitle(subject: string | undefined) {
  const matches = useMatches()
  const { pathname } = useLocation()
  useEffect(() => {
    if (!subject) return
    const mine = { pathname, subject }
    pageSubject = mine
    document.title = documentTitle(matches.map((match) => match.handle), subject)
    return () => {
      if (pageSubject === mine) pageSubject = undefined
    }
  }, [matches, pathname, subject])
}

/**
 * Sets the title now and on every router state change (once a lazy route's page is there), with
 * the subject the page on that path gave itself.
 */
export function keepDocumentTitle(router: DataRouter) {
  const apply = (state: DataRouter['state']) => {
    const handles = state.matches.map((match) => match.route.handle)
    document.title = documentTitle(handles, subjectFor(state.location.pathname))
  }
  apply(router.state)
  return router.subscribe(apply)
}
