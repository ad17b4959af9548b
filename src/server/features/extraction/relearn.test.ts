import { describe, expect, it } from 'vitest'
import { runParser, trainParser } from '@engine/extract'
import { eml } from '@engine/testing/eml'
import { readEmail, relearnTemplate } from './extraction.service'

const before = (invoice: string, amount: string) => eml({ subject: `Invoice ${invoice}`, text: `Invoice: ${invoice}\nAmount due: ${amount}\nThanks!` })
const after = (invoice: string, amount: string) => eml({ subject: `Invoice ${invoice}`, text: `Invoice: ${invoice}\nBalance (EUR) ${amount} payable now.` })

describe('self-repair of an AI parser', () => {
  it("re-learns the template from a drifted email when it backs every field, and records when and from which email", async () => {
    const trained = await trainParser(before('INV-001', '$25.00'), [
      { name: 'Invoice', value: 'INV-001' },
      { name: 'Amount Due', value: '$25.00', type: 'money' },
    ])
    if (!trained.ok) throw new Error(trained.reason)
    const drifted = await readEmail(Buffer.from(after('INV-779', '€ 310,00')))
    expect((await runParser(trained.template, drifted)).fields['Amount Due']).toBeNull()

    const now = new Date('2026-11-23T10:00:00Z')
    const relearned = await relearnTemplate(
      trained.template,
      drifted,
      [
        { name: 'Invoice', value: 'INV-779' },
        { name: 'Amount Due', value: '€ 310,00', type: 'money' },
      ],
      now,
    )
    expect(relearned?.relearned).toEqual({ at: now.toISOString(), subject: 'Invoice INV-779' })
    const next = await runParser(relearned!, after('INV-780', '€ 1.020,50'))
    expect(next).toMatchObject({ status: 'success', fields: { Invoice: 'INV-780', 'Amount Due': '€ 1.020,50' } })
  })

  it('keeps the old template when the email does not back every field', async () => {
    const trained = await trainParser(before('INV-001', '$25.00'), [
      { name: 'Invoice', value: 'INV-001' },
      { name: 'Amount Due', value: '$25.00', type: 'money' },
    ])
    if (!trained.ok) throw new Error(trained.reason)
    const drifted = await readEmail(Buffer.from(after('INV-779', '€ 310,00')))
    expect(await relearnTemplate(trained.template, drifted, [{ name: 'Invoice', value: 'INV-779' }], new Date())).toBeNull()
    expect(await relearnTemplate(trained.template, drifted, [{ name: 'Invoice', value: 'INV-779' }, { name: 'Amount Due', value: '$99.00' }], new Date())).toBeNull()
  })
})
