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

/**
 * For a flow of dialogs (a typed value goes on to be named): the element to come back to is
 * remembered when the flow starts (`remember`) and focused when its last dialog closes (pass
 * `onCloseAutoFocus` to each dialog, or call `restore`). `useReturnFocus` can't do this: the
 * second dialog's opener is the first dialog's input, gone by the time it closes.
 */
export function useFlowReturnFocus() {
  const target = useRef<HTMLElement | null>(null)

  const remember = (element?: Element | null) => {
    const candidate = element ?? document.activeElement
    target.current = candidate instanceof HTMLElement && candidate !== document.body ? candidate : null
  }

  /** Focus the remembered element, or `fallback` when it is gone; nothing while a dialog is open. */
  const restore = (fallback?: HTMLElement | null) => {
    // The flow's next dialog is open: focus comes back when that one closes.
    if (document.querySelector('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]')) return
    const element = target.current?.isConnected ? target.current : fallback
    element?.focus()
  }

  return {
    remember,
    restore,
    onCloseAutoFocus: (event: Event) => {
      event.preventDefault()
      restore()
    },
  }
}
