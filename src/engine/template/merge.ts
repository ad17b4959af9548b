import type { ExtractionField } from '../../shared/contracts/extraction'
import { cleanValue, lineText, type Doc } from '../doc'
import { detectShape, fitsShape } from '../shapes'
import { squash, wordsOf } from './anchors'
import { applyRule } from './apply'
import { learnTemplate } from './learn'
import { ITEM_RULE_KINDS, readsItems } from './rules/registry'
import type { Span } from './spans'
import type { Docs, FieldTemplate, Rule, Template, View } from './types'

/** Above this many lines, bodies are not compared line by line (the comparison is quadratic). */
const MAX_DIFF_LINES = 1500

/**
 * The words of `a` that `b` shows differently: lines are matched by their text (a longest common
 * subsequence), the unmatched lines between two matches are paired in order when both sides have as
 * many, and a paired line's words that its partner lacks are data (`Paris 75002` / `Lyon 69001`).
 */
export function varyingSpans(a: Doc, b: Doc): Span[] {
  const linesOf = (d: Doc) => {
    const out: number[] = []
    for (let l = 0; l < d.lineStart.length; l++) if (d.lineEnd[l]! > d.lineStart[l]!) out.push(l)
    return out
  }
  const la = linesOf(a)
  const lb = linesOf(b)
  if (la.length > MAX_DIFF_LINES || lb.length > MAX_DIFF_LINES) return []
  const ta = la.map((l) => lineText(a, l))
  const tb = lb.map((l) => lineText(b, l))
  const n = la.length
  const m = lb.length
  // lcs[i][j]: the longest common run of lines of a[i..] and b[j..].
  const lcs = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1))
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = ta[i] === tb[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!)
  const out: Span[] = []
  const pairGap = (i0: number, i1: number, j0: number, j1: number) => {
    if (i1 - i0 !== j1 - j0) return
    for (let k = 0; k < i1 - i0; k++) {
      const words = new Map<string, number>()
      for (const w of wordsOf(tb[j0 + k]!)) words.set(w, (words.get(w) ?? 0) + 1)
      const line = la[i0 + k]!
      for (let t = a.lineToken[line]!; t < a.tokens.length && a.tokens[t]!.line === line; t++) {
        const token = a.tokens[t]!
        if (!token.word) continue
        const left = words.get(token.norm) ?? 0
        if (left > 0) words.set(token.norm, left - 1)
        else out.push([token.start, token.end])
      }
    }
  }
  let i = 0
  let j = 0
  let gi = 0
  let gj = 0
  while (i < n && j < m) {
    if (ta[i] === tb[j]) {
      pairGap(gi, i, gj, j)
      i++
      j++
      gi = i
      gj = j
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) i++
    else j++
  }
  pairGap(gi, n, gj, m)
  return out
}

/** One sample as the learner reads it: its rendered bodies and the values highlighted in it. */
export type LearningSample = { docs: Docs; fields: ExtractionField[] }

const VIEWS: View[] = ['html', 'text', 'subject']

/** Whether a rule gives, on a sample, what the user highlighted there (a line item: its first item), or nothing where nothing was. */
function agrees(rule: Rule, field: FieldTemplate, sample: LearningSample, view: View, items: boolean): boolean | null {
  const doc = sample.docs[view]
  if (!doc) return null
  const want = sample.fields.find((f) => f.name === field.name)
  const got = applyRule(doc, rule, field)
  if (!want) return got === null
  if (!got) return false
  const value = squash(cleanValue(want.value))
  // A line-item field is highlighted by one of its items; any other field is the whole value.
  if (!items) return squash(got.value) === value
  return (got.items ?? got.value.split('\n')).some((v) => squash(v) === value)
}

/** The field's shape over every sample's value: a shape the samples disagree on is loosened to text. */
function mergedShape(field: FieldTemplate, samples: LearningSample[]): Pick<FieldTemplate, 'shape' | 'shapeOptions'> {
  for (const sample of samples.slice(1)) {
    const value = sample.fields.find((f) => f.name === field.name)?.value
    if (value === undefined) continue
    if (fitsShape(cleanValue(value), field.shape, field.shapeOptions)) continue
    const other = detectShape(value, field.type)
    // A number in one sample and a reference in the other: a reference of any form.
    if ((field.shape === 'id' || field.shape === 'number') && (other.shape === 'id' || other.shape === 'number')) return { shape: 'id', shapeOptions: {} }
    // Another shape in another sample: the first sample's stays, so values are still checked.
    if (other.shape !== field.shape) return { shape: field.shape, shapeOptions: field.shapeOptions }
    // Ids of two forms (`123456789012`, `1Z999AA10123456784`) keep no skeleton of their own.
    if (field.shape === 'id' && other.options.skeleton !== field.shapeOptions.skeleton) return { shape: 'id', shapeOptions: {} }
  }
  return { shape: field.shape, shapeOptions: field.shapeOptions }
}

/**
 * Learns from several samples of one sender: each sample's rules are candidates, and a rule is
 * kept when it reads every sample as the user highlighted it (and reads nothing where a sample
 * has no such value). Text that differs between the samples fails that test wherever a rule used
 * it as an anchor, so what varies is never an anchor. Fixed lines are those any sample shows.
 * With one sample this is `learnTemplate`.
 */
export function learnFromSamples(samples: LearningSample[]): Template {
  const learned = samples.map((s, i) => {
    const varying: Partial<Record<View, Span[]>> = {}
    for (const view of ['html', 'text'] as const) {
      const doc = s.docs[view]
      if (!doc) continue
      varying[view] = samples.flatMap((other, j) => (j !== i && other.docs[view] ? varyingSpans(doc, other.docs[view]!) : []))
    }
    return learnTemplate(s.docs, s.fields, varying)
  })
  const base = learned[0]!
  if (samples.length === 1) return base
  // Which fields are line items is the first sample's own say: text made variable by the other
  // samples can make any lines look alike, and a list learned from that is no evidence of items.
  const alone = learnTemplate(samples[0]!.docs, samples[0]!.fields)
  const fields = base.fields.map((field) => {
    const merged: FieldTemplate = { ...field, ...mergedShape(field, samples), rules: {} }
    for (const view of VIEWS) {
      const aloneRules = alone.fields.find((f) => f.name === field.name)?.rules[view] ?? []
      const items = aloneRules.some((r) => ITEM_RULE_KINDS.has(r.kind))
      // A field the first sample shows as items (more than one) is read as items: a rule for one
      // value that another sample's view adds (a label that finds the first of the items) would
      // read the first item alone and call it the field, as a sample of one item cannot contradict.
      const itemsOnly = aloneRules.some(readsItems)
      const aloneKeys = new Set(aloneRules.map((r) => JSON.stringify(r)))
      const seen = new Set<string>()
      const candidates: Rule[] = []
      const fromFirst = new Set<Rule>()
      // The first sample learned alone counts as the first sample too: a label the other samples
      // never show (`Late fee`, on an optional line) looks like data beside them, yet its rule still
      // has to read every sample as highlighted (nothing where a sample shows no such value).
      for (const template of [base, alone, ...learned.slice(1)]) {
        for (const rule of template.fields.find((f) => f.name === field.name)?.rules[view] ?? []) {
          const key = JSON.stringify(rule)
          // A field the first sample showed as one value never becomes a list from another sample.
          if (!items && ITEM_RULE_KINDS.has(rule.kind)) continue
          if (itemsOnly && !ITEM_RULE_KINDS.has(rule.kind) && !aloneKeys.has(key)) continue
          if (!seen.has(key)) {
            seen.add(key)
            candidates.push(rule)
            if (template === base || template === alone) fromFirst.add(rule)
          }
        }
      }
      if (candidates.length === 0) continue
      const scored = candidates.map((rule) => {
        let score = 0
        for (const sample of samples) if (agrees(rule, merged, sample, view, items) !== false) score++
        return { rule, score }
      })
      const best = Math.max(...scored.map((s) => s.score))
      // Rules every sample agrees with, in the order they were learned (anchors before positions).
      // The first sample's rules, when they hold everywhere, are enough: another sample's rules are
      // for what the first sample's could not read (a layout that changed between the samples).
      let kept = scored.filter((s) => s.score === best).map((s) => s.rule)
      const holdsEverywhere = best === samples.length
      if (holdsEverywhere && kept.some((rule) => fromFirst.has(rule))) kept = kept.filter((rule) => fromFirst.has(rule))
      // No rule reads every sample (the layout changed between them): the first sample's rules, then
      // the others' labelled ones. Another sample's unlabelled rule (a landmark's offset, a position)
      // would read its own layout's line in emails of the first layout too.
      else if (!holdsEverywhere) kept = kept.filter((rule) => fromFirst.has(rule) || (rule.kind !== 'landmark' && rule.kind !== 'position'))
      if (kept.length > 0) merged.rules[view] = kept
    }
    return merged
  })
  // A line any sample showed as fixed text is the template's, never a value of a rule without a label.
  const fixed = new Set(learned.flatMap((t) => t.fixed))
  return { ...base, fields, fixed: [...fixed].slice(0, 1000) }
}
