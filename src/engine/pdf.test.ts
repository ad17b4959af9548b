import { describe, expect, it } from 'vitest'
import { pdfText } from './pdf'
import { makePdf } from './testing/pdf-fixture'

describe('pdfText', () => {
  const pdf = makePdf([['Invoice INV-2024-0042', 'Amount due: $1,234.56'], ['Terms: 30 days']])

  it('reads the text of every page, line by line', async () => {
    expect(await pdfText(pdf)).toEqual({ ok: true, text: 'Invoice INV-2024-0042\nAmount due: $1,234.56\n\nTerms: 30 days', pages: 2, truncated: false })
  })

  it('stops at the page limit and says it cut the document', async () => {
    expect(await pdfText(pdf, { maxPages: 1 })).toEqual({ ok: true, text: 'Invoice INV-2024-0042\nAmount due: $1,234.56', pages: 1, truncated: true })
  })

  it('refuses a PDF over the size limit without reading it', async () => {
    expect(await pdfText(pdf, { maxBytes: 100 })).toEqual({ ok: false, reason: `the PDF is 1 KB; the limit is 1 KB` })
  })

  it('gives a reason for bytes that are not a PDF', async () => {
    const result = await pdfText(new TextEncoder().encode('%PDF-1.4 this is not really a pdf'))
    expect(result.ok).toBe(false)
    expect(!result.ok && result.reason).toMatch(/^unreadable PDF: /)
  })
})
