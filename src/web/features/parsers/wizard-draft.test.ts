import { describe, expect, it } from 'vitest'
import { createParserInputSchema } from '@shared/contracts/parsers'
import { INITIAL_DRAFT, toCreateParserInput } from './wizard-draft'

const draft = {
  ...INITIAL_DRAFT,
  filters: { filterFrom: 'orders@shop.test', filterSubject: '', filterLabel: '' },
  fields: [{ name: 'Item', value: 'Blue Widget' }],
  name: 'Shop orders',
}

describe('the wizard draft', () => {
  it('asks for one row per email unless the user chose one row per item', () => {
    expect(toCreateParserInput(draft, '18c2f0a1b2c3d4e5').rowMode).toBe('per_email')
    const perItem = createParserInputSchema.parse(toCreateParserInput({ ...draft, rowMode: 'per_item' }, '18c2f0a1b2c3d4e5'))
    expect(perItem.rowMode).toBe('per_item')
  })
})
