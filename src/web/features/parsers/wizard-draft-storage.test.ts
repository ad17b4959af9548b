import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { INITIAL_DRAFT } from './wizard-draft'
import { clearWizardDrafts, readStoredDraft, writeStoredDraft } from './wizard-draft-storage'

/** sessionStorage as the browser has it (the unit tests run in Node). */
function memoryStorage() {
  const items = new Map<string, string>()
  const storage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, String(value)),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
    key: (i: number) => [...items.keys()][i] ?? null,
    get length() {
      return items.size
    },
  }
  // Object.keys(sessionStorage) lists the stored keys in a browser.
  return new Proxy(storage, { ownKeys: () => [...items.keys()], getOwnPropertyDescriptor: (_, key) => (items.has(String(key)) ? { enumerable: true, configurable: true, value: items.get(String(key)) } : undefined) })
}

const trained = { ...INITIAL_DRAFT, sampleId: 'sample', fields: [{ name: 'Total', value: '$958.50' }], filters: { filterFrom: '', filterSubject: 'Invoice', filterLabel: '' } }

describe('the wizard draft kept in the tab', () => {
  beforeEach(() => vi.stubGlobal('sessionStorage', memoryStorage()))
  afterEach(() => vi.unstubAllGlobals())

  it('comes back as it was saved, per user', () => {
    writeStoredDraft('user-a', { draft: trained, reached: 3 })
    expect(readStoredDraft('user-a')).toEqual({ draft: trained, reached: 3 })
    expect(readStoredDraft('user-b')).toEqual({ draft: INITIAL_DRAFT, reached: 1 })
  })

  it('starts fresh from a damaged or foreign value, and keeps the furthest step within the wizard', () => {
    sessionStorage.setItem('mailrow:wizard-draft:user-a', '{not json')
    expect(readStoredDraft('user-a')).toEqual({ draft: INITIAL_DRAFT, reached: 1 })
    sessionStorage.setItem('mailrow:wizard-draft:user-a', JSON.stringify({ version: 1, draft: { ...trained, fields: 'x' }, reached: 3 }))
    expect(readStoredDraft('user-a').draft).toEqual(INITIAL_DRAFT)
    sessionStorage.setItem('mailrow:wizard-draft:user-a', JSON.stringify({ version: 1, draft: trained, reached: 99 }))
    expect(readStoredDraft('user-a').reached).toBe(5)
    // A draft saved before a new setting existed gets that setting's default.
    const { rowMode: _, ...older } = trained
    sessionStorage.setItem('mailrow:wizard-draft:user-a', JSON.stringify({ version: 1, draft: older, reached: 2 }))
    expect(readStoredDraft('user-a').draft.rowMode).toBe('per_email')
  })

  it('is forgotten for every user on clear, and nothing else in the tab is', () => {
    writeStoredDraft('user-a', { draft: trained, reached: 3 })
    writeStoredDraft('user-b', { draft: trained, reached: 2 })
    sessionStorage.setItem('other-app-key', 'kept')
    clearWizardDrafts()
    expect(readStoredDraft('user-a').draft).toEqual(INITIAL_DRAFT)
    expect(readStoredDraft('user-b').draft).toEqual(INITIAL_DRAFT)
    expect(sessionStorage.getItem('other-app-key')).toBe('kept')
  })
})
