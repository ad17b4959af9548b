import { describe, expect, it } from 'vitest'
import { emailFiltersSchema } from '@shared/contracts/gmail'
import { advancedFiltersSchema, type AdvancedFilters } from '@shared/contracts/parser-edit'
import { buildGmailQuery, matchesFilters, needsBody, senderAddress } from './gmail-matcher'

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

describe('advanced filters (Starter)', () => {
  const advanced = (f: Partial<AdvancedFilters>): AdvancedFilters => advancedFiltersSchema.parse(f)
  const full = { ...message, body: 'Your parcel ships today. Total $84.88', attachments: 0 }

  it('matches the sender domain and its subdomains, not look-alikes', () => {
    expect(matchesFilters(full, filters({ filterSubject: 'order' }), advanced({ senderDomain: '@ACME.test' }))).toBe(true)
    expect(matchesFilters({ ...full, from: 'x@eu.acme.test' }, filters({ filterSubject: 'order' }), advanced({ senderDomain: 'acme.test' }))).toBe(true)
    expect(matchesFilters({ ...full, from: 'x@notacme.test' }, filters({ filterSubject: 'order' }), advanced({ senderDomain: 'acme.test' }))).toBe(false)
  })

  it('needs the body text, excludes whole words in subject or body, and can require an attachment', () => {
    const f = filters({ filterSubject: 'order' })
    expect(matchesFilters(full, f, advanced({ bodyContains: 'PARCEL ships' }))).toBe(true)
    expect(matchesFilters(full, f, advanced({ bodyContains: 'refund' }))).toBe(false)
    expect(matchesFilters(full, f, advanced({ excludeWords: ['shipped'] }))).toBe(false)
    expect(matchesFilters(full, f, advanced({ excludeWords: ['ship'] }))).toBe(true)
    expect(matchesFilters(full, f, advanced({ excludeWords: ['$84.88'] }))).toBe(false)
    expect(matchesFilters(full, f, advanced({ hasAttachment: true }))).toBe(false)
    expect(matchesFilters({ ...full, attachments: 1 }, f, advanced({ hasAttachment: true }))).toBe(true)
    expect(needsBody(advanced({ senderDomain: 'acme.test', gmailQuery: 'x' }))).toBe(false)
    expect(needsBody(advanced({ excludeWords: ['x'] }))).toBe(true)
  })

  it("hands the user's Gmail search to Gmail, in parentheses", () => {
    expect(buildGmailQuery(filters({ filterFrom: 'orders@acme.test' }), advanced({ gmailQuery: 'has:attachment OR label:x' }))).toBe('from:orders@acme.test (has:attachment OR label:x)')
  })
})
