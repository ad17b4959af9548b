import { describe, expect, it } from 'vitest'
import { compileQuery, parseSearchDate, searchTokens, type SearchableMessage } from './search-query'

const base: SearchableMessage = {
  from: [{ name: 'Stripe', address: 'receipts+acct_1@stripe.test' }],
  to: [{ name: '', address: 'demo@mailrow.test' }],
  cc: [],
  bcc: [],
  deliveredTo: 'demo@mailrow.test',
  subject: 'Your receipt from Acme Inc. #2041-7781',
  body: 'Amount paid $49.00. Thanks for your business!',
  filenames: ['receipt-2041.pdf'],
  labels: [
    { id: 'INBOX', name: 'INBOX' },
    { id: 'Label_3', name: 'Receipts/2024' },
  ],
  internalDate: Date.UTC(2024, 0, 15, 12),
  sizeEstimate: 20_000,
  messageIdHeader: '<abc@stripe.test>',
}

const matches = (query: string, message: SearchableMessage = base) => compileQuery(query, Date.UTC(2024, 0, 20)).matches(message)

describe('compileQuery', () => {
  it('tokenises like Gmail: whole words, case and accents folded', () => {
    expect(searchTokens('Crème BRÛLÉE, #12-b')).toEqual(['creme', 'brulee', '12', 'b'])
  })

  it.each([
    ['from:stripe.test', true],
    ['from:receipts+acct_1@stripe.test', true],
    ['from:@stripe.test', true],
    ['from:strip', false],
    ['to:demo@mailrow.test', true],
    ['subject:receipt', true],
    ['subject:receipts', false],
    ['subject:"acme inc"', true],
    ['subject:(acme 2041)', true],
    ['subject:{refund receipt}', true],
    ['label:receipts-2024', true],
    ['label:"Receipts/2024"', true],
    ['in:inbox', true],
    ['is:unread', false],
    ['is:read', true],
    ['has:attachment', true],
    ['filename:pdf', true],
    ['larger:10K', true],
    ['smaller:1M', true],
    ['rfc822msgid:abc@stripe.test', true],
    ['"amount paid"', true],
    ['"paid amount"', false],
    ['business', true],
    ['-business', false],
    ['acme -refund', true],
    ['refund OR business', true],
    ['(refund OR invoice) stripe', false],
    ['newer_than:7d', true],
    ['older_than:7d', false],
    ['', true],
  ])('%s → %s', (query, expected) => {
    expect(matches(query)).toBe(expected)
  })

  it('reads after:/before: dates as Pacific midnight and numbers as epoch seconds', () => {
    // 2024-01-15 is winter: midnight Pacific is 08:00 UTC.
    expect(parseSearchDate('2024/01/15')).toBe(Date.UTC(2024, 0, 15, 8))
    // 2024-07-04 is summer time: 07:00 UTC.
    expect(parseSearchDate('2024/07/04')).toBe(Date.UTC(2024, 6, 4, 7))
    expect(parseSearchDate('1705320000')).toBe(1705320000_000)
    expect(parseSearchDate('2024/13/01')).toBeNull()
    expect(matches('after:2024/01/15')).toBe(true)
    expect(matches('after:2024/01/16')).toBe(false)
    expect(matches('before:2024/01/16 after:2024/01/14')).toBe(true)
    expect(matches(`after:${Date.UTC(2024, 0, 15, 12) / 1000 + 1}`)).toBe(false)
  })

  it('marks queries that reach into spam and trash', () => {
    expect(compileQuery('in:spam', 0).includesSpamTrash).toBe(true)
    expect(compileQuery('in:anywhere invoice', 0).includesSpamTrash).toBe(true)
    expect(compileQuery('invoice', 0).includesSpamTrash).toBe(false)
  })
})
