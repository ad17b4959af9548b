import createDOMPurify, { type Config } from 'dompurify'
import { JSDOM } from 'jsdom'

// One DOM for the process: DOMPurify only needs a window to parse into.
const purify = createDOMPurify(new JSDOM('').window as unknown as Parameters<typeof createDOMPurify>[0])

const CONFIG: Config = {
  FORBID_TAGS: ['script', 'iframe', 'object', 'embed', 'frame', 'frameset', 'form', 'input', 'button', 'textarea', 'select', 'base', 'meta', 'link', 'svg', 'math'],
  FORBID_ATTR: ['srcset', 'formaction', 'action', 'ping', 'background'],
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|tel:|cid:|#)/i,
}

const REMOTE_URL = /^\s*(?:https?:)?\/\//i
const CSS_URL = /url\s*\(\s*(['"]?)\s*(?:https?:)?\/\/[^)]*\1\s*\)/gi

export type SanitizeOptions = { allowRemoteImages?: boolean }

/**
 * Email HTML made safe to show in the app (spec §5): no script, frames, objects or forms, no
 * event handlers or javascript: URLs. Remote images (tracking pixels) stay off unless asked for;
 * their address is kept in data-remote-src so the UI can offer 'Show images'. Links open in a new
 * tab without a referrer.
 */
export function sanitizeEmailHtml(html: string, { allowRemoteImages = false }: SanitizeOptions = {}): string {
  purify.removeAllHooks()
  purify.addHook('afterSanitizeAttributes', (node) => {
    const element = node as Element
    if (element.tagName === 'A' && element.hasAttribute('href')) {
      element.setAttribute('target', '_blank')
      element.setAttribute('rel', 'noopener noreferrer nofollow')
    }
    if (allowRemoteImages) return
    if (element.tagName === 'IMG') {
      const src = element.getAttribute('src') ?? ''
      if (REMOTE_URL.test(src)) {
        element.setAttribute('data-remote-src', src)
        element.removeAttribute('src')
      }
    }
    const style = element.getAttribute('style')
    if (style && CSS_URL.test(style)) element.setAttribute('style', style.replace(CSS_URL, 'none'))
  })
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (!allowRemoteImages && data.tagName === 'style' && node.textContent) {
      node.textContent = node.textContent.replace(CSS_URL, 'none')
    }
  })
  const clean = purify.sanitize(html, { ...CONFIG, ADD_ATTR: allowRemoteImages ? [] : ['data-remote-src'] }) as string
  purify.removeAllHooks()
  return clean
}
