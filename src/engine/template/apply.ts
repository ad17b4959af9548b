import type { Doc } from '../doc'
import { CELL_LINE_SEPARATOR } from '../html-to-text'
import { isStrong, sameSkeleton } from '../shapes'
import { anchorShown, findAnchor, squash, WILDCARD } from './anchors'
import { withoutBullets } from './extent'
import { labelAnchor, labelCore } from './rules/label'
import { repeatedLines } from './rules/pattern'
import { ITEM_RULE_KINDS, RULES } from './rules/registry'
import type { Docs, FieldMatch, FieldTemplate, HandlerOf, Rule, View } from './types'

/** Applies one rule; the value and a confidence, or null. */
export function applyRule(doc: Doc, rule: Rule, field: FieldTemplate): FieldMatch | null {
  const handler: HandlerOf<Rule> = RULES[rule.kind]
  const got = handler.apply(doc, rule, field)
  if (got === null) return null
  const value = 'extent' in rule ? withoutBullets(got.value, rule.extent) : got.value
  let confidence = handler.baseConfidence - got.penalty
  if (field.shape === 'id' && !value.includes('\n') && !sameSkeleton(value, field.shapeOptions)) confidence -= 0.1
  if (!isStrong(field.shape) && value.length > field.sampleValue.length * 3 + 40) confidence -= 0.2
  return { value, confidence: Math.max(0.05, Math.min(1, confidence)), rule: describeRule(rule), ...(got.items ? { items: got.items } : {}), ...(got.cut ? { cut: got.cut } : {}) }
}

export function describeRule(rule: Rule): string {
  const handler: HandlerOf<Rule> = RULES[rule.kind]
  return handler.describe(rule)
}

/** Which learned rules to try on which of the target's bodies, best first. Bodies are built on first use. */
function plan(field: FieldTemplate, docs: Docs): Array<[View, Rule[]]> {
  const out: Array<[View, Rule[]]> = []
  const html = 'html' in docs
  const text = 'text' in docs
  const r = field.rules
  if (html && r.html) out.push(['html', r.html])
  if (text && r.text) out.push(['text', r.text])
  if (html && !r.html && r.text) out.push(['html', r.text])
  if (text && r.html) out.push(['text', r.html])
  if (html && r.html && r.text) out.push(['html', r.text])
  if ('subject' in docs && r.subject) out.push(['subject', r.subject])
  return out
}

/**
 * Whether a label rule's words appear nowhere in the document, or nowhere together (`Payment` of
 * `Payment date` and a column's `Reference`): then the field is most likely absent.
 */
function labelAbsent(doc: Doc, rules: Rule[]): boolean {
  return rules.some(
    (r) => (r.kind === 'label' && !labelShown(doc, labelAnchor(doc, r))) || (r.kind === 'stacked' && !anchorShown(doc, r.key)) || (r.kind === 'landmark' && r.asks && !anchorShown(doc, r.landmark)),
  )
}

function labelShown(doc: Doc, anchor: string[]): boolean {
  return anchorShown(doc, anchor) && (anchor.length < 2 || anchor.includes(WILDCARD) || findAnchor(doc, anchor).length > 0)
}

/**
 * A table cell's lines come joined as one (html-to-text's CELL_LINE_SEPARATOR): a value the user
 * highlighted as several lines (a reason of two sentences, one per line) is given as lines again.
 */
function asLines(match: FieldMatch, field: FieldTemplate): FieldMatch {
  if (match.items || !field.sampleValue.includes('\n') || !match.value.includes(CELL_LINE_SEPARATOR)) return match
  return { ...match, value: match.value.split(CELL_LINE_SEPARATOR).join('\n') }
}

export function extractField(field: FieldTemplate, docs: Docs, fixed: ReadonlySet<string> = new Set(), deadline = Infinity): FieldMatch | null {
  let bodyWithoutLabel = false
  for (const [view, rules] of plan(field, docs)) {
    if (performance.now() > deadline) return null
    // The HTML and text bodies carry the same content: a label missing from one is missing from both.
    if (bodyWithoutLabel && view !== 'subject') continue
    const doc = docs[view]
    if (!doc) continue
    // Positions are a last resort, never a way around a label the email no longer has.
    const absent = labelAbsent(doc, rules)
    for (const rule of rules) {
      const unlabelled = rule.kind === 'landmark' || rule.kind === 'position'
      if (absent && unlabelled) continue
      const match = applyRule(doc, rule, field)
      // Without a label, a line the sample showed as fixed text is the template, not a value.
      if (match && !(unlabelled && fixed.has(squash(match.value)))) {
        const repeated = ITEM_RULE_KINDS.has(rule.kind) ? null : repeatedLines(doc, rules, field)
        if (repeated) return { value: repeated.join('\n'), items: repeated, confidence: 0.6, rule: `${match.rule}×${repeated.length}`, cut: `the sample showed one such line, this email ${repeated.length}` }
        return asLines(match, field)
      }
    }
    if (absent && view !== 'subject' && rules === (view === 'html' ? field.rules.html : field.rules.text)) bodyWithoutLabel = true
  }
  return null
}


/** Why a field found nothing, in words a user can act on. */
export function whyMissing(field: FieldTemplate, docs: Docs): string {
  const all = Object.values(field.rules).flatMap((rules) => rules ?? [])
  if (all.length === 0) return 'not in the sample email'
  if (all.some((r) => ITEM_RULE_KINDS.has(r.kind))) return 'line items not found'
  // The HTML and text bodies carry the same content (see extractField): the first one answers,
  // and a text body nothing else needed is not built for a reason.
  const body = 'html' in docs ? docs.html : docs.text
  const shown = (words: string[]) => body !== undefined && anchorShown(body, words)
  const label = all.find((r) => r.kind === 'label')
  if (label && label.kind === 'label') {
    // A label with a name before its core (`… left a`) is missing only when its core is.
    const anchor = labelCore(label)
    if (!shown(anchor)) return `label "${anchor.filter((w) => w !== WILDCARD).join(' ')}" not found`
    return `no value after "${label.anchor.filter((w) => w !== WILDCARD).join(' ')}" reads like the sample's`
  }
  // A key over its value, or the value's own question or label line above it.
  const named = all.find((r) => r.kind === 'stacked' || (r.kind === 'landmark' && r.asks))
  if (named && (named.kind === 'stacked' || named.kind === 'landmark')) {
    const words = named.kind === 'stacked' ? named.key : named.landmark
    if (!shown(words)) return `label "${words.join(' ')}" not found`
  }
  return 'not where the sample showed it'
}
