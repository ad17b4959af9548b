import { Menu, X } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { Link, useLocation } from 'react-router'
import { paths } from '@shared/paths'
import { Button } from '../ui/button'

const LINKS = [
  { to: paths.dashboard, label: 'Dashboard', isCurrent: (path: string) => path === paths.dashboard },
  { to: paths.parsers, label: 'Parsers', isCurrent: (path: string) => path === paths.parsers || path.startsWith(`${paths.parsers}/`) },
  { to: paths.settings, label: 'Settings', isCurrent: (path: string) => path === paths.settings },
]

/**
 * The top bar's navigation under 640 px, where Dashboard and Parsers don't fit: a Menu button
 * that opens the links under the bar (a disclosure: Escape or choosing a page closes it).
 */
export function MobileNav() {
  const { pathname } = useLocation()
  const [open, setOpen] = useState(false)
  const [openedOn, setOpenedOn] = useState(pathname)
  const panelId = useId()
  const buttonRef = useRef<HTMLButtonElement>(null)
  // Choosing a page closes the menu (state reset on a route change, without an effect).
  if (open && openedOn !== pathname) {
    setOpen(false)
    setOpenedOn(pathname)
  }

  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpen(false)
      buttonRef.current?.focus()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open])

  return (
    <div className="sm:hidden">
      <Button
        ref={buttonRef}
        variant="ghost"
        size="icon"
        aria-label="Menu"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          setOpenedOn(pathname)
          setOpen((value) => !value)
        }}
      >
        {open ? <X /> : <Menu />}
      </Button>
      <nav id={panelId} aria-label="Main" hidden={!open} className="absolute inset-x-0 top-full z-40 border-b bg-background shadow-md">
        <ul className="grid gap-1 p-2">
          {LINKS.map((link) => (
            <li key={link.to}>
              <Link
                to={link.to}
                aria-current={link.isCurrent(pathname) ? 'page' : undefined}
                onClick={() => setOpen(false)}
                className="block rounded-md px-3 py-2 text-sm font-medium hover:bg-muted aria-[current=page]:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  )
}
