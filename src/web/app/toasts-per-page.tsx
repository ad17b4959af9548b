import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'
import { toast } from 'sonner'

/**
 * Toasts end with their page (issue 12: a failed sign-in's "Validation Error" was still there on
 * the dashboard). On a route change, every toast that was already showing when the user last
 * pressed a key or a pointer is dismissed; one raised by the action that navigated ("Parser
 * created" on the way to the dashboard) stays, since it was raised after that input.
 */
export function ToastsPerPage() {
  const { pathname } = useLocation()
  const beforeLastInput = useRef<Set<string | number>>(new Set())
  const shownPath = useRef(pathname)

  useEffect(() => {
    const remember = () => {
      beforeLastInput.current = new Set(toast.getToasts().map((t) => t.id))
    }
    document.addEventListener('pointerdown', remember, true)
    document.addEventListener('keydown', remember, true)
    return () => {
      document.removeEventListener('pointerdown', remember, true)
      document.removeEventListener('keydown', remember, true)
    }
  }, [])

  useEffect(() => {
    if (shownPath.current === pathname) return
    shownPath.current = pathname
    for (const id of beforeLastInput.current) toast.dismiss(id)
    beforeLastInput.current = new Set()
  }, [pathname])

  return null
}
