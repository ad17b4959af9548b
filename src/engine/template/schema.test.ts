import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { z } from 'zod'
import { parseTrainedTemplate, trainParser, type TrainedTemplate } from '../extract'
import { parseStoredTemplate, templateSchema } from './schema'
import type { Template } from './types'

const corpus = join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'corpus')

async function trained(name: string): Promise<TrainedTemplate> {
  const fields = JSON.parse(await readFile(join(corpus, name, 'fields.json'), 'utf8'))
  const result = await trainParser(await readFile(join(corpus, name, '001.eml')), fields)
  if (!result.ok) throw new Error(result.reason)
  return result.template
}

/** The same template after a trip through the database's JSON column. */
function stored<T>(value: T): unknown {
  return JSON.parse(JSON.stringify(value))
}

describe('stored template schema', () => {
  it('agrees with the engine types', () => {
    expectTypeOf<z.output<typeof templateSchema>>().toExtend<Template>()
    expectTypeOf<Template>().toExtend<z.output<typeof templateSchema>>()
  })

  it('accepts a v1 template learned from a real sample after a round trip through JSON', async () => {
    // shop-order has column and list rules; appointment-reminder labels, landmarks and positions;
    // activity-summary a counted list with detail lines; brokerage-activity rows of a sparse table;
    // marketplace-payout-fr sections under headings of several lines; brokerage-activity also
    // cards whose value line is found by its label; remittance-advice a label whose first words
    // another label shares; vendure-order address lines kinded as an address's.
    const summary = await trained('activity-summary')
    expect(Object.values(summary.fields.find((f) => f.name === 'Achievement')!.rules).flat().some((r) => r?.kind === 'list' && r.details)).toBe(true)
    const activity = await trained('brokerage-activity')
    expect(Object.values(activity.fields.find((f) => f.name === 'Symbol')!.rules).flat().some((r) => r?.kind === 'rows' && r.unit.some((u) => 'cells' in u && u.sparse))).toBe(true)
    expect(Object.values(activity.fields.find((f) => f.name === 'Amount')!.rules).flat().some((r) => r?.kind === 'cards' && r.label)).toBe(true)
    const payout = await trained('marketplace-payout-fr')
    expect(Object.values(payout.fields.find((f) => f.name === 'Montant net')!.rules).flat().some((r) => r?.kind === 'rows' && r.unit.some((u) => 'pattern' in u && u.repeat))).toBe(true)
    const remittance = await trained('remittance-advice')
    expect(Object.values(remittance.fields.find((f) => f.name === 'Payment Reference')!.rules).flat().some((r) => r?.kind === 'label' && r.stemShared)).toBe(true)
    // vendure-order: an address block's lines kinded with its second line and state code (decision 034).
    const vendure = await trained('vendure-order')
    expect(Object.values(vendure.fields.find((f) => f.name === 'City')!.rules).flat().some((r) => r?.kind === 'landmark' && r.addressKinds && r.block?.includes('A'))).toBe(true)
    for (const name of ['shop-order', 'appointment-reminder', 'flight-itinerary', 'activity-summary', 'brokerage-activity', 'marketplace-payout-fr', 'remittance-advice', 'vendure-order']) {
      const template = await trained(name)
      expect(parseTrainedTemplate(stored(template))).toEqual({ ok: true, template })
      const { example: _example, ...bare } = template
      expect(parseStoredTemplate(stored(bare))).toEqual({ ok: true, template: bare })
    }
  })

  it('reads a stored template without fixed lines as having none', async () => {
    const { fixed: _fixed, ...old } = await trained('shop-order')
    const parsed = parseTrainedTemplate(stored(old))
    expect(parsed.ok && parsed.template.fixed).toEqual([])
  })

  it('upgrades a version 1 template (before the rows rule) to the current version', async () => {
    const template = await trained('shop-order')
    const v1 = { ...(stored(template) as object), version: 1 }
    const parsed = parseTrainedTemplate(v1)
    expect(parsed.ok && parsed.template.version).toBe(3)
  })

  it('upgrades a version 2 template (before the cards rule) to the current version, and validates a cards rule', async () => {
    const template = await trained('listing-alert')
    const cards = template.fields.flatMap((f) => Object.values(f.rules).flat()).filter((r) => r?.kind === 'cards')
    expect(cards.length).toBeGreaterThan(0)
    const parsed = parseTrainedTemplate({ ...(stored(template) as object), version: 2 })
    expect(parsed.ok && parsed.template.version).toBe(3)
    const broken = stored(template) as { fields: Array<{ rules: { html?: Array<{ kind: string; offset?: unknown }> } }> }
    const rule = broken.fields.flatMap((f) => f.rules.html ?? []).find((r) => r.kind === 'cards')!
    rule.offset = 'two'
    expect(parseTrainedTemplate(broken).ok).toBe(false)
  })

  it('refuses garbage, an unknown version and a missing field with a reason', async () => {
    const template = await trained('shop-order')
    expect(parseTrainedTemplate('{"version":1}')).toEqual({ ok: false, reason: 'the stored template is not a JSON object' })
    expect(parseTrainedTemplate(null)).toEqual({ ok: false, reason: 'the stored template is not a JSON object' })
    expect(parseTrainedTemplate({ fields: [] })).toEqual({ ok: false, reason: 'the stored template has no version' })
    expect(parseTrainedTemplate({ ...stored(template) as object, version: 4 })).toEqual({
      ok: false,
      reason: 'the stored template is version 4, newer than this build reads (3)',
    })
    expect(parseTrainedTemplate({ ...stored(template) as object, version: 0 })).toEqual({
      ok: false,
      reason: 'the stored template is version 0, which cannot be upgraded',
    })

    const { example: _example, ...withoutExample } = template
    expect(parseTrainedTemplate(stored(withoutExample))).toEqual({ ok: false, reason: 'the stored template is invalid: example: Invalid input: expected object, received undefined' })

    const broken = stored(template) as { fields: Array<{ shape?: string; rules: { html?: Array<{ kind: string }> } }> }
    delete broken.fields[0]!.shape
    broken.fields[1]!.rules.html![0]!.kind = 'telepathy'
    const refused = parseTrainedTemplate(broken)
    expect(refused.ok).toBe(false)
    expect(!refused.ok && refused.reason).toMatch(/^the stored template is invalid: fields\.0\.shape: .*; fields\.1\.rules\.html\.0\.kind: /)
  })
})
