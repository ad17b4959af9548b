import createDOMPurify, { type Config } from 'dompurify'
import { JSDOM } from 'jsdom'

// One DOM for the process: DOMPurify only needs a window to parse into.
const purify = createDOMPurify(new JSDOM('').window as unknown as Parameters<typeof createDOMPurify>[0])

/** The HTML 4 table and text attributes emails are laid out with (their values are never URLs). */
const LAYOUT_ATTRIBUTES = [
  'align', 'valign', 'width', 'height', 'colspan', 'rowspan', 'bgcolor', 'border', 'cellpadding', 'cellspacing', 'nowrap', 'color', 'face', 'size',
  'dir', 'span', 'abbr', 'scope', 'headers', 'hspace', 'vspace', 'start', 'type', 'char', 'charoff', 'frame', 'rules', 'clear', 'noshade',
]

const CONFIG: Config = {
  FORBID_TAGS: [
    'script', 'iframe', 'object', 'embed', 'frame', 'frameset', 'form', 'input', 'button', 'textarea', 'select', 'base', 'meta', 'link', 'svg', 'math',
    // Media fetch on their own (poster, src, source, track); notification emails don't need them.
    'video', 'audio', 'source', 'track', 'picture',
  ],
  FORBID_ATTR: ['srcset', 'formaction', 'action', 'ping', 'background', 'poster', 'lowsrc', 'dynsrc'],
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|tel:|cid:|#)/i,
  // The strict URI rule above is checked against every attribute DOMPurify doesn't know to be
  // URI-safe, so `colspan="2"` and `align="right"` were dropped as "bad URLs" and the email lost its
  // layout (totals under the Qty column). These presentational attributes never load anything.
  ADD_URI_SAFE_ATTR: LAYOUT_ATTRIBUTES,
}

/** The only image sources that load nothing from the network. */
const LOCAL_IMAGE = /^\s*(?:cid:|data:image\/)/i
/**
 * A CSS declaration (or the rest of an unclosed one) that can fetch: url(), image-set() and
 * friends, @import. Matched after CSS escapes are decoded, so u\rl( and h\74tps: don't hide it.
 */
const DATA_IMAGE_URL = /url\s*\(\s*(['"]?)data:image\/[^'")]*\1\s*\)/gi
const CSS_FETCH = /[^;{}]*(?:\b(?:url|image-set|-webkit-image-set|image|cross-fade|element|src)\s*\(|@import)[^;{}]*(?:;|(?=[{}])|$)/gi

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
    if (!allowRemoteImages && element.tagName === 'IMG' && element.hasAttribute('src')) {
      // Anything but cid:/data: goes over the network: https:host, //host, relative paths alike.
      const src = element.getAttribute('src') ?? ''
      if (!LOCAL_IMAGE.test(src)) {
        element.setAttribute('data-remote-src', src)
        element.removeAttribute('src')
      }
    }
    const style = element.getAttribute('style')
    if (style) {
      const safe = safeCss(style, allowRemoteImages)
      if (safe.trim()) element.setAttribute('style', safe)
      else element.removeAttribute('style')
    }
  })
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style' && node.textContent) node.textContent = safeCss(node.textContent, allowRemoteImages)
  })
  const clean = purify.sanitize(html, { ...CONFIG, ADD_ATTR: allowRemoteImages ? [] : ['data-remote-src'] }) as string
  purify.removeAllHooks()
  return clean
}

/**
 * A declaration that takes an element out of the email's flow to sit over the page shown around
 * it (a fake "Sign in again" box over the app's own buttons): fixed, sticky and absolute positions.
 */
const ESCAPING_CSS = /[^;{}]*\bposition\s*:\s*(?:fixed|sticky|absolute)[^;{}]*(?:;|(?=[{}])|$)/gi

function safeCss(css: string, allowRemoteImages: boolean): string {
  // withoutFetchingCss answers decoded CSS; decoding it again would turn `\5c 75rl(` into url(.
  const decoded = allowRemoteImages ? decodeCssEscapes(css) : withoutFetchingCss(css)
  return decoded.replace(ESCAPING_CSS, '')
}

/** CSS with every declaration that could fetch removed (data: images stay). */
export function withoutFetchingCss(css: string): string {
  const dataUrls: string[] = []
  // Set data: images aside first: their base64 may hold ';', which would split a declaration.
  const masked = decodeCssEscapes(css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '')).replace(DATA_IMAGE_URL, (url) => {
    dataUrls.push(url)
    return `\uE000${dataUrls.length - 1}\uE001`
  })
  return masked.replace(CSS_FETCH, '').replace(/\uE000(\d+)\uE001/g, (_m, index: string) => dataUrls[Number(index)] ?? '')
}

/**
 * \74 → t, \r → r (CSS treats an escaped letter as the letter itself). An escaped backslash
 * (`\5c 75rl(`) leaves a new escape for the browser to decode after the checks: decoded again
 * until nothing changes, and any backslash still left is dropped.
 */
function decodeCssEscapes(css: string): string {
  let decoded = css
  for (let round = 0; round < 4; round++) {
    const next = decodeCssEscapesOnce(decoded)
    if (next === decoded) break
    decoded = next
  }
  return decoded.replace(/\\/g, '')
}

function decodeCssEscapesOnce(css: string): string {
  return css
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_m, hex: string) => {
      const code = Number.parseInt(hex, 16)
      return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\ufffd' : String.fromCodePoint(code)
    })
    .replace(/\\([g-z(:/])/gi, '$1')
}
