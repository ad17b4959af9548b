// @vitest-environment jsdom
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { createMemoryRouter, Link, RouterProvider, type DataRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { documentTitle, keepDocumentTitle, usePageTitle } from './document-title'

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean
}

function ParserPage() {
  usePageTitle('Fixit orders')
  return <Link to="/parsers">Parsers</Link>
}

let root: Root
let router: DataRouter
let stopTitle: () => void

beforeEach(async () => {
  globalThis.IS_REACT_ACT_ENVIRONMENT = true
  document.body.innerHTML = '<div id="root"></div>'
  router = createMemoryRouter(
    [
      { path: '/parsers', handle: { title: 'Parsers' }, Component: () => <p>All parsers</p> },
      { path: '/parsers/:id', handle: { title: 'Parser' }, Component: ParserPage },
    ],
    { initialEntries: ['/parsers/p1'] },
  )
  stopTitle = keepDocumentTitle(router)
  root = createRoot(document.getElementById('root')!)
  await act(async () => root.render(<RouterProvider router={router} />))
})

afterEach(async () => {
  await act(async () => root.unmount())
  stopTitle()
  router.dispose()
})

describe('documentTitle', () => {
  it('puts the subject before the deepest route title', () => {
    expect(documentTitle([{ title: 'Parsers' }, { title: 'Parser' }], 'Shop orders')).toBe('Shop orders · Parser · Mailrow')
    expect(documentTitle([{ title: 'Dashboard' }])).toBe('Dashboard · Mailrow')
    expect(documentTitle([undefined])).toBe('Mailrow: notification emails to spreadsheet rows')
  })
})

describe('keepDocumentTitle', () => {
  it("keeps the page's subject when the router's state changes on the same page", async () => {
    expect(document.title).toBe('Fixit orders · Parser · Mailrow')
    // What the router writes at the moment its state changes, before React renders the page again:
    // a ?status= filter once set the title back to "Parser · Mailrow" here and the page never fixed it.
    const seen: string[] = []
    const unsubscribe = router.subscribe(() => seen.push(document.title))
    await act(async () => router.navigate('/parsers/p1?status=partial'))
    unsubscribe()
    expect(seen.length).toBeGreaterThan(0)
    expect(seen).toEqual(seen.map(() => 'Fixit orders · Parser · Mailrow'))
    expect(document.title).toBe('Fixit orders · Parser · Mailrow')
  })

  it("never shows a page's subject on another page", async () => {
    const seen: string[] = []
    const unsubscribe = router.subscribe(() => seen.push(document.title))
    await act(async () => router.navigate('/parsers'))
    unsubscribe()
    expect(seen.at(-1)).toBe('Parsers · Mailrow')
    expect(document.title).toBe('Parsers · Mailrow')
  })
})
