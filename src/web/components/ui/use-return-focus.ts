import { useRef } from 'react'

/**
 * For a dialog opened from state rather than a `DialogTrigger`: Radix then has no trigger to
 * refocus on close and focus falls to the page. Spread the result on `DialogContent` to send focus
 * back to whatever opened it (or to `fallback` when that element is gone, e.g. a deleted row).
 * Leave the first field to Radix's own open focus: an `autoFocus` inside would be recorded as the opener.
 */
export function useReturnFocus(fallback?: () => HTMLElement | null | undefined) {
  const opener = useRef<HTMLElement | null>(null)
  return {
    onOpenAutoFocus: () => {
      opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null
    },
    onCloseAutoFocus: (event: Event) => {
      const target = opener.current?.isConnected ? opener.current : fallback?.()
      opener.current = null
      if (!target) return
      event.preventDefault()
      target.focus()
    },
  }
}
