import { cellsOf, cleanValue, lineOf, lineText, type Doc } from '../../doc'
import { hasDigit } from '../../shapes'
import { opensLine, sameValue, tokenIndex, wordsOf } from '../anchors'
import { acceptable, applyExtent } from '../extent'
import type { Span } from '../spans'
import type { Extent, FieldTemplate, Rule, RuleHandler } from '../types'
import { withoutPenalty } from './candidates'

/**
 * A key whose middle varies: `Tax North America 5.0%: $5.00`, then `Tax NY State Sales Tax 8.875%: $8.88`.
 * The key is known by the words it opens with; the value follows the key's colon, or is the next
 * cell. Used when the whole key is longer than its opening words (else the label rule is enough).
 */
type KeyedRule = Extract<Rule, { kind: 'keyed' }>

/** At most this long a key; longer text before a colon is a sentence, not a key. */
const MAX_KEY = 80

/** Where the value starts on a line whose key opens with the rule's words, or -1. */
function valueStart(doc: Doc, line: number, rule: KeyedRule): number {
  const ls = doc.lineStart[line]!
  const text = lineText(doc, line)
  if (rule.cell) {
    if (!doc.lineTab[line]) return -1
    const cells = cellsOf(doc, line)
    if (cells.length < 2 || cells[0]!.length > MAX_KEY) return -1
    let p = ls + cells[0]!.length + 1
    while (p < doc.lineEnd[line]! && /\s/.test(doc.text[p]!)) p++
    return p
  }
  const colon = text.slice(0, MAX_KEY + 1).indexOf(':')
  if (colon < 0) return -1
  let p = ls + colon + 1
  while (p < doc.lineEnd[line]! && (doc.text[p] === ' ' || doc.text[p] === '\t')) p++
  return p < doc.lineEnd[line]! ? p : -1
}

/** Lines whose first words are the key's opening words. */
function keyedLines(doc: Doc, rule: KeyedRule): number[] {
  const out: number[] = []
  for (const i of tokenIndex(doc).get(rule.key[0]!) ?? []) {
    const line = doc.tokens[i]!.line
    if (line === out[out.length - 1]) continue
    if (!opensLine(doc, i)) continue
    const words = wordsOf(lineText(doc, line).slice(0, MAX_KEY))
    if (rule.key.every((w, k) => words[k] === w) && out[out.length - 1] !== line) out.push(line)
  }
  return out
}

function applyKeyed(doc: Doc, rule: KeyedRule, field: FieldTemplate): string | null {
  const found = keyedValues(doc, rule, field)
  // Keys whose middle varies, in another number than in the sample (a second tax line, a second
  // guest): which one is the field's is not known.
  if (rule.count !== undefined && found.length !== rule.count) return null
  return found[rule.ordinal] ?? null
}

function keyedValues(doc: Doc, rule: KeyedRule, field: FieldTemplate): string[] {
  const found: string[] = []
  for (const line of keyedLines(doc, rule)) {
    const start = valueStart(doc, line, rule)
    if (start < 0) continue
    const got = applyExtent(doc, start, rule.extent, field)
    if (!got || got.missed) continue
    const value = cleanValue(got.value)
    if (acceptable(value, field)) found.push(value)
  }
  return found
}

export function learnKeyed(doc: Doc, span: Span, field: FieldTemplate, extents: Extent[]): KeyedRule | null {
  const line = lineOf(doc, span[0])
  if (lineOf(doc, span[1]) !== line) return null
  const ls = doc.lineStart[line]!
  const before = doc.text.slice(ls, span[0])
  const parts = before.split('\t')
  const cell = doc.lineTab[line] === true && parts.length === 2 && parts[1]!.trim() === ''
  const key = cell ? parts[0]! : before.replace(/:\s*$/, '')
  if (!cell && !/:\s*$/.test(before)) return null
  if (key.length > MAX_KEY || key.trim() === '') return null
  const words = wordsOf(key)
  // Only a key whose words go beyond its opening ones needs this rule; a number in it shows a middle that varies.
  if (words.length < 3 || !words.slice(1).some((w) => hasDigit(w) || w.length <= 3)) return null
  if (hasDigit(words[0]!)) return null
  for (const n of [1, 2]) {
    for (const extent of extents) {
      const rule: KeyedRule = { kind: 'keyed', key: words.slice(0, n), cell, ordinal: 0, extent }
      const lines = keyedLines(doc, rule)
      const at = lines.indexOf(line)
      if (at < 0) continue
      rule.ordinal = lines.slice(0, at).filter((l) => valueStart(doc, l, rule) >= 0).length
      rule.count = keyedValues(doc, rule, field).length
      if (sameValue(applyKeyed(doc, rule, field), doc.text.slice(span[0], span[1]))) return rule
    }
  }
  return null
}

export const keyedRule: RuleHandler<'keyed'> = {
  baseConfidence: 0.85,
  apply: (doc, rule, field) => withoutPenalty(applyKeyed(doc, rule, field)),
  describe: (rule) => `key:"${rule.key.join(' ')} …"`,
}
