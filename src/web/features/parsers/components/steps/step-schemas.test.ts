import { describe, expect, it } from 'vitest'
import { chooseParserType } from '../../parser-types'
import { INITIAL_DRAFT, type WizardDraft } from '../../wizard-draft'
import { filterErrors, stepBlock, type StepFacts } from './step-schemas'

const field = { name: 'Total', value: '$12.00', context: { before: 'Total: ', after: '', occurrence: 0 } }

function facts(draft: Partial<WizardDraft> = {}, rest: Partial<Omit<StepFacts, 'draft'>> = {}): StepFacts {
  return { draft: { ...INITIAL_DRAFT, ...draft }, isGmailConnected: true, isSheetsConnected: true, plan: 'free', ...rest }
}

describe('step 1', () => {
  it('needs Gmail', () => {
    expect(stepBlock(1, facts({}, { isGmailConnected: false }))?.title).toBe('Gmail not connected')
    expect(stepBlock(1, facts())).toBeNull()
  })

  it('is blocked by a partial Google consent (a permission left unticked)', () => {
    expect(stepBlock(1, facts({}, { hasMissingPermissions: true }))).toEqual({
      title: 'Gmail access not granted',
      description: 'Choose Grant access and allow every permission Mailrow asks for before proceeding.',
    })
    expect(stepBlock(1, facts({}, { isGmailConnected: false, hasMissingPermissions: true }))?.title).toBe('Gmail not connected')
  })
})

describe('step 2 filters', () => {
  const filters = (f: Partial<WizardDraft['filters']>) => ({ ...INITIAL_DRAFT.filters, ...f })

  it('asks for at least one filter, blanks after trimming included', () => {
    expect(filterErrors(filters({ filterSubject: '   ' }))).toEqual({ filters: 'Please set at least one filter (From, Subject, or Label)' })
    expect(stepBlock(2, facts({ filters: filters({}) }))).toEqual({
      title: 'Invalid filter configuration',
      description: 'Please fix the errors and ensure at least one filter is set.',
    })
  })

  it('checks the From address', () => {
    expect(filterErrors(filters({ filterFrom: 'orders@shop' })).filterFrom).toBe('Please enter a valid email address')
    expect(filterErrors(filters({ filterFrom: 'a b@shop.com' })).filterFrom).toBe('Please enter a valid email address')
    expect(filterErrors(filters({ filterFrom: ' orders@shop.com ' }))).toEqual({})
  })

  it('accepts any single filter', () => {
    expect(stepBlock(2, facts({ filters: filters({ filterLabel: 'Orders' }) }))).toBeNull()
    expect(stepBlock(2, facts({ filters: filters({ filterSubject: 'invoice' }) }))).toBeNull()
  })
})

describe('step 3 fields', () => {
  it('needs a field', () => {
    expect(stepBlock(3, facts())?.title).toBe('No fields selected')
    expect(stepBlock(3, facts({ fields: [field] }))).toBeNull()
  })
  it('refuses two fields with the same name', () => {
    expect(stepBlock(3, facts({ fields: [field, field] }))?.description).toBe('Field names must be unique')
  })
})

describe('step 4 destination', () => {
  it('needs Sheets access first', () => {
    expect(stepBlock(4, facts({}, { isSheetsConnected: false }))?.title).toBe('Google Sheets not connected')
  })
  it('needs a spreadsheet for an existing destination', () => {
    expect(stepBlock(4, facts({ destination: { type: 'existing', spreadsheet: '  ' } }))).toEqual({
      title: 'No spreadsheet specified',
      description: 'Please enter a spreadsheet ID or URL.',
    })
    expect(stepBlock(4, facts({ destination: { type: 'existing', spreadsheet: 'abc123' } }))).toBeNull()
    expect(stepBlock(4, facts({ destination: { type: 'new', spreadsheet: '' } }))).toBeNull()
  })
})

describe('step 5 activation', () => {
  it('needs a name', () => {
    expect(stepBlock(5, facts({ name: ' ' }))).toEqual({ title: 'Parser name required', description: 'Please enter a name for your parser.' })
  })
  it('applies the plan rules', () => {
    expect(stepBlock(5, facts({ name: 'x', parseHistorical: true }))?.description).toBe(
      'Parse historical emails is available on Starter plan and above. Please upgrade to use this feature.',
    )
    expect(stepBlock(5, facts({ name: 'x', parseHistorical: true }, { plan: 'starter' }))).toBeNull()
    expect(stepBlock(5, facts({ name: 'x', parserType: 'full_ai' }, { plan: 'starter' }))?.description).toBe(
      'Full AI Parser requires Pro plan. Please upgrade to use this feature.',
    )
  })
})

describe('parser type cards', () => {
  it('locks what the plan does not include', () => {
    expect(chooseParserType('free', 'smart_ai')).toEqual({ locked: 'Smart AI Parser requires Starter plan ($29/month)' })
    expect(chooseParserType('starter', 'full_ai')).toEqual({ locked: 'Full AI Parser with PDF support requires Pro plan ($79/month)' })
    expect(chooseParserType('pro', 'full_ai')).toEqual({ patch: { parserType: 'full_ai' } })
  })
  it('clears the PDF switch for template and smart AI', () => {
    expect(chooseParserType('free', 'template')).toEqual({ patch: { parserType: 'template', parseAttachments: false } })
    expect(chooseParserType('pro', 'smart_ai')).toEqual({ patch: { parserType: 'smart_ai', parseAttachments: false } })
  })
})
