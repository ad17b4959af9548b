import { describe, expect, it } from 'vitest'
import { emailFiltersSchema } from '../../../shared/contracts/gmail'
import { buildGmailQuery, matchesFilters, senderAddress } from './gmail-matcher'

const filters = (f: { filterFrom?: string; filterSubject?: string; filterLabel?: string }) => emailFiltersSchema.parse(f)
const message = { from: '"Acme Store" <Orders@Acme.test>', subject: 'Your Order #1042 has shipped', labelNames: ['INBOX', 'Receipts/Shops'] }

describe('senderAddress', () => {
  it.each([
    ['"Acme" <orders@acme.test>', 'orders@acme.test'],
    ['ORDERS@ACME.TEST', 'orders@acme.test'],
    ['Acme Store orders@acme.test', 'orders@acme.test'],
  ])('%s → %s', (from, address) => expect(senderAddress(from)).toBe(address))
})

describe('matchesFilters', () => {
  it('matches From by address, case-insensitively', () => {
    expect(matchesFilters(message, filters({ filterFrom: 'orders@acme.TEST' }))).toBe(true)
    expect(matchesFilters(message, filters({ filterFrom: 'billing@acme.test' }))).toBe(false)
    expect(matchesFilters(message, filters({ filterFrom: 'rders@acme.test' }))).toBe(false)
  })
  it('matches Subject as a case-insensitive partial match', () => {
    expect(matchesFilters(message, filters({ filterSubject: 'order #10' }))).toBe(true)
    expect(matchesFilters(message, filters({ filterSubject: 'refund' }))).toBe(false)
  })
  it('matches Label by name', () => {
    expect(matchesFilters(message, filters({ filterLabel: 'receipts/shops' }))).toBe(true)
    expect(matchesFilters(message, filters({ filterLabel: 'Invoices' }))).toBe(false)
  })
  it('requires every filter that is set', () => {
    expect(matchesFilters(message, filters({ filterFrom: 'orders@acme.test', filterSubject: 'refund' }))).toBe(false)
  })
})

describe('buildGmailQuery', () => {
  it('narrows by sender and label, and by the subject words that are surely whole words', () => {
    expect(buildGmailQuery(filters({ filterFrom: 'orders@acme.test', filterLabel: 'Receipts/Shops', filterSubject: 'our order has ship' }))).toBe(
      'from:orders@acme.test label:"receipts-shops" subject:order subject:has',
    )
  })
  it('leaves a one-word subject to the local matcher (it may be part of a longer word)', () => {
    expect(buildGmailQuery(filters({ filterSubject: 'nvoice' }))).toBe('')
  })
})

describe('emailFiltersSchema', () => {
  it('needs one filter and a valid From', () => {
    expect(emailFiltersSchema.safeParse({ filterFrom: ' ', filterSubject: '' }).error?.issues[0]?.message).toBe(
      'Please set at least one filter (From, Subject, or Label)',
    )
    expect(emailFiltersSchema.safeParse({ filterFrom: 'not an email' }).error?.issues[0]?.message).toBe('Please enter a valid email address')
  })
})
