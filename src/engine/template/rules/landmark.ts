import { cellBounds, cellsOf, cleanValue, lineOf, lineText, type Doc } from '../../doc'
import { findAnchor, isConstantWord, isLabelLine, lineHasWords, lineWordsOf, sameValue, skipGap, wordsOf } from '../anchors'
import { acceptable, applyExtent } from '../extent'
import type { Span } from '../spans'
import type { Extent, FieldTemplate, Rule, RuleHandler } from '../types'
import { withoutPenalty } from './candidates'

/** What a landmark rule may skip before a value at the start of its line: a number, or quote marks. */
export const LEAD = /^(?:\S*\d\S*|[^\p{L}\p{N}\s]{1,3})$/u
const LEAD_SKIP = /^(?:\S*\d\S*\s+|[^\p{L}\p{N}\s]{1,3}\s*)/u

export function findLandmarks(doc: Doc, landmark: string[], prefix = false): number[] {
  const out: number[] = []
  const key = landmark.join(' ')
  let previous = -1
  for (const { first } of findAnchor(doc, landmark)) {
    const line = doc.tokens[first]!.line
    if (line === previous) continue
    previous = line
    if (prefix) {
      // The words open the line: nothing but punctuation before them.
      if (doc.lineToken[line] !== first && doc.tokens.slice(doc.lineToken[line], first).some((t) => t.word)) continue
      out.push(line)
      continue
    }
    // A landmark is a short line of its own; long lines are never compared word by word.
    if (doc.lineEnd[line]! - doc.lineStart[line]! > 300) continue
    if (wordsOf(lineText(doc, line)).join(' ') === key) out.push(line)
  }
  return out
}

/**
 * A line that can anchor what follows it: a line of fixed text, or one that opens with fixed words
 * and goes on with a value (`Delivered to: 12 Main St`), which then anchors by those words.
 */
export function landmarkOf(doc: Doc, line: number, variable: Span[]): { words: string[]; prefix: boolean } | null {
  const text = lineText(doc, line)
  if (isLabelLine(text, doc, line, variable)) {
    const words = wordsOf(text)
    return words.length > 0 && words.length <= 8 ? { words, prefix: false } : null
  }
  const words: string[] = []
  for (let i = doc.lineToken[line]!; i < doc.tokens.length && words.length < 6; i++) {
    const t = doc.tokens[i]!
    if (t.line !== line) break
    if (!t.word) continue
    if (!isConstantWord(doc, i, variable)) break
    words.push(t.norm)
  }
  return words.length >= 1 && words.length <= 5 ? { words, prefix: true } : null
}

/** The line `offset` non-blank lines below `line`, or -1. */
export function lineBelow(doc: Doc, line: number, offset: number): number {
  let l = line
  let n = 0
  while (n < offset) {
    l++
    if (l >= doc.lineStart.length) return -1
    if (lineText(doc, l) !== '') n++
  }
  return l
}

export function startOfCell(doc: Doc, line: number, cell: number, skipLead = false): number {
  const cells = cellsOf(doc, line)
  if (cell >= cells.length) return -1
  const start = doc.lineStart[line]! + cells.slice(0, cell).reduce((n, c) => n + c.length + 1, 0)
  let p = skipGap(doc, start, '')
  if (skipLead && p >= 0) {
    // A leading number (`75002 Paris`) or quote mark: the value starts after it.
    const m = LEAD_SKIP.exec(doc.text.slice(p, Math.min(doc.lineEnd[line]!, p + 40)))
    if (!m) return -1
    p += m[0].length
  }
  return p
}

function applyLandmark(doc: Doc, rule: Extract<Rule, { kind: 'landmark' }>, field: FieldTemplate): string | null {
  const landmarks = findLandmarks(doc, rule.landmark, rule.prefix)
  const ordered = rule.ordinal < landmarks.length ? [landmarks[rule.ordinal]!, ...landmarks] : landmarks
  for (const lm of ordered) {
    const line = lineBelow(doc, lm, rule.offset)
    if (line < 0) continue
    const start = startOfCell(doc, line, rule.cell, rule.skipLead)
    if (start < 0 || lineOf(doc, start) !== line || !lineHasWords(doc, line, rule.lineWords)) continue
    const got = applyExtent(doc, start, rule.extent, field)
    // Without a label, the word that ended the value is the only check that this is the right line.
    if (got?.missed) continue
    const value = got ? cleanValue(got.value) : ''
    if (acceptable(value, field)) return value
  }
  return null
}

export function learnLandmarks(doc: Doc, span: Span, field: FieldTemplate, variable: Span[], extents: Extent[]): Rule[] {
  const line = lineOf(doc, span[0])
  const cell = cellBounds(doc, span[0])
  const lead = doc.text.slice(cell.start, span[0]).trim()
  const skipLead = lead !== ''
  if (skipLead && !LEAD.test(lead)) return []
  // Words before the value are its line's label; words after it belong to the next value.
  const lineWords = lineWordsOf(doc, line, span, variable, true)
  const rules: Rule[] = []
  let offset = 0
  for (let l = line - 1; l >= 0 && l >= line - 8 && rules.length < 2; l--) {
    const text = lineText(doc, l)
    if (text === '') continue
    offset++
    const anchor = landmarkOf(doc, l, variable)
    if (!anchor) continue
    const landmark = anchor.words
    const ordinal = findLandmarks(doc, landmark, anchor.prefix).indexOf(l)
    if (ordinal < 0) continue
    for (const extent of extents) {
      const rule: Rule = { kind: 'landmark', landmark, ...(anchor.prefix ? { prefix: true } : {}), ordinal, offset, cell: cell.index, extent, lineWords, skipLead }
      if (sameValue(applyLandmark(doc, rule, field), doc.text.slice(span[0], span[1]))) {
        rules.push(rule)
        break
      }
    }
  }
  return rules
}

export const landmarkRule: RuleHandler<'landmark'> = {
  baseConfidence: 0.7,
  apply: (doc, rule, field) => withoutPenalty(applyLandmark(doc, rule, field)),
  describe: (rule) => `landmark:"${rule.landmark.join(' ')}"+${rule.offset}`,
}
