import { createContext, use, type ComponentProps } from 'react'

/**
 * How a SiteLink moves to another page without a reload: the router's navigate inside the app,
 * or, on the prerendered landing page (which ships without the router), loading the app first.
 * Without one (HTML rendered at build time) a SiteLink is a plain link.
 */
export const SiteNavigation = createContext<((to: string) => void) | null>(null)

type SiteLinkProps = Omit<ComponentProps<'a'>, 'href'> & { to: string }

/**
 * A link to one of our pages (an absolute path) for the parts the landing page shares with the
 * app: it works with or without React Router loaded (docs/decisions/025).
 */
export function SiteLink({ to, onClick, ...props }: SiteLinkProps) {
  const navigate = use(SiteNavigation)
  return (
    <a
      href={to}
      {...props}
      onClick={(event) => {
        onClick?.(event)
        const modified = event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey
        if (!navigate || event.defaultPrevented || modified || props.target) return
        event.preventDefault()
        navigate(to)
      }}
    />
  )
}
