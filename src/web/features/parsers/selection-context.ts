import type { ExtractionField } from '@shared/contracts/extraction'
import { snapSelection } from './snap-selection'

/** How much text either side of a highlight is kept to tell repeated values apart. */
export const CONTEXT_CHARS = 60

/** A highlight ready to be named: what `ExtractionField` stores besides the name. */
export type HighlightedValue = Required<Pick<ExtractionField, 'value' | 'context'>>

/**
 * The highlighted value and its surroundings, from the email's text and the selection's
 * offsets in it, the selection grown to the whole value it cuts (`snapSelection`; off for a value
 * the user typed). Null when only whitespace was selected.
 */
export function highlightFromText(text: string, start: number, end: number, { snap = true }: { snap?: boolean } = {}): HighlightedValue | null {
  if (snap) {
    const whole = snapSelection(text, start, end)
    if (!whole) return null
    ;({ start, end } = whole)
  }
  const raw = text.slice(start, end)
  const value = raw.trim()
  if (!value) return null
  const from = start + (raw.length - raw.trimStart().length)
  const to = from + value.length
  return {
    value,
    context: {
      before: text.slice(Math.max(0, from - CONTEXT_CHARS), from),
      after: text.slice(to, to + CONTEXT_CHARS),
      occurrence: countOccurrences(text.slice(0, from), value),
    },
  }
}

/**
 * How many times `value` appears in `text`, the way the extraction engine looks for it: any run
 * of whitespace matches any other, and a value that starts or ends with a letter or digit is not
 * cut out of a longer word or number.
 */
export function countOccurrences(text: string, value: string): number {
  const pattern = valuePattern(value)
  return pattern ? [...text.matchAll(pattern)].length : 0
}

function valuePattern(value: string): RegExp | null {
  const parts = value.trim().split(/\s+/).filter(Boolean)
  if (parts.length === 0) return null
  const body = parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+')
  const lead = /^[\p{L}\p{N}]/u.test(parts[0]!) ? '(?<![\\p{L}\\p{N}])' : ''
  const tail = /[\p{L}\p{N}]$/u.test(parts[parts.length - 1]!) ? '(?![\\p{L}\\p{N}])' : ''
  return new RegExp(`${lead}${body}${tail}`, 'gu')
}

const BLOCK_TAGS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'CAPTION', 'DD', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE',
  'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION',
  'TABLE', 'TBODY', 'TFOOT', 'THEAD', 'TR', 'UL',
])
const CELL_TAGS = new Set(['TD', 'TH'])
const SKIPPED_TAGS = new Set(['HEAD', 'SCRIPT', 'STYLE', 'TEMPLATE', 'TITLE', 'NOSCRIPT'])

/**
 * The text of `root` as a reader sees it (blocks on their own lines, table cells apart, HTML
 * whitespace collapsed unless `preserveWhitespace`), and where `range` starts and ends in it.
 * Range.toString() would glue 'Total:' and '$12.00' of two table cells together.
 */
export function textAroundRange(root: Node, range: Range, { preserveWhitespace = false } = {}): { text: string; start: number; end: number } {
  let text = ''
  let start: number | null = null
  let end: number | null = null

  const separate = (separator: '\n' | '\t') => {
    if (text === '' || text.endsWith('\n')) return
    if (separator === '\t' && text.endsWith('\t')) return
    text = text.replace(/[ \t]+$/, '') + separator
  }
  const append = (data: string) => {
    if (preserveWhitespace) {
      text += data
      return
    }
    const collapsed = data.replace(/\s+/g, ' ')
    // One space between words, none at the start of a line or cell.
    text += /[\s]$/.test(text) || text === '' ? collapsed.replace(/^ /, '') : collapsed
  }
  const visibleLength = (data: string) => {
    const before = text
    append(data)
    const length = text.length - before.length
    text = before
    return length
  }

  const markBoundaries = (node: Node) => {
    if (start === null && range.comparePoint(node, 0) >= 0) start = text.length
    if (end === null && range.comparePoint(node, 0) > 0) end = text.length
  }

  const walk = (node: Node) => {
    if (node.nodeType === 3) {
      const data = (node as Text).data
      if (start === null) {
        if (node === range.startContainer) start = text.length + visibleLength(data.slice(0, range.startOffset))
        else markBoundaries(node)
      }
      if (end === null) {
        if (node === range.endContainer) end = text.length + visibleLength(data.slice(0, range.endOffset))
        else if (range.comparePoint(node, 0) > 0) end = text.length
      }
      append(data)
      return
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return
    const tag = (node as Element).tagName ?? ''
    if (SKIPPED_TAGS.has(tag)) return
    if (node !== root) markBoundaries(node)
    if (BLOCK_TAGS.has(tag)) separate('\n')
    else if (CELL_TAGS.has(tag)) separate('\t')
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child)
    if (BLOCK_TAGS.has(tag)) separate('\n')
  }
  walk(root)

  const length = text.length
  return { text, start: Math.min(start ?? length, length), end: Math.min(end ?? length, length) }
}

/**
 * Where each field's value sits in `root`, to mark the fields already chosen: the
 * `occurrence`-th match among matches inside one text node (values rarely span elements).
 * One entry per field, in order; null for a value not found.
 */
export function rangesForFields(root: Node, fields: Array<Pick<ExtractionField, 'value' | 'context'>>): Array<Range | null> {
  const doc = root.ownerDocument ?? (root as Document)
  const textNodes: Text[] = []
  const collect = (node: Node) => {
    if (node.nodeType === 3) textNodes.push(node as Text)
    else if (!SKIPPED_TAGS.has((node as Element).tagName ?? '')) for (let child = node.firstChild; child; child = child.nextSibling) collect(child)
  }
  collect(root)
  const ranges: Array<Range | null> = []
  for (const field of fields) {
    const pattern = valuePattern(field.value)
    const matches: Array<[Text, number, number]> = []
    if (pattern) for (const node of textNodes) for (const m of node.data.matchAll(pattern)) matches.push([node, m.index, m.index + m[0].length])
    const match = matches[Math.min(field.context?.occurrence ?? 0, matches.length - 1)]
    if (!match) {
      ranges.push(null)
      continue
    }
    const range = doc.createRange()
    range.setStart(match[0], match[1])
    range.setEnd(match[0], match[2])
    ranges.push(range)
  }
  return ranges
}

/**
 * The same, for plain text: [start, end, index of the field] of each field's value, in the
 * text's order, without overlaps.
 */
export function spansForFields(text: string, fields: Array<Pick<ExtractionField, 'value' | 'context'>>): Array<[number, number, number]> {
  const spans: Array<[number, number, number]> = []
  fields.forEach((field, index) => {
    const pattern = valuePattern(field.value)
    if (!pattern) return
    const matches = [...text.matchAll(pattern)]
    const match = matches[Math.min(field.context?.occurrence ?? 0, matches.length - 1)]
    if (match) spans.push([match.index, match.index + match[0].length, index])
  })
  spans.sort((a, b) => a[0] - b[0])
  return spans.filter((span, i) => i === 0 || span[0] >= spans[i - 1]![1])
}

/** A highlight made by typing the value (for keyboard users): its first appearance in `text`. */
export function highlightFromTypedValue(text: string, typed: string): HighlightedValue | null {
  const pattern = valuePattern(typed)
  const match = pattern ? pattern.exec(text) : null
  // What the user typed is what they meant: not snapped.
  return match ? highlightFromText(text, match.index, match.index + match[0].length, { snap: false }) : null
}
