import { cellsOf, cleanValue, lineOf, lineText, type Doc } from '../doc'
import { fitsShape, isStrong } from '../shapes'
import { squash } from './anchors'
import type { Span } from './spans'
import type { FieldTemplate, Place, Template } from './types'

/**
 * A value by its place in the sample's layout, for an email whose wording is not the sample's (the
 * sender's German emails, learned from an English one): the fixed lines the sample had are mostly
 * gone, so no label or landmark is found, yet the lines and cells are laid out as in the sample.
 * The target's lines are aligned to the sample's by their kinds (words, numbers, cells), and the
 * value is the whole cell or line in the place the sample's value had, if the two lines are of the
 * same kind. Such a value is never more than partial: its reason says it was read by its place.
 */

/** Each non-empty line of a body as its kind (see kindOf). */
export function layoutOf(doc: Doc): string[] {
  return nonEmptyLines(doc).lines.map((l) => kindOf(doc, l))
}

/** A line's cells, or the line as one cell. */
function cellsOfLine(doc: Doc, line: number): readonly string[] {
  return doc.lineTab[line] ? cellsOf(doc, line) : [lineText(doc, line)]
}

/**
 * A line's kind: per cell, words (`a`), something with a digit (`9`) or nothing. Coarse on
 * purpose: the value's own cell is data (`1250720054` here, `B1AF-A4CC-BC61` there).
 */
function kindOf(doc: Doc, line: number): string {
  return cellsOfLine(doc, line).map((c) => (/\d/.test(c) ? '9' : /\p{L}/u.test(c) ? 'a' : c.trim() === '' ? '' : '-')).join('|')
}

/** The value's place: its non-empty line's index and its cell, when it fills that cell (or line). */
export function placeOf(doc: Doc, span: Span): Place | null {
  const line = lineOf(doc, span[0])
  if (lineOf(doc, span[1]) !== line) return null
  const before = doc.text.slice(doc.lineStart[line]!, span[0])
  const cell = doc.lineTab[line] ? before.split('\t').length - 1 : 0
  if (squash(cellsOfLine(doc, line)[cell] ?? '') !== squash(doc.text.slice(span[0], span[1]))) return null
  return { line: nonEmptyLines(doc).index.get(line)!, cell }
}

/** At most this many lines in a layout: longer bodies are not aligned (the work grows as the square). */
export const MAX_LAYOUT_LINES = 300

const differs = new WeakMap<Doc, WeakMap<readonly string[], boolean>>()

/** Whether most of the sample's fixed lines are gone from the target: its wording differs. Once per email and template. */
function wordingDiffers(doc: Doc, fixed: readonly string[]): boolean {
  if (fixed.length < 4) return false
  let byFixed = differs.get(doc)
  if (!byFixed) differs.set(doc, (byFixed = new WeakMap()))
  let answer = byFixed.get(fixed)
  if (answer === undefined) {
    const lines = new Set<string>()
    for (let l = 0; l < doc.lineStart.length; l++) lines.add(squash(lineText(doc, l)))
    answer = fixed.filter((f) => lines.has(f)).length / fixed.length < 0.25
    byFixed.set(fixed, answer)
  }
  return answer
}

const alignments = new WeakMap<Doc, Map<string[], Map<number, number> | null>>()

/**
 * The target's non-empty line for each of the sample's lines that every best alignment of the two
 * layouts (their longest common run of kinds) puts in the same place; a line that two equally good
 * alignments place apart (`Station` over a name, both words, after a line that differs) is left out.
 */
function align(doc: Doc, sample: string[]): Map<number, number> | null {
  let byLayout = alignments.get(doc)
  if (!byLayout) alignments.set(doc, (byLayout = new Map()))
  if (byLayout.has(sample)) return byLayout.get(sample)!
  const { lines } = nonEmptyLines(doc)
  const target = lines.map((l) => kindOf(doc, l))
  const n = sample.length
  const m = target.length
  let result: Map<number, number> | null = null
  if (n > 0 && m > 0 && n <= MAX_LAYOUT_LINES && m <= MAX_LAYOUT_LINES) {
    // Longest common subsequence, from the end (S) and from the start (P).
    const S = Array.from({ length: n + 1 }, () => new Int32Array(m + 1))
    const P = Array.from({ length: n + 1 }, () => new Int32Array(m + 1))
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--) S[i]![j] = sample[i] === target[j] ? S[i + 1]![j + 1]! + 1 : Math.max(S[i + 1]![j]!, S[i]![j + 1]!)
    for (let i = 1; i <= n; i++)
      for (let j = 1; j <= m; j++) P[i]![j] = sample[i - 1] === target[j - 1] ? P[i - 1]![j - 1]! + 1 : Math.max(P[i - 1]![j]!, P[i]![j - 1]!)
    const best = S[0]![0]!
    // Most of the sample's lines must be there, or the layouts are not the same.
    if (best >= Math.max(4, Math.ceil(n * 0.7))) {
      result = new Map()
      for (let i = 0; i < n; i++) {
        let place = -1
        let places = 0
        for (let j = 0; j < m; j++) {
          if (sample[i] === target[j] && P[i]![j]! + 1 + S[i + 1]![j + 1]! === best) {
            place = j
            places++
          }
        }
        // On every best alignment, and always in the same place.
        if (places === 1 && onEveryBest(S, P, i, best)) result.set(i, lines[place]!)
      }
    }
  }
  byLayout.set(sample, result)
  return result
}

const nonEmpty = new WeakMap<Doc, { lines: number[]; index: Map<number, number> }>()
function nonEmptyLines(doc: Doc): { lines: number[]; index: Map<number, number> } {
  let got = nonEmpty.get(doc)
  if (!got) {
    const lines: number[] = []
    const index = new Map<number, number>()
    for (let l = 0; l < doc.lineStart.length; l++) {
      if (lineText(doc, l).trim() === '') continue
      index.set(l, lines.length)
      lines.push(l)
    }
    nonEmpty.set(doc, (got = { lines, index }))
  }
  return got
}

/** Whether every best alignment matches the sample's line `i` (none leaves it out). */
function onEveryBest(S: Int32Array[], P: Int32Array[], i: number, best: number): boolean {
  const m = S[0]!.length - 1
  for (let j = 0; j <= m; j++) if (P[i]![j]! + S[i + 1]![j]! === best) return false
  return true
}

/** The value in the sample value's place, for an email whose wording is not the sample's; null when there is none. */
export function readByPlace(template: Template, field: FieldTemplate, doc: Doc, view: 'html' | 'text'): string | null {
  const layout = template.layout?.[view]
  const place = field.place?.[view]
  if (!layout || !place || !wordingDiffers(doc, template.fixed)) return null
  const aligned = align(doc, layout)
  const line = aligned?.get(place.line)
  if (line === undefined) return null
  // Its neighbours are in place too: the line above and the line below, where the sample has them.
  const { lines, index } = nonEmptyLines(doc)
  const at = index.get(line)!
  if (place.line > 0 && aligned!.get(place.line - 1) !== lines[at - 1]) return null
  if (place.line + 1 < layout.length && aligned!.get(place.line + 1) !== lines[at + 1]) return null
  const value = cleanValue(cellsOfLine(doc, line)[place.cell] ?? '')
  if (value === '' || (isStrong(field.shape) && !fitsShape(value, field.shape, field.shapeOptions))) return null
  return value
}
