import { describe, expect, it } from 'vitest'
import { alignBlock, lineKind } from './landmark'

describe('aligning a block whose lines come and go', () => {
  const sample = ['Jane Doe', 'Acme Corp', '12 Main St', 'Springfield, IL 62704', 'United States'].map(lineKind)

  it('tells lines apart by their kind: words, numbers, a label, a comma', () => {
    expect(sample).toEqual(['a', 'a', '9a', 'a,a9', 'a'])
    expect(lineKind('Phone: 555 0100')).toBe('a:9')
  })

  it('maps each sample line to its place in the target, or to nothing when it is gone', () => {
    const target = ['Bob Stone', '77 Elm Road', 'Shelbyville, IL 62565', 'United States'].map(lineKind)
    expect([0, 1, 2, 3, 4].map((i) => alignBlock(sample, target, i))).toEqual([0, -1, 1, 2, 3])
  })

  it('keeps the first line (the name) when one of two look-alike lines is missing', () => {
    const target = ['Bob Stone', '77 Elm Road', 'Shelbyville, IL 62565', 'United States'].map(lineKind)
    expect(alignBlock(sample, target, 0)).toBe(0)
  })

  it('gives nothing when two equally good alignments disagree about a line', () => {
    // Two lines of words in the middle, one of them gone: which one cannot be told.
    const s = ['Jane Doe', 'Acme Corp', 'Reception', '12 Main St'].map(lineKind)
    const t = ['Bob Stone', 'Globex', '9 Oak Ave'].map(lineKind)
    expect(alignBlock(s, t, 1)).toBe(-1)
    expect(alignBlock(s, t, 2)).toBe(-1)
    expect(alignBlock(s, t, 3)).toBe(2)
  })
  it('keeps a line at its distance from the nearer end of the block when a look-alike above it comes or goes', () => {
    const s = ['Dolores Álvarez', 'Northwind Traders', '32 Calle Mayor', 'c/o Reception', 'Leeds', 'LS1 4AP', 'United Kingdom'].map(lineKind)
    const t = ['Chloé O’Connor', '154 Calle Mayor', 'Stoke-on-Trent', 'ST4 2RS', 'United Kingdom'].map(lineKind)
    expect(alignBlock(s, t, 4)).toBe(2)
    // The optional line as far from both ends as can be: not read, not guessed.
    expect(alignBlock(s, t, 3)).toBe(-1)
    // A table row is told by its label, never by its place.
    expect(alignBlock(s, t, 4, () => false)).toBe(-1)
  })
})

describe("aligning a block on the value's own line", () => {
  it('takes a line holding a value of the field\'s shape for the value\'s line, though its kind differs from the sample\'s', () => {
    const kinds = (lines: string[]) => lines.map(lineKind)
    const sample = kinds(['Tom Álvarez', '9862 Elm Road', 'Boise, ID 69215', '+33 6 68 27 53 29', 'tom.alvarez@mail.example.net'])
    const target = ['Grace Ægirsson', 'Peña Hermanos S.A.', "5380 O'Connell Street", 'Ann Arbor, MI 44578', '06566 274138', 'grace34@example.com']
    const isEmail = (j: number) => /^\S+@\S+$/.test(target[j]!)
    // `grace34@example.com` is not of the sample email's kind, and a company line came in above.
    expect(alignBlock(sample, kinds(target), 4)).toBe(-1)
    expect(alignBlock(sample, kinds(target), 4, () => true, isEmail)).toBe(5)
    // Without the value's line, nothing else is taken for it.
    expect(alignBlock(sample, kinds(target.slice(0, 5)), 4, () => true, (j) => /^\S+@\S+$/.test(target[j]!) && j < 5)).toBe(-1)
  })
})
