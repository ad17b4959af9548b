/** Limits on reading PDF attachments for full_ai: big scans are refused, long documents cut. */
export type PdfLimits = {
  maxBytes: number
  maxPages: number
  maxChars: number
  timeoutMs: number
}

export const DEFAULT_PDF_LIMITS: PdfLimits = {
  maxBytes: 5 * 1024 * 1024,
  maxPages: 10,
  maxChars: 30_000,
  timeoutMs: 10_000,
}

export type PdfTextResult = { ok: true; text: string; pages: number; truncated: boolean } | { ok: false; reason: string }

type TextItem = { str?: string; hasEOL?: boolean }

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`
}

/** The text of a PDF's first pages. Never throws. */
export async function pdfText(bytes: Uint8Array, limits: Partial<PdfLimits> = {}): Promise<PdfTextResult> {
  const { maxBytes, maxPages, maxChars, timeoutMs } = { ...DEFAULT_PDF_LIMITS, ...limits }
  if (bytes.byteLength > maxBytes) return { ok: false, reason: `the PDF is ${formatBytes(bytes.byteLength)}; the limit is ${formatBytes(maxBytes)}` }
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<PdfTextResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: `PDF text took longer than ${timeoutMs} ms` }), timeoutMs)
  })
  try {
    return await Promise.race([read(bytes, maxPages, maxChars), timeout])
  } catch (error) {
    return { ok: false, reason: `unreadable PDF: ${error instanceof Error ? error.message : String(error)}` }
  } finally {
    clearTimeout(timer)
  }
}

async function read(bytes: Uint8Array, maxPages: number, maxChars: number): Promise<PdfTextResult> {
  // Loaded on first use: pdf.js is large and only full_ai with attachments needs it.
  const { getDocumentProxy } = await import('unpdf')
  // pdf.js may detach the buffer it is given, so it gets a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 })
  try {
    const pages = Math.min(pdf.numPages, maxPages)
    let text = ''
    for (let n = 1; n <= pages && text.length < maxChars; n++) {
      const page = await pdf.getPage(n)
      const content = await page.getTextContent()
      for (const item of content.items as TextItem[]) {
        if (item.str) text += item.str
        if (item.hasEOL) text += '\n'
      }
      text += '\n\n'
    }
    const truncated = pdf.numPages > pages || text.length > maxChars
    return { ok: true, text: text.slice(0, maxChars).trim(), pages, truncated }
  } finally {
    await pdf.destroy()
  }
}
