import { cellBounds, cellsOf, cleanValue, lineOf, type Doc } from '../../doc'
import { hasDigit } from '../../shapes'
import { sameValue, tokenIndex, wordsOf } from '../anchors'
import { acceptable, applyExtent } from '../extent'
import { overlaps, type Span } from '../spans'
import type { Extent, FieldTemplate, Rule, RuleHandler } from '../types'
import { withoutPenalty } from './candidates'

/**
 * A key in a row of keys with the values in the row under it, cell under cell (a card laid out as
 * a grid: `Phone | Location` over `+49 … | Berlin`). The value is the cell under the key's cell,
 * wherever the key's cell is: a grid whose optional cells come and go moves keys and values
 * together, so reading by the key, not by the row or the column, keeps each value with its key.
 */
type StackedRule = Extract<Rule, { kind: 'stacked' }>

/** At most this many words in a key cell. */
const MAX_KEY_WORDS = 6

/** The cells reading as the key, each as its line and cell index. */
function keyCells(doc: Doc, key: string[]): Array<{ line: number; cell: number }> {
  const out: Array<{ line: number; cell: number }> = []
  const joined = key.join(' ')
  const seen = new Set<number>()
  for (const i of tokenIndex(doc).get(key[0]!) ?? []) {
    const line = doc.tokens[i]!.line
    if (seen.has(line) || !doc.lineTab[line]) continue
    seen.add(line)
    cellsOf(doc, line).forEach((c, cell) => {
      if (wordsOf(c).join(' ') === joined) out.push({ line, cell })
    })
  }
  return out.sort((a, b) => a.line - b.line || a.cell - b.cell)
}

/** Where the cell under (line, cell) starts, when the next line is a row of as many cells. */
function cellBelow(doc: Doc, line: number, cell: number): number {
  const next = line + 1
  if (next >= doc.lineStart.length || !doc.lineTab[next]) return -1
  const keys = cellsOf(doc, line)
  const cells = cellsOf(doc, next)
  if (cells.length !== keys.length || (cells[cell] ?? '').trim() === '') return -1
  let p = doc.lineStart[next]! + cells.slice(0, cell).reduce((n, c) => n + c.length + 1, 0)
  while (p < doc.lineEnd[next]! && doc.text[p] === ' ') p++
  return p
}

function applyStacked(doc: Doc, rule: StackedRule, field: FieldTemplate): string | null {
  const values: string[] = []
  for (const { line, cell } of keyCells(doc, rule.key)) {
    const start = cellBelow(doc, line, cell)
    if (start < 0) continue
    const got = applyExtent(doc, start, rule.extent, field)
    if (!got || got.missed) continue
    const value = cleanValue(got.value)
    if (acceptable(value, field)) values.push(value)
  }
  return values[rule.ordinal] ?? null
}

export function learnStacked(doc: Doc, span: Span, field: FieldTemplate, variable: Span[], extents: Extent[]): Rule | null {
  const line = lineOf(doc, span[0])
  if (line === 0 || !doc.lineTab[line] || lineOf(doc, span[1]) !== line) return null
  const bounds = cellBounds(doc, span[0])
  if (doc.text.slice(bounds.start, span[0]).trim() !== '') return null
  const above = line - 1
  if (!doc.lineTab[above] || overlaps(variable, doc.lineStart[above]!, doc.lineEnd[above]!)) return null
  const keys = cellsOf(doc, above)
  if (keys.length !== cellsOf(doc, line).length) return null
  const key = wordsOf(keys[bounds.index] ?? '')
  if (key.length === 0 || key.length > MAX_KEY_WORDS || key.some(hasDigit)) return null
  for (const extent of extents) {
    const sameKey = keyCells(doc, key)
    const ordinal = sameKey.findIndex((k) => k.line === above && k.cell === bounds.index)
    if (ordinal < 0) continue
    const rule: Rule = { kind: 'stacked', key, ordinal, extent }
    if (sameValue(applyStacked(doc, rule, field), doc.text.slice(span[0], span[1]))) return rule
  }
  return null
}

export const stackedRule: RuleHandler<'stacked'> = {
  baseConfidence: 0.9,
  apply: (doc, rule, field) => withoutPenalty(applyStacked(doc, rule, field)),
  describe: (rule) => `stacked:"${rule.key.join(' ')}"`,
}
