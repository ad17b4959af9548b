/**
 * The template learner: from one sample and the values the user highlighted, it learns for each
 * field the anchors around the value (labels before it, landmarks after it, table headers above
 * it) and the value's shape, and applies them to later emails of the same sender template.
 * Anchors come first; positions are the last resort.
 *
 * Each rule kind lives in rules/<kind>.ts with its learning and applying side by side, and is
 * listed in rules/registry.ts; this file is the folder's public face.
 */
export { applyRule, describeRule, extractField, whyMissing } from './apply'
export { learnTemplate } from './learn'
export { learnFromSamples, type LearningSample } from './merge'
export { parseStoredTemplate, parseStoredTemplateWith, templateSchema, type StoredTemplateResult } from './schema'
export type { Docs, Extent, FieldMatch, FieldTemplate, Rule, Template, View } from './types'
export { readsItems } from './rules/registry'
export { readByPlace } from './place'
