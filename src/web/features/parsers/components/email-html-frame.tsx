import { useEffect, useEffectEvent, useRef, useState } from 'react'
import type { ExtractionField } from '@shared/contracts/extraction'
import { FIELD_COLOURS, FIELD_TEXT, fieldColour, highlightName } from '../field-colours'
import { highlightFromText, rangesForFields, spansForFields, textAroundRange, type HighlightedValue } from '../selection-context'

/**
 * Fields already chosen in this email, marked so the user sees what is taken, each in its own
 * colour (`colour`: its index in the field list; the position in this array when absent).
 */
export type MarkedFields = Array<Pick<ExtractionField, 'value' | 'context'> & { colour?: number }>

const MIN_HEIGHT = 320

/**
 * The document the frame shows. The policy lets nothing load but inline styles and images, on
 * top of the server's sanitising: only inline (data:, cid:) images while remote images are
 * hidden, so a tracker the sanitiser missed still loads nothing. Links open in a new tab without
 * a referrer.
 */
export function emailDocument(html: string, { allowRemoteImages = false }: { allowRemoteImages?: boolean } = {}): string {
  const imgSrc = allowRemoteImages ? 'data: cid: https: http:' : 'data: cid:'
  return `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${imgSrc}; style-src 'unsafe-inline'">
<meta name="referrer" content="no-referrer">
<base target="_blank">
<style>
html,body{margin:0}
body{padding:16px;font:14px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2430;overflow-wrap:anywhere;cursor:text}
img{max-width:100%;height:auto}
::selection{background:#c7cdfd}
${FIELD_COLOURS.map((colour, i) => `::highlight(${highlightName(i)}){background-color:${colour.fill};color:${FIELD_TEXT}}`).join('\n')}
</style></head><body>${html}</body></html>`
}

/**
 * Sanitised email HTML in a sandboxed frame: same origin so the page can read what the user
 * highlights, but no allow-scripts, so nothing in the email ever runs.
 */
export function EmailHtmlFrame({
  html,
  title,
  marked,
  onHighlight,
  allowRemoteImages = false,
}: {
  html: string
  title: string
  marked: MarkedFields
  onHighlight: (value: HighlightedValue) => void
  /** The user chose 'Show images'. */
  allowRemoteImages?: boolean
}) {
  const frameRef = useRef<HTMLIFrameElement>(null)
  const [frameDocument, setFrameDocument] = useState<Document | null>(null)
  const [height, setHeight] = useState(MIN_HEIGHT)

  // The frame is as tall as the email (the page scrolls, not the frame), so nothing is cut off.
  const measure = (doc: Document) => setHeight(Math.max(MIN_HEIGHT, doc.documentElement.scrollHeight))

  const readSelection = useEffectEvent((doc: Document) => {
    const selection = doc.getSelection()
    if (!selection || selection.isCollapsed || selection.rangeCount === 0) return
    const { text, start, end } = textAroundRange(doc.body, selection.getRangeAt(0))
    const highlight = highlightFromText(text, start, end)
    if (!highlight) return
    selection.removeAllRanges()
    onHighlight(highlight)
  })

  useEffect(() => {
    if (!frameDocument) return
    const onMouseUp = () => readSelection(frameDocument)
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.shiftKey || event.key === 'Shift') readSelection(frameDocument)
    }
    frameDocument.addEventListener('mouseup', onMouseUp)
    frameDocument.addEventListener('keyup', onKeyUp)
    // Late images and a narrower screen change the content's height.
    const FrameResizeObserver = frameDocument.defaultView?.ResizeObserver
    const observer = FrameResizeObserver ? new FrameResizeObserver(() => measure(frameDocument)) : null
    observer?.observe(frameDocument.body)
    return () => {
      frameDocument.removeEventListener('mouseup', onMouseUp)
      frameDocument.removeEventListener('keyup', onKeyUp)
      observer?.disconnect()
    }
  }, [frameDocument])

  useEffect(() => {
    const frameWindow = frameDocument?.defaultView as (Window & typeof globalThis) | null | undefined
    // The CSS Custom Highlight API marks text without touching the DOM the selection offsets read.
    if (!frameDocument || !frameWindow?.CSS?.highlights || !frameWindow.Highlight) return
    const byColour = new Map<string, Range[]>()
    rangesForFields(frameDocument.body, marked).forEach((range, index) => {
      if (!range) return
      const name = highlightName(marked[index]!.colour ?? index)
      byColour.set(name, [...(byColour.get(name) ?? []), range])
    })
    for (const [name, ranges] of byColour) frameWindow.CSS.highlights.set(name, new frameWindow.Highlight(...ranges))
    return () => {
      for (const name of byColour.keys()) frameWindow.CSS.highlights.delete(name)
    }
  }, [frameDocument, marked])

  return (
    <iframe
      ref={frameRef}
      title={title}
      srcDoc={emailDocument(html, { allowRemoteImages })}
      sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      className="block w-full rounded-md border bg-white"
      style={{ height }}
      data-testid="email-frame"
      onLoad={() => {
        const doc = frameRef.current?.contentDocument
        if (!doc) return
        setFrameDocument(doc)
        measure(doc)
      }}
    />
  )
}

/** Plain-text email body; highlighting works as in the HTML frame. */
export function EmailTextBody({ text, marked, onHighlight }: { text: string; marked: MarkedFields; onHighlight: (value: HighlightedValue) => void }) {
  const preRef = useRef<HTMLPreElement>(null)
  const spans = spansForFields(text, marked)

  const readSelection = () => {
    const pre = preRef.current
    const selection = window.getSelection()
    if (!pre || !selection || selection.isCollapsed || selection.rangeCount === 0) return
    const range = selection.getRangeAt(0)
    if (!pre.contains(range.startContainer) || !pre.contains(range.endContainer)) return
    const { text: shown, start, end } = textAroundRange(pre, range, { preserveWhitespace: true })
    const highlight = highlightFromText(shown, start, end)
    if (!highlight) return
    selection.removeAllRanges()
    onHighlight(highlight)
  }

  return (
    <pre
      ref={preRef}
      data-testid="email-text"
      onMouseUp={readSelection}
      onKeyUp={(event) => {
        if (event.shiftKey || event.key === 'Shift') readSelection()
      }}
      className="max-h-[40rem] min-h-48 overflow-auto whitespace-pre-wrap break-words rounded-md border bg-background p-4 font-sans text-sm leading-relaxed selection:bg-primary/25"
    >
      {spans.length === 0
        ? text
        : spans.map(([start, end, field], index) => (
            <span key={start}>
              {text.slice(index === 0 ? 0 : spans[index - 1]![1], start)}
              <mark className="rounded-sm" style={{ backgroundColor: fieldColour(marked[field]!.colour ?? field).fill, color: FIELD_TEXT }}>
                {text.slice(start, end)}
              </mark>
              {index === spans.length - 1 ? text.slice(end) : null}
            </span>
          ))}
    </pre>
  )
}
