import { describe, expect, it } from 'vitest'
import { createParserInputSchema } from '../../../shared/contracts/parsers'
import { INITIAL_DRAFT, toCreateParserInput } from './wizard-draft'

const draft = {
  ...INITIAL_DRAFT,
  filters: { filterFrom: 'orders@shop.test', filterSubject: '', filterLabel: '' },
  fields: [{ name: 'Item', value: 'Blue Widget' }],
  name: 'Shop orders',
}

describe('the wizard draft', () => {
  it('asks for one row per email unless the user chose one row per item', () => {
    expect(toCreateParserInput(draft, 'm1').rowMode).toBe('per_email')
    const perItem = createParserInputSchema.parse(toCreateParserInput({ ...draft, rowMode: 'per_item' }, 'm1'))
    expect(perItem.rowMode).toBe('per_item')
  })
})
