import { cleanValue, lineOf, type Doc } from '../../doc'
import { cellStart, DEFAULT_SKIP, findAnchor, gapIsStrong, isSpace, lineHasWords, lineWordsOf, sameValue, startsLineOrCell, wordsAfter } from '../anchors'
import { acceptable } from '../extent'
import { fitsShape } from '../../shapes'
import type { Span } from '../spans'
import type { FieldTemplate, Rule, RuleHandler } from '../types'
import { bestFitting, pick, type Candidate } from './candidates'

/** Shapes whose one token is found again by its form before the words that follow it. */
const TOKEN_SHAPES = new Set(['email', 'url'])
const OPENERS = '([{<"\'“‘«'
const CLOSERS = ')]}>"\'”’»,;'

function suffixCandidates(doc: Doc, rule: Extract<Rule, { kind: 'suffix' }>, field: FieldTemplate): Candidate[] {
  const out: Candidate[] = []
  for (const { first } of findAnchor(doc, rule.anchor)) {
    const anchorStart = doc.tokens[first]!.start
    let end = anchorStart
    while (end > 0 && (isSpace(doc.text.charCodeAt(end - 1)) || DEFAULT_SKIP.includes(doc.text[end - 1]!))) end--
    if (end <= 0) continue
    const line = lineOf(doc, end - 1)
    if (line !== doc.tokens[first]!.line || !lineHasWords(doc, line, rule.lineWords)) continue
    if (rule.token) while (end > 0 && CLOSERS.includes(doc.text[end - 1]!)) end--
    let start = cellStart(doc, Math.max(0, end - 1))
    if (rule.token) {
      // The one token before the words, without the brackets or quotes around it.
      start = end
      while (start > 0 && !isSpace(doc.text.charCodeAt(start - 1)) && doc.text[start - 1] !== '\t') start--
      while (start < end && OPENERS.includes(doc.text[start]!)) start++
    }
    const value = cleanValue(doc.text.slice(start, end))
    if (!acceptable(value, field) || (rule.token && !fitsShape(value, field.shape, field.shapeOptions))) continue
    const fit = gapIsStrong(doc.text.slice(end, anchorStart)) === rule.strongGap ? 1 : 0
    out.push({ start, value, fit })
  }
  return out
}

export function learnSuffix(doc: Doc, span: Span, field: FieldTemplate, variable: Span[]): Rule | null {
  const after = wordsAfter(doc, span[1], variable)
  const line = lineOf(doc, span[0])
  // A suffix is a word on the value's own line (`3 items`, `$25.00 due`); the next line is a landmark's job.
  const sameLine = after.filter((i) => doc.tokens[i]!.line === line)
  if (sameLine.length === 0) return null
  const gap = doc.text.slice(span[1], doc.tokens[sameLine[0]!]!.start)
  if (/[\p{L}\p{N}]/u.test(gap)) return null
  // The value must start its line or cell, where the rule starts it again; or be one token of a
  // distinctive shape (an email address in parentheses mid-sentence), found again by that shape.
  const token = !startsLineOrCell(doc, span[0])
  if (token && (!TOKEN_SHAPES.has(field.shape) || /\s/.test(doc.text.slice(span[0], span[1])))) return null
  const lineWords = token ? [] : lineWordsOf(doc, line, span, variable)
  for (let n = 1; n <= sameLine.length; n++) {
    const rule: Extract<Rule, { kind: 'suffix' }> = {
      kind: 'suffix',
      anchor: sameLine.slice(0, n).map((i) => doc.tokens[i]!.norm),
      ordinal: 0,
      strongGap: gapIsStrong(gap),
      lineWords,
      ...(token ? { token: true as const } : {}),
    }
    const candidates = suffixCandidates(doc, rule, field)
    const group = bestFitting(candidates)
    const ordinal = group.findIndex((c) => c.start <= span[0] && sameValue(c.value, doc.text.slice(span[0], span[1])))
    if (ordinal >= 0) {
      rule.ordinal = ordinal
      return rule
    }
  }
  return null
}

export const suffixRule: RuleHandler<'suffix'> = {
  baseConfidence: 0.8,
  apply(doc, rule, field) {
    const picked = pick(suffixCandidates(doc, rule, field), rule.ordinal)
    if (!picked) return null
    return { value: picked.candidate.value, penalty: (1 - Math.min(1, picked.fit)) * 0.1 }
  },
  describe: (rule) => `before:"${rule.anchor.join(' ')}"`,
}
