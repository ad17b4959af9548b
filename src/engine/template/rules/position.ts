import { cellBounds, cleanValue, lineOf, lineText, type Doc } from '../../doc'
import { lineHasWords, lineWordsOf, sameValue } from '../anchors'
import { acceptable, applyExtent, isProse } from '../extent'
import type { Span } from '../spans'
import type { Extent, FieldTemplate, Rule, RuleHandler } from '../types'
import { withoutPenalty } from './candidates'
import { LEAD, lineBelow, startOfCell } from './landmark'

/** A value is read by its line number only among the email's first lines. */
const MAX_POSITION_LINES = 4

function applyPosition(doc: Doc, rule: Extract<Rule, { kind: 'position' }>, field: FieldTemplate): string | null {
  const line = lineBelow(doc, -1, rule.line + 1)
  if (line < 0) return null
  const start = startOfCell(doc, line, rule.cell, rule.skipLead)
  if (start < 0 || lineOf(doc, start) !== line || !lineHasWords(doc, line, rule.lineWords)) return null
  const got = applyExtent(doc, start, rule.extent, field)
  if (!got || got.missed) return null
  const value = cleanValue(got.value)
  // A note of sentences in the sample, a name or a word here: the note is absent and its place
  // taken by the line after it (the signature of a reply).
  if (isProse(field.sampleValue) && !isProse(value)) return null
  return acceptable(value, field) ? value : null
}

export function learnPosition(doc: Doc, span: Span, field: FieldTemplate, variable: Span[], extents: Extent[]): Rule | null {
  // A position is trusted only inside the email's first block (a date or a greeting at the top):
  // nothing above it can come and go. Further down, a missing line would shift it onto a neighbour.
  for (let l = 0; l < lineOf(doc, span[0]); l++) if (lineText(doc, l) === '') return null
  const line = lineOf(doc, span[0])
  const cell = cellBounds(doc, span[0])
  const lead = doc.text.slice(cell.start, span[0]).trim()
  const skipLead = lead !== ''
  if (skipLead && !LEAD.test(lead)) return null
  let index = -1
  for (let l = 0; l <= line; l++) if (lineText(doc, l) !== '') index++
  // …and near its top: deep in a long first block (a layout without blank lines) a line that comes
  // and goes above the value shifts it onto a neighbour just the same.
  if (index >= MAX_POSITION_LINES) return null
  const lineWords = lineWordsOf(doc, line, span, variable, true)
  for (const extent of extents) {
    const rule: Rule = { kind: 'position', line: index, cell: cell.index, extent, lineWords, skipLead }
    if (sameValue(applyPosition(doc, rule, field), doc.text.slice(span[0], span[1]))) return rule
  }
  return null
}

export const positionRule: RuleHandler<'position'> = {
  baseConfidence: 0.35,
  apply: (doc, rule, field) => withoutPenalty(applyPosition(doc, rule, field)),
  describe: (rule) => `position:line ${rule.line + 1}`,
}
