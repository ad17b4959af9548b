import type { Rule, RuleHandler } from '../types'
import { cardsRule } from './cards'
import { columnRule } from './column'
import { keyedRule } from './keyed'
import { labelRule } from './label'
import { landmarkRule } from './landmark'
import { listRule } from './list'
import { patternRule } from './pattern'
import { positionRule } from './position'
import { rowsRule } from './rows'
import { stackedRule } from './stacked'
import { suffixRule } from './suffix'

/** Every rule kind, by name: `applyRule` and `describeRule` dispatch through it. */
export const RULES: { [K in Rule['kind']]: RuleHandler<K> } = {
  rows: rowsRule,
  cards: cardsRule,
  column: columnRule,
  list: listRule,
  label: labelRule,
  keyed: keyedRule,
  stacked: stackedRule,
  pattern: patternRule,
  suffix: suffixRule,
  landmark: landmarkRule,
  position: positionRule,
}

/** Rule kinds that read a field as line items, one value per item. */
export const ITEM_RULE_KINDS: ReadonlySet<Rule['kind']> = new Set(['rows', 'cards', 'column', 'list'])

/**
 * Whether a rule reads items because the sample showed several: not a rows rule learned from a
 * sample with one item (`single`), which the field's other rules back up.
 */
export function readsItems(rule: Rule): boolean {
  return ITEM_RULE_KINDS.has(rule.kind) && !(rule.kind === 'rows' && rule.single)
}
