import { describe, expect, it } from 'vitest'
import { applyFieldMask, parseFieldMask } from './field-mask'

const resource = {
  spreadsheetId: 'abc',
  properties: { title: 'T', locale: 'en_US' },
  sheets: [{ properties: { sheetId: 0, title: 'A', gridProperties: { rowCount: 10 } } }, { properties: { sheetId: 5, title: 'B' } }],
}

describe('fields masks', () => {
  it.each([
    ['spreadsheetId', { spreadsheetId: 'abc' }],
    ['sheets.properties.title', { sheets: [{ properties: { title: 'A' } }, { properties: { title: 'B' } }] }],
    ['sheets/properties/sheetId', { sheets: [{ properties: { sheetId: 0 } }, { properties: { sheetId: 5 } }] }],
    ['properties(title),sheets(properties(sheetId,title))', { properties: { title: 'T' }, sheets: [{ properties: { sheetId: 0, title: 'A' } }, { properties: { sheetId: 5, title: 'B' } }] }],
    ['*', resource],
  ])('%s', (mask, expected) => {
    expect(applyFieldMask(resource, parseFieldMask(mask))).toEqual(expected)
  })

  it('rejects malformed masks', () => {
    expect(() => parseFieldMask('sheets(properties')).toThrow(/Invalid field selection/)
  })
})
