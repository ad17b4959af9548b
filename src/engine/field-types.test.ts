import { describe, expect, it } from 'vitest'
import { normaliseCell, parseAmount, parseDate } from './field-types'
import { detectShape, fitsShape } from './shapes'

describe('parseAmount', () => {
  it.each([
    ['$5.00', 5],
    ['$12,345.67', 12345.67],
    ['1.234,56 €', 1234.56],
    ['12\u202f345,50 €', 12345.5],
    ['£1,000', 1000],
    ['-$2,854.64', -2854.64],
    ['(45.00)', -45],
    ['CA$5.83 CAD', 5.83],
    ['USD 25', 25],
    ['452', 452],
    ['63,346円', 63346],
    ['Rs.1,98,321.71', 198321.71],
    ['R$ 1.234,56', 1234.56],
  ])('%s → %d', (text, value) => {
    expect(parseAmount(text)).toBe(value)
  })

  it('is null without digits', () => {
    expect(parseAmount('free')).toBeNull()
  })
})

describe('parseDate', () => {
  it.each([
    ['February 5, 2024', '2024-02-05'],
    ['Feb 5, 2024', '2024-02-05'],
    ['Monday, February 5, 2024', '2024-02-05'],
    ['5 February 2024', '2024-02-05'],
    ['Mon 5 Feb 2024', '2024-02-05'],
    ['2024-02-05', '2024-02-05'],
    ['02/05/2024', '2024-02-05'],
    ['13/02/2024', '2024-02-13'],
    ['05.02.2024', '2024-02-05'],
    ['March 5, 2024 at 2:41 pm', '2024-03-05T14:41'],
    ['2023-02-23 18:21:04 UTC', '2023-02-23T18:21:04'],
    ['5 Mar 2024, 10:40', '2024-03-05T10:40'],
    ['2023 Sep 07', '2023-09-07'],
    ['2024-Feb-05 09:30', '2024-02-05T09:30'],
  ])('%s → %s', (text, iso) => {
    expect(parseDate(text)).toBe(iso)
  })

  it('reads day-first numeric dates when the sample showed them', () => {
    expect(parseDate('05/02/2024', { dayFirst: true })).toBe('2024-02-05')
  })

  it('gives a date without a year the year nearest the email', () => {
    expect(parseDate('Fri, Jan 5', { reference: '2023-12-28T10:00:00Z' })).toBe('2024-01-05')
    expect(parseDate('Fri, Dec 29', { reference: '2024-01-02T10:00:00Z' })).toBe('2023-12-29')
  })

  it('is null for impossible or missing dates', () => {
    expect(parseDate('February 30, 2024')).toBeNull()
    expect(parseDate('soon')).toBeNull()
  })
})

describe('normaliseCell', () => {
  it('gives plain numbers, ISO dates and lower-cased addresses, and keeps text', () => {
    expect(normaliseCell('$12,345.67', 'money')).toBe(12345.67)
    expect(normaliseCell('1,250', 'number')).toBe(1250)
    expect(normaliseCell('Feb 5, 2024', 'date')).toBe('2024-02-05')
    expect(normaliseCell('Zoë <Zoe.OBrien@Example.com>', 'email')).toBe('zoe.obrien@example.com')
    expect(normaliseCell("Zoë O'Brien", 'text')).toBe("Zoë O'Brien")
    expect(normaliseCell('TBD', 'date')).toBeUndefined()
  })
})

describe('shapes', () => {
  it.each([
    ['$12,345.67', 'money'],
    ['1.234,50 €', 'money'],
    ['63,346円', 'money'],
    ['Rs.1,98,321.71', 'money'],
    ['₹1,23,456', 'money'],
    ['R$ 1.234,56', 'money'],
    ['A$12.00', 'money'],
    ['Feb 5, 2024', 'date'],
    ['2023-02-23 18:21:04 UTC', 'date'],
    ['2023 Sep 07', 'date'],
    ['10:42 AM', 'time'],
    ['zoe@example.com', 'email'],
    ['https://example.com/a?b=1', 'url'],
    ['+1 (555) 010-2233', 'phone'],
    ['452', 'number'],
    ['INV-2024-00123', 'id'],
    ["Zoë O'Brien", 'text'],
  ])('%s is %s', (value, shape) => {
    expect(detectShape(value).shape).toBe(shape)
  })

  it('lets the field type decide between readings', () => {
    expect(detectShape('25.00', 'money').shape).toBe('number')
    expect(detectShape('2024', 'text').shape).toBe('text')
  })

  it('accepts ids of other lengths and forms, but not sentences', () => {
    const { shape, options } = detectShape('R-J7K2P')
    expect(fitsShape('R-JJWZXNX', shape, options)).toBe(true)
    expect(fitsShape('in the last 7 days', shape, options)).toBe(false)
  })
})
