import { cleanValue, lineOf, lineText, tokenAt, type Doc } from '../../doc'
import { CELL_LINE_SEPARATOR } from '../../html-to-text'
import { isStrong } from '../../shapes'
import { cellEnd, DEFAULT_SKIP, findAnchor, gapIsStrong, sameValue, skipGap, startsLineOrCell, TITLE_BEFORE, tokensAfter, WILDCARD, wordsBefore } from '../anchors'
import { acceptable, applyExtent } from '../extent'
import type { Span } from '../spans'
import type { Extent, FieldTemplate, Rule, RuleHandler } from '../types'
import { bestFitting, pick, type Candidate } from './candidates'

/** `José O'Connor`, `Siobhán Ní Dhuibhir`, `Jean-Luc van der Berg`: a name, not a label. */
function looksLikeName(line: string): boolean {
  const words = line.trim().split(/\s+/)
  if (words.length < 2 || words.length > 4 || /[:\d]/.test(line)) return false
  const capitalised = words.every((w) => /^\p{Lu}/u.test(w) || NAME_PARTICLE.test(w))
  return capitalised && (/[’'\u00C0-\u024F]/u.test(line) || words.some((w) => NAME_PARTICLE.test(w)))
}
const NAME_PARTICLE = /^(?:van|von|de|del|der|da|di|du|la|le|bin|al)$/

/** `Zeta Labs, Inc.`, `Müller & Söhne GmbH`, `Peña Hermanos S.A.`: a company's name ends with its legal form; data, not a label. */
export function looksLikeCompany(line: string): boolean {
  const text = line.trim().replace(/^[•·*–-]\s*/u, '')
  return text.length <= 80 && !/:/.test(text) && /^\p{Lu}/u.test(text) && COMPANY_FORM.test(text)
}
const COMPANY_FORM =
  /[\s,](?:inc|corp|co|ltd|llc|llp|lp|plc|limited|gmbh|ag|kg|ohg|e\.\s?k|ug|s\.?\s?a|s\.?\s?a\.?\s?s|sarl|s\.?\s?l|s\.?\s?r\.?\s?l|s\.?\s?p\.?\s?a|b\.?\s?v|n\.?\s?v|oy|ab|as|a\/s|aps|pty(?:\s+ltd)?|k\.?\s?k|sp\.\s?z\s?o\.\s?o|s\.?\s?a\.?\s?u|ltda|gk)\.?$/iu

/** Two lines that start with the same bullet: items of one list. */
function sameBullet(a: string, b: string): boolean {
  const bullet = BULLET.exec(a)?.[1]
  return bullet !== undefined && BULLET.exec(b)?.[1] === bullet
}
const BULLET = /^\s*([•·▪◦‣*–-])\s/u

/** What may follow a label in its cell: a rate or note in brackets, after a dash or an `@`, or a number (`(8.875%)`, `– CA (7.25%)`, `@ 20%`). */
const QUALIFIER = /^\s*(?:[([]|[-–—@]\s|\d)[^\t]{0,38}$/u

/** An email address the sample showed where the user did not say the field is one: another form may follow its label. */
function formIsLoose(field: FieldTemplate): boolean {
  return field.shape === 'email' && field.type === undefined
}

/** A number of four digits or more without separators (`63914`), where the user gave no type: a reference, whose next form may be `2023-78526`. */
function idLikeNumber(field: FieldTemplate): boolean {
  return field.shape === 'number' && field.type === undefined && /^\d{4,}$/.test(field.sampleValue)
}

function labelCandidates(doc: Doc, rule: Extract<Rule, { kind: 'label' }>, field: FieldTemplate): Candidate[] {
  const out: Candidate[] = []
  for (const { first, last } of findAnchor(doc, rule.anchor)) {
    const anchorEnd = doc.tokens[last]!.end
    let start = skipGap(doc, anchorEnd, rule.skip)
    if (start < 0) continue
    // A label that filled its cell in the sample (`Tax` ⇥ `$1.64`) may go on here with a rate or a
    // note (`Tax (8.875%)` ⇥ `$140.91`, `Shipping – Express` ⇥ …): the next cell is still its value.
    // Not more words (`Total savings` is another row than `Total`).
    let qualified = false
    if (rule.ownCell && !startsLineOrCell(doc, start)) {
      const end = cellEnd(doc, anchorEnd)
      if (doc.text[end] === '\t' && QUALIFIER.test(doc.text.slice(anchorEnd, end))) {
        start = skipGap(doc, end, rule.skip)
        if (start < 0) continue
        qualified = true
      }
    }
    // The value must follow the label closely: at most the next line, and on the label's own line
    // when the sample's was (`Cost Center PRJ 2026/45`): a label that ends its line here has no
    // value, and the next line is something else (`Purpose Meeting`, the next attribute).
    if (lineOf(doc, start) - doc.tokens[last]!.line > (rule.sameLine ? 0 : 1)) continue
    let got = applyExtent(doc, start, rule.extent, field)
    // `Username:` over an email address in the sample and a handle here: after a label ending in
    // a colon, tab or line break, the cell is the value whatever its form.
    if (!got && rule.extent.kind === 'shape' && rule.strongGap && formIsLoose(field)) got = applyExtent(doc, start, { kind: 'cell' }, field)
    // A reference of another form is one token (`2023-78526`): read as such, not to the cell's end.
    if (!got && rule.extent.kind === 'shape' && rule.strongGap && idLikeNumber(field)) {
      const token = /\S{1,80}(?!\S)/y
      token.lastIndex = start
      const m = token.exec(doc.text)
      if (m) got = { value: m[0], end: start + m[0].length }
    }
    // The bullet that joins a cell's lines (html-to-text): after its label, a value that ended its
    // cell's first line (`Olu de la Cruz` over a `Genius` badge) is the whole cell where the cell
    // has one line.
    if (got?.missed && rule.extent.kind === 'until-punct' && rule.extent.stop === CELL_LINE_SEPARATOR.trim() && !got.value.includes(CELL_LINE_SEPARATOR)) got = { value: got.value, end: got.end }
    // The text that ended the value in the sample is not there: where this value ends is a guess.
    if (!got || got.missed) continue
    const value = cleanValue(got.value)
    let relaxed = false
    if (!acceptable(value, field)) {
      // An id of another form (a branch called `main` where the sample had `release/2.4`) is still
      // taken after a label that ends, as in the sample, in a colon, tab or line break.
      // (An assignee that is a team's name where the sample's was an address: the cell, spaces and all.)
      const words = /\s/.test(value) && !(formIsLoose(field) && rule.extent.kind === 'shape')
      if (!(field.shape === 'id' || idLikeNumber(field) || formIsLoose(field)) || words || value.length > 80 || !/[\p{L}\p{N}]/u.test(value)) continue
      relaxed = true
    }
    let fit = relaxed || qualified ? -0.5 : 0
    const strong = gapIsStrong(doc.text.slice(anchorEnd, start))
    // Free text after a label that was followed by a colon, tab or line break needs one here too.
    if (rule.strongGap && !strong && (!isStrong(field.shape) || relaxed)) continue
    if (strong === rule.strongGap) fit++
    if (startsLineOrCell(doc, doc.tokens[first]!.start) === rule.atStart) fit++
    const after = tokensAfter(doc, got.end, rule.after.length || 1, [])
    if (rule.after.length === 0 ? got.end >= cellEnd(doc, got.end) || after.length === 0 : rule.after.every((w, k) => after[k] === w)) fit++
    out.push({ start, value, fit })
  }
  return out
}

export function learnLabel(doc: Doc, span: Span, field: FieldTemplate, variable: Span[], extents: Extent[]): Rule | null {
  const before = wordsBefore(doc, span[0], variable)
  if (before.length === 0) return null
  // A title right before a name (`Ms Ngozi Álvarez`, `Dear Mr …`) changes with the person: no
  // label ends with it, and the words before it would read the next person's title as the name.
  if (TITLE_BEFORE.test(doc.text.slice(doc.lineStart[lineOf(doc, span[0])]!, span[0]))) return null
  // The gap between the label (its last word, or the wildcard) and the value holds only separators.
  let gapStart = span[0]
  for (let i = tokenAt(doc, span[0]) - 1; i >= 0; i--) {
    if (doc.tokens[i]!.word) {
      gapStart = doc.tokens[i]!.end
      break
    }
  }
  const gap = doc.text.slice(gapStart, span[0])
  if (/[\p{L}\p{N}]/u.test(gap)) return null
  const lead = doc.text[span[0]]!
  const previousWord = doc.text.slice(0, span[0]).match(/(\p{L}+)[^\p{L}\p{N}]*$/u)?.[1] ?? ''
  const codeBefore = /^\p{Lu}{1,3}$/u.test(previousWord)
  const skip = [...new Set((DEFAULT_SKIP + gap.replace(/[\s\p{L}\p{N}]/gu, '')).split(''))].filter((c) => c !== lead).join('')
  const ce = cellEnd(doc, span[1])
  const afterTokens = span[1] >= ce ? [] : tokensAfter(doc, span[1], 2, variable)
  let best: Rule | null = null
  let bestScore = Infinity
  for (const extent of extents) {
    for (let n = 1; n <= before.length; n++) {
      const anchor = before.slice(before.length - n)
      if (anchor[0] === WILDCARD) continue
      // A code right before the value, with only a space between (`3511 LN Utrecht`, `Austin, TX 78701`),
      // is part of the data: a label ends in a colon, a tab or a line break, or is a word.
      if (!gapIsStrong(gap) && codeBefore) continue
      // One letter alone (`as a Viewer`) is an article, found in any `S.A.` or `Plan A`: no label.
      if (n === 1 && anchor[0]!.length === 1 && /\p{L}/u.test(anchor[0]!)) continue
      const rule: Extract<Rule, { kind: 'label' }> = {
        kind: 'label',
        anchor,
        ordinal: 0,
        skip,
        extent,
        strongGap: gapIsStrong(gap),
        atStart: false,
        after: afterTokens,
        ...(gap.includes('\t') ? { ownCell: true as const } : {}),
        ...(gap.includes('\n') ? {} : { sameLine: true as const }),
      }
      const located = findAnchor(doc, anchor).find(({ last }) => doc.tokens[last]!.end <= span[0] && skipGap(doc, doc.tokens[last]!.end, skip) === span[0])
      if (!located) continue
      // A label on the line above is that whole line (`Order number` over `12345`), not its last words.
      const labelLine = doc.tokens[located.first]!.line
      if (labelLine !== lineOf(doc, span[0]) && !startsLineOrCell(doc, doc.tokens[located.first]!.start)) continue
      // …and a line of fixed text: `Unit 7` above a city is the address's line 2, data, not a label.
      if (labelLine !== lineOf(doc, span[0]) && anchor.includes(WILDCARD)) continue
      // …and not a person's name over an address line (`José O'Connor` over `Austin, TX`): a line of
      // two or three capitalised words with an accent or an apostrophe, or a particle, is a name.
      // …nor a company's name over its street, nor a line of the same list as the value's (`• Zeta
      // Labs` over `• 102 Main St`): lines of one block, data nobody highlighted.
      const above = Array.from({ length: lineOf(doc, span[0]) - labelLine }, (_, k) => lineText(doc, labelLine + k))
      if (above.some((l) => looksLikeName(l) || looksLikeCompany(l) || sameBullet(l, lineText(doc, lineOf(doc, span[0]))))) continue
      // A row of cells above is a row of keys over a row of values: the key is the cell right
      // above the value (rules/stacked.ts), not the last word of that row (another cell's key).
      if (labelLine !== lineOf(doc, span[0]) && doc.lineTab[labelLine]) continue
      rule.atStart = startsLineOrCell(doc, doc.tokens[located.first]!.start)
      const candidates = labelCandidates(doc, rule, field)
      const group = bestFitting(candidates)
      const ordinal = group.findIndex((c) => c.start === span[0])
      if (ordinal < 0 || !sameValue(group[ordinal]!.value, doc.text.slice(span[0], span[1]))) continue
      rule.ordinal = ordinal
      rule.count = group.length
      // Best: a whole label (from the start of its line or cell) that finds only this value. A
      // shared word (`number` in Order number and Tracking number) is a last choice.
      const score = ordinal * 100 + Math.min(candidates.length, 9) * 10 + (rule.atStart ? 0 : 5) + n * 0.1
      if (!best || score < bestScore) {
        best = rule
        bestScore = score
      }
    }
  }
  if (best) {
    const core = coreOf(doc, best, span, field)
    if (core) best.core = core
    if (best.kind === 'label' && stemShared(doc, best, field)) best.stemShared = true
  }
  return best
}

/**
 * How many of the label's last words find the value alone when the words before them are a
 * name (`Olu O'Brien left a 4-star review`: `left a`). A name is two capitalised words in a row,
 * or a capitalised word inside a sentence; the label without it is what other emails share.
 */
function coreOf(doc: Doc, rule: Extract<Rule, { kind: 'label' }>, span: Span, field: FieldTemplate): number | undefined {
  const located = findAnchor(doc, rule.anchor).find(({ last }) => skipGap(doc, doc.tokens[last]!.end, rule.skip) === span[0])
  if (!located) return undefined
  const tokens: number[] = []
  for (let t = located.first; t <= located.last; t++) if (doc.tokens[t]!.word) tokens.push(t)
  if (tokens.length !== rule.anchor.length) return undefined
  const capital = (t: number) => /^\p{Lu}/u.test(doc.text.slice(doc.tokens[t]!.start, doc.tokens[t]!.end))
  // A word after the line's start or a sentence's end (`. `, `! `, `· `) may be capitalised as a rule.
  const opensSentence = (t: number) => {
    const before = doc.text.slice(doc.lineStart[doc.tokens[t]!.line]!, doc.tokens[t]!.start)
    return before.trim() === '' || /[.!?:·•|–—]\s*$/u.test(before)
  }
  // The longest ending after the name's last word.
  for (let n = rule.anchor.length - 1; n >= 2; n--) {
    const dropped = tokens.slice(0, tokens.length - n)
    const name = dropped.some((t, k) => capital(t) && ((k > 0 && capital(dropped[k - 1]!)) || !opensSentence(t)))
    if (!name || !capital(dropped[dropped.length - 1]!)) continue
    const anchor = rule.anchor.slice(-n)
    if (anchor[0] === WILDCARD || anchor.every((w) => w.length <= 2)) return undefined
    const group = bestFitting(labelCandidates(doc, { ...rule, anchor, atStart: false }, field))
    if (group.length === 1 && group[0]!.start === span[0]) return n
    return undefined
  }
  return undefined
}

/** The words the rule looks for in this email: the whole label, or its core when a name before it changed. */
export function labelAnchor(doc: Doc, rule: Extract<Rule, { kind: 'label' }>): string[] {
  return !rule.core || findAnchor(doc, rule.anchor).length > 0 ? rule.anchor : labelCore(rule)
}

/** The label's words without the name before them (all of them when it has no `core`). */
export function labelCore(rule: Extract<Rule, { kind: 'label' }>): string[] {
  return rule.core ? rule.anchor.slice(-rule.core) : rule.anchor
}

function stemApplies(rule: Extract<Rule, { kind: 'label' }>): boolean {
  return rule.anchor.length >= 2 && rule.atStart && rule.count === 1 && !rule.anchor.includes(WILDCARD) && /^\p{L}{3,}$/u.test(rule.anchor[rule.anchor.length - 1]!)
}

/** The label's words with its last one free (`Amount *` of `Amount Payable`). */
function stemOf(rule: Extract<Rule, { kind: 'label' }>): string[] {
  return [...rule.anchor.slice(0, -1), WILDCARD]
}

/**
 * Whether the sample shows the label's other words before another last word too (`Payment date`
 * beside `Payment reference`): that is another label, which the email keeps when this one is
 * gone, so its value is not this field's.
 */
function stemShared(doc: Doc, rule: Extract<Rule, { kind: 'label' }>, field: FieldTemplate): boolean {
  return stemApplies(rule) && labelCandidates(doc, { ...rule, anchor: stemOf(rule) }, field).length > 1
}

/**
 * A label whose last word changes with the email's case (`Amount Payable` for cash on delivery,
 * `Amount Paid` for a card) where the label as the sample showed it is gone: its other words at the
 * start of a line or cell, then any one word, give the value when they do so once, as the sample's
 * did. Not the sample's evidence, so the field says so.
 */
function byStem(doc: Doc, rule: Extract<Rule, { kind: 'label' }>, field: FieldTemplate): { value: string; penalty: number; cut: string } | null {
  if (!stemApplies(rule) || rule.stemShared) return null
  if (findAnchor(doc, rule.anchor).length > 0) return null
  const stem = stemOf(rule)
  const group = bestFitting(labelCandidates(doc, { ...rule, anchor: stem }, field))
  if (group.length !== 1) return null
  const located = findAnchor(doc, stem).find(({ last: t }) => skipGap(doc, doc.tokens[t]!.end, rule.skip) === group[0]!.start)
  const said = located ? doc.text.slice(doc.tokens[located.first]!.start, doc.tokens[located.last]!.end) : stem.slice(0, -1).join(' ')
  return { value: group[0]!.value, penalty: 0.25, cut: `label "${rule.anchor.join(' ')}" not found; read after "${said}"` }
}

export const labelRule: RuleHandler<'label'> = {
  baseConfidence: 0.92,
  apply(doc, rule, field) {
    const anchor = labelAnchor(doc, rule)
    const core = anchor !== rule.anchor
    const picked = pick(labelCandidates(doc, core ? { ...rule, anchor, atStart: false } : rule, field), rule.ordinal)
    if (!picked) return core ? null : byStem(doc, rule, field)
    // The label gives values in another number of places than in the sample (a repeated block the
    // sample showed once or twice): which one is the field's is no longer known.
    if (rule.count !== undefined && rule.count > 1 && picked.of !== rule.count) return null
    // …and a label the sample showed once that numbers its places (`Room 1:`, `Room 2:`) now gives
    // several: the sample's one block is repeated here, and the first is not the whole answer.
    if (rule.count === 1 && picked.of > 1 && rule.anchor.includes(WILDCARD)) return null
    // …and one the sample showed once at the start of a line, that starts several here (an item's
    // `Barcode:` line where the sample had one item, a second `Service:`): the first is read, and
    // the field says it may not be the whole answer.
    if (rule.count === 1 && picked.of > 1 && rule.atStart) return { value: picked.candidate.value, penalty: 0.3, cut: `the sample showed "${rule.anchor.join(' ')}" once, this email ${picked.of} times` }
    return { value: picked.candidate.value, penalty: Math.max(0, 3 - picked.fit) * 0.08 + (core ? 0.05 : 0) }
  },
  describe: (rule) => `label:"${rule.anchor.join(' ')}"${rule.ordinal > 0 ? `#${rule.ordinal + 1}` : ''}`,
}
