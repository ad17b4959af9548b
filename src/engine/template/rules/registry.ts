import type { Rule, RuleHandler } from '../types'
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
