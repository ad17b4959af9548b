import { cellBounds, cellsOf, cleanValue, lineText, type Doc } from '../../doc'
import { cellClass, hasDigit, type CellClass } from '../../shapes'
import { skipGap, squash, tokenIndex, wordsOf } from '../anchors'
import { acceptable, applyExtent } from '../extent'
import { overlaps, type Span } from '../spans'
import type { Extent, FieldTemplate, Rule, RuleHandler } from '../types'
import { withoutPenalty } from './candidates'

function applyColumn(doc: Doc, rule: Extract<Rule, { kind: 'column' }>, field: FieldTemplate): string | null {
  const lines = doc.lineStart.length
  // Only lines holding the header's first word can be the header.
  const firstWord = rule.header.find((h) => h !== '')?.split(' ')[0]
  const candidates = firstWord ? (tokenIndex(doc).get(firstWord) ?? []).map((i) => doc.tokens[i]!.line) : []
  let previous = -1
  for (const h of candidates) {
    if (h === previous) continue
    previous = h
    const cells = cellsOf(doc, h)
    if (cells.length !== rule.header.length) continue
    if (!cells.every((c, i) => normCell(c) === rule.header[i])) continue
    const values: string[] = []
    for (let l = h + 1; l < lines; l++) {
      const row = cellsOf(doc, l)
      if (!rowFits(row, rule.signature)) break
      const cellStart = doc.lineStart[l]! + row.slice(0, rule.column).reduce((n, c) => n + c.length + 1, 0)
      const start = skipGap(doc, cellStart, '')
      if (start < 0) break
      const got = applyExtent(doc, start, rule.extent, field)
      const value = got ? cleanValue(got.value) : ''
      if (!acceptable(value, field)) break
      values.push(value)
    }
    if (values.length > 0) return values.join('\n')
  }
  return null
}

function normCell(cell: string): string {
  return wordsOf(cell).join(' ')
}

function rowFits(row: readonly string[], signature: CellClass[]): boolean {
  if (row.length !== signature.length) return false
  for (let i = 0; i < row.length; i++) {
    const want = signature[i]!
    const got = cellClass(row[i]!)
    if (want === 'num' && got !== 'num') return false
    if (want === 'empty' && got !== 'empty') return false
    if (want === 'text' && got === 'empty') return false
  }
  return true
}

export function learnColumn(doc: Doc, span: Span, field: FieldTemplate, variable: Span[], extents: Extent[]): Rule | null {
  const cell = cellBounds(doc, span[0])
  if (cell.count < 2) return null
  const lead = doc.text.slice(cell.start, span[0])
  if (lead.trim() !== '') return null
  const extent = extents.find((e) => e.kind !== 'lines')
  if (!extent) return null
  const row = cellsOf(doc, cell.line)
  const signature = row.map(cellClass)
  // Two-column rows of text are key–value tables, not line items: line items there carry a number.
  if (row.length < 3 && !signature.includes('num')) return null
  // 'Total | | $210.01' under 'Tax | | $16.01' is a summary (label, gap, value), not a line item.
  if (row.slice(0, cell.index).some((c) => c.trim() === '')) return null
  for (let h = cell.line - 1; h >= 0 && h >= cell.line - 40; h--) {
    const cells = cellsOf(doc, h)
    if (cells.length !== row.length || lineText(doc, h) === '') return null
    const isHeader = cells.every((c) => c.trim() === '' || (!hasDigit(c) && c.length <= 40)) && cells.some((c) => c.trim() !== '')
    if (isHeader && !overlaps(variable, doc.lineStart[h]!, doc.lineEnd[h]!)) {
      const rule: Rule = { kind: 'column', header: cells.map(normCell), column: cell.index, signature, extent }
      const got = applyColumn(doc, rule, field)
      if (got === null) return null
      const want = squash(doc.text.slice(span[0], span[1]))
      return got.split('\n').some((v) => squash(v) === want) ? rule : null
    }
    if (!rowFits(cells, signature)) return null
  }
  return null
}

export const columnRule: RuleHandler<'column'> = {
  baseConfidence: 0.95,
  apply: (doc, rule, field) => withoutPenalty(applyColumn(doc, rule, field)),
  describe: (rule) => `column:"${rule.header[rule.column]}"`,
}
