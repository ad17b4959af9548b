import { cellsOf, cleanValue, lineOf, lineText, type Doc } from '../../doc'
import { CELL_LINE_SEPARATOR } from '../../html-to-text'
import { cellClass, detectShape, findShapeSpans, fitsShape, hasDigit, isCurrencyCode } from '../../shapes'
import { squash, wordsOf } from '../anchors'
import { acceptable, applyExtent, beforeTail } from '../extent'
import { overlaps, spanAt, type Span } from '../spans'
import type { Extent, FieldTemplate, Rule, RuleHandler, UnitLine } from '../types'
import { findLandmarks, landmarkOf } from './landmark'
import { compiled, escapeRe, linePattern, MAX_PATTERN_LINE } from './pattern'

/**
 * Line items as a repeated group of rows. The sample's first item is a unit of one or more lines
 * (a table row; or a name line and a `Qty: 2 · $10.00` line); the items are the units that follow
 * one another after the table's header or the heading above the first item, with or without a
 * header, tolerant of empty cells (an image column), and ending at the first line that is not an
 * item or reads as a summary (Subtotal, Tax, Total…). Every line-item field of the same group reads
 * the same run of units, so the fields stay aligned item by item.
 */

type RowsRule = Extract<Rule, { kind: 'rows' }>

/** At most this many lines per item, and this many items. */
const MAX_UNIT_LINES = 4
export const MAX_ITEMS = 500
/** At most this many option lines (`Color: Blue`, `Size: M`) under one item's name. */
const MAX_OPTION_LINES = 6

/**
 * Words that open a summary row under a list of items, in the languages senders write in. A row
 * that starts with one of them ends the items, whether or not the sample showed that row.
 */
const SUMMARY =
  /^(?:sub[- ]?total|total|totals|grand total|order total|tax(?:es)?|sales tax|vat|gst|hst|pst|shipping|delivery|handling|postage|discount|coupon|promo(?:tion)?|credit|credits|gift card|store credit|tip|gratuity|service fee|fees?|balance|amount (?:due|paid|charged)|paid|payment|refund(?:ed)?|you saved|savings|rounding|deposit|zwischensumme|summe|gesamt(?:summe|betrag)?|mwst|ust|versand(?:kosten)?|rabatt|gutschein|sous-total|total ttc|total ht|tva|livraison|frais|remise|subtotal|impuestos?|env[ií]o|descuento|iva|totaal|subtotaal|btw|verzending|korting|subtotale|totale|spedizione|sconto|小計|合計|送料|消費税|税)\b/iu

/** A unit line a sample's value fills alone has no shape of its own: any line of text fits it. */
export function unitLineFits(doc: Doc, line: number, spec: UnitLine): boolean {
  if ('cells' in spec) {
    if (!doc.lineTab[line]) return false
    const cells = cellsOf(doc, line)
    // A row's empty last cell leaves no tab in the text (`LEE/ASA MSTR⇥057-8932…` under a
    // three-column header): a row one cell short, or one cell longer than the sample's, is read
    // as that cell empty, and counts as the one cell that may differ below.
    const width = Math.max(cells.length, spec.cells.length)
    const differ = width - Math.min(cells.length, spec.cells.length)
    if (differ > 1 || (differ === 1 && (cells.length < 2 || spec.cells[width - 1] === 'num'))) return false
    // …and its other cells read as the sample's did, text as text, numbers as numbers (not
    // `Untaxed Amount⇥$90.00` under `Desk Lamp⇥2.00 Units⇥$20.00`).
    if (differ === 1 && cells.some((c, i) => i < spec.cells.length && cellClass(c) !== spec.cells[i])) return false
    // One cell may be filled where the sample's was empty or empty where it was filled (a
    // Discount column that only some items use), but not the row's first filled cell: its name.
    const first = spec.cells.findIndex((want) => want !== 'empty')
    // A sparse grid (a timesheet's days, hours on some of them): the sample's row left a number
    // cell empty between numbers, so any number cell after the name may be empty or filled.
    const sparse = differ === 0 && (spec.sparse === true || isSparseGrid(spec.cells, first))
    let optional = 0
    for (let i = 0; i < width; i++) {
      const want = spec.cells[i] ?? 'empty'
      const c = (cells[i] ?? '').trim()
      if (want === 'empty' ? c !== '' : c === '') {
        if (i === first) return false
        if (sparse && (want === 'num' || cellClass(c) === 'num')) continue
        if (++optional > 1) return false
        continue
      }
      if (want === 'num' && cellClass(c) !== 'num' && !leadsWithAmount(c)) {
        // …or, in a sparse table, a word where others have a number (`Included` for a price);
        // in any table, a word that says there is nothing to pay (`FREE`, a dash for no fee).
        if ((spec.sparse && WORD_CELL.test(c)) || NOTHING_TO_PAY.test(c)) continue
        return false
      }
    }
    return true
  }
  if (doc.lineEnd[line]! - doc.lineStart[line]! > MAX_PATTERN_LINE) return false
  const text = lineText(doc, line)
  if (spec.pattern === null) return !doc.lineTab[line] && /\p{L}/u.test(text)
  return compiled(spec.pattern).test(text)
}

/** A cell of a word or two and no digit (`Included`, `Free`, `N/A`). */
const WORD_CELL = /^\p{L}[\p{L} ./'’-]{0,20}$/u
/**
 * A price or fee cell that says there is nothing to pay: a free ticket's `FREE`, a dash. Not
 * `Included`: rows that include a room or a service leave other cells empty too, which only a
 * sparse table's rows may (a coworking statement's bookings read one row in three with it).
 */
const NOTHING_TO_PAY = /^(?:free|gratis|gratuit|gratuito|kostenlos|[-–—])$/iu

/** The row's cells after its name are numbers with an empty one between them (`9.5⇥6⇥⇥⇥40.5`). */
function isSparseGrid(cells: ReadonlyArray<'empty' | 'num' | 'text'>, first: number): boolean {
  const lastNum = cells.lastIndexOf('num')
  let gaps = 0
  for (let i = first + 1; i < lastNum; i++) {
    if (cells[i] === 'text') return false
    if (cells[i] === 'empty') gaps++
  }
  return gaps > 0
}

/** A cell that opens with an amount and goes on with a note about it (`$38.43 Excl. Tax: $35.50`). */
function leadsWithAmount(cell: string): boolean {
  const first = /^\S+/.exec(cell)?.[0] ?? ''
  return /\d/.test(first) && cellClass(first) === 'num' && /^\S+\s+\p{L}/u.test(cell)
}

/** The text a row is known by: its first non-empty cell, or the whole line. */
function rowLabel(doc: Doc, line: number): string {
  return rowOf(doc, line).label
}

/**
 * What a line says as a row, worked out once per line: finding a run asks it of every line from
 * every line where a run might start. `summary`: a summary row whatever the rule's own stops.
 */
type RowLine = { label: string; words: string; wordCount: number; summary: boolean }
const rowCache = new WeakMap<Doc, Array<RowLine | undefined>>()
function rowOf(doc: Doc, line: number): RowLine {
  let rows = rowCache.get(doc)
  if (!rows) rowCache.set(doc, (rows = []))
  let row = rows[line]
  if (!row) {
    const label = doc.lineTab[line] ? (cellsOf(doc, line).find((c) => c.trim() !== '')?.trim() ?? '') : lineText(doc, line).trim()
    const words = wordsOf(label)
    rows[line] = row = { label, words: words.join(' '), wordCount: words.length, summary: summaryWords(label, words.length) }
  }
  return row
}

/** Whether a row is named as a summary (`Subtotal⇥$738.11`) or by one of the rule's stops. */
function isSummaryLine(doc: Doc, line: number, stops: ReadonlySet<string>): boolean {
  const row = rowOf(doc, line)
  return row.summary || stops.has(row.words)
}

/** Whether a line is a row named as a summary (`Subtotal`, `Total charged`), whatever a rule's stops. */
export function isSummary(doc: Doc, line: number): boolean {
  return rowOf(doc, line).summary
}

/**
 * A product whose name opens with a summary word (`Gift Card – Digital⇥$25.00⇥1⇥$25.00`): a row
 * of the items' cells with every one of them filled, named with more words than a summary has.
 * A summary row leaves the quantity and price cells empty (`Gift card (1335-GC-5989):⇥⇥-$10.00`).
 */
function productNamedLikeSummary(doc: Doc, line: number, spec: UnitLine): boolean {
  if (!('cells' in spec) || !doc.lineTab[line]) return false
  const cells = cellsOf(doc, line)
  if (cells.length !== spec.cells.length || spec.cells.filter((c) => c === 'num').length < 2) return false
  if (!spec.cells.every((want, i) => (want === 'empty' ? cells[i]!.trim() === '' : want === 'num' ? cellClass(cells[i]!) === 'num' : cells[i]!.trim() !== ''))) return false
  const row = rowOf(doc, line)
  return !row.label.endsWith(':') && row.wordCount >= 3
}

/** A total or a tax named with more words (`Items subtotal`, `Total charged`, `City tax`): short, with such a word. */
const TOTAL_WORD = /(?:^|[^\p{L}])(?:sub-?total|total|totals|zwischensumme|gesamtsumme|sous-total|subtotaal|totaal|subtotale|totale|小計|合計|tax|taxes|vat|gst|hst|mwst|tva|iva|moms)(?:$|[^\p{L}])/iu

function summaryWords(label: string, wordCount: number): boolean {
  return SUMMARY.test(label.trim()) || (wordCount <= 4 && !hasDigit(label) && TOTAL_WORD.test(label))
}

/** Lines holding a letter or digit: blank lines and rules (`----`) separate items, never are one. */
const contentCache = new WeakMap<Doc, { lines: number[]; index: Map<number, number> }>()
export function contentLines(doc: Doc): { lines: number[]; index: Map<number, number> } {
  let cached = contentCache.get(doc)
  if (!cached) {
    const lines: number[] = []
    const index = new Map<number, number>()
    for (let l = 0; l < doc.lineStart.length; l++) {
      const s = doc.lineStart[l]!
      const e = doc.lineEnd[l]!
      let content = false
      for (let i = s; i < e && i < s + 400; i++) {
        const c = doc.text.charCodeAt(i)
        if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c > 127 && /[\p{L}\p{N}]/u.test(doc.text[i]!))) {
          content = true
          break
        }
      }
      if (content) {
        index.set(l, lines.length)
        lines.push(l)
      }
    }
    cached = { lines, index }
    contentCache.set(doc, cached)
  }
  return cached
}

/**
 * The content indices of the unit's lines when it starts at content line `at` (-1 for an optional
 * line the item leaves out), or null when no unit starts there. A free line must not be one of the
 * unit's shaped lines.
 */
function unitLines(doc: Doc, lines: number[], at: number, unit: UnitLine[], stops: ReadonlySet<string>): number[] | null {
  return unitSpan(doc, lines, at, unit, stops)?.at ?? null
}

/**
 * `at`: the content index of each unit line (a repeated line: its first, or -1 when none);
 * `next`: the content index after the unit.
 */
function unitSpan(doc: Doc, lines: number[], at: number, unit: UnitLine[], stops: ReadonlySet<string>): { at: number[]; next: number } | null {
  if (at >= lines.length) return null
  // The unit's first line may be named like a summary and still be a product (see productNamedLikeSummary).
  const product = isSummaryLine(doc, lines[at]!, stops) && productNamedLikeSummary(doc, lines[at]!, unit[0]!)
  if (isSummaryLine(doc, lines[at]!, stops) && !product) return null
  const out: number[] = []
  let i = at
  const fitsLine = (spec: UnitLine, line: number | undefined) =>
    line !== undefined &&
    unitLineFits(doc, line, spec) &&
    // A table row named as a summary (`Subtotal⇥$738.11`) is no line of an item.
    !('cells' in spec && isSummaryLine(doc, line, stops) && !(product && line === lines[at])) &&
    !(!('cells' in spec) && spec.pattern === null && unit.some((other) => other !== spec && !other.repeat && !('cells' in other) && other.pattern !== null && unitLineFits(doc, line, other)))
  for (let u = 0; u < unit.length; u++) {
    const spec = unit[u]!
    if (spec.repeat) {
      // Option lines (`Color: Blue`): as many as there are, up to the unit's next line.
      const following = unit[u + 1]
      const first = i
      while (i - first < MAX_OPTION_LINES && fitsLine(spec, lines[i]) && !(following && fitsLine(following, lines[i]))) i++
      out.push(i > first ? first : -1)
      continue
    }
    if (fitsLine(spec, lines[i])) out.push(i++)
    else if (spec.optional) out.push(-1)
    else return null
  }
  return { at: out, next: i }
}

function unitAt(doc: Doc, lines: number[], at: number, unit: UnitLine[], stops: ReadonlySet<string>): boolean {
  return unitLines(doc, lines, at, unit, stops) !== null
}

/** How many content lines the unit starting at `at` takes (its optional lines may be absent). */
function unitLength(doc: Doc, lines: number[], at: number, unit: UnitLine[], stops: ReadonlySet<string>): number {
  const span = unitSpan(doc, lines, at, unit, stops)
  return span ? span.next - at : 0
}

/** A row marked as a part of the item above it: `+ Extra cheese`, `↳ Gift wrap`, `• No onions`. */
const SUB_ROW = /^(?:\+|↳|›|–|-|\*|•|·)\s*\p{L}/u

/** A line under an item that belongs to it: an option (`Location: London, UK`) or a marked sub-line (`+ Email Forwarding`). */
export function isItemSubLine(doc: Doc, line: number): boolean {
  return !isSummary(doc, line) && (labelOf(doc, line) !== null || isSubRow(doc, line))
}

/**
 * Where the next item starts after an item's option lines from `from` (at most MAX_OPTION_LINES of
 * them, none an item itself), or -1 when no item follows them: rows and lists skip them alike.
 */
export function pastOptionLines(from: number, end: number, isOption: (i: number) => boolean, isItem: (i: number) => boolean): number {
  let i = from
  while (i < end && i - from < MAX_OPTION_LINES && isOption(i) && !isItem(i)) i++
  return i > from && i < end && isItem(i) ? i : -1
}

function isSubRow(doc: Doc, line: number): boolean {
  return SUB_ROW.test(rowLabel(doc, line))
}

/**
 * The units following one another from content line `at`: each the content index of its first line.
 * Rows marked as parts of the item above (a dish's `+ Extra cheese`) are neither items nor their
 * end, unless the items themselves are marked that way (a bulleted list).
 */
function runFrom(doc: Doc, lines: number[], at: number, unit: UnitLine[], stops: ReadonlySet<string>): number[] {
  const out: number[] = []
  const skipSubRows = at < lines.length && !isSubRow(doc, lines[at]!)
  const itemLine = unit.length === 1 && 'pattern' in unit[0]! && unit[0]!.pattern !== null
  for (let i = at; out.length < MAX_ITEMS; ) {
    let n = unitLength(doc, lines, i, unit, stops)
    // An item line's option lines under it (`Location: London, UK`, `Backups: Daily`), when
    // another item follows them.
    if (n === 0 && out.length > 0 && itemLine) {
      const next = pastOptionLines(
        i,
        lines.length,
        (j) => lines[j]! === lines[j - 1]! + 1 && isItemSubLine(doc, lines[j]!) && !isSummaryLine(doc, lines[j]!, stops),
        (j) => unitLength(doc, lines, j, unit, stops) > 0,
      )
      if (next >= 0) n = unitLength(doc, lines, (i = next), unit, stops)
    }
    if (n === 0 || (out.length > 0 && chargeBeforeTotal(doc, lines, i, n, unit, stops))) break
    out.push(i)
    i += n
    while (skipSubRows && i < lines.length && isSubRow(doc, lines[i]!)) i++
    // A section heading between table rows (a row of one short cell: `Optional Products`) when
    // more rows of items follow it; not a heading set apart by blank lines, which starts another
    // table (`Deductions` after a payslip's earnings).
    const inTable = i + 1 < lines.length && (lines[i]! === lines[i - 1]! + 1 || lines[i + 1]! === lines[i]! + 1)
    // So is a note under an item, a line of text right between two of them (`Note: Key holder:
    // open the building at 7:00`).
    if ('cells' in unit[0]! && inTable && (isSectionRow(doc, lines[i]!, stops) || isNoteBetweenRows(doc, lines, i, stops)) && unitLength(doc, lines, i + 1, unit, stops) > 0) i++
  }
  return out
}

/** A line of text, not a row, right between two rows with nothing around it (not a summary). */
function isNoteBetweenRows(doc: Doc, lines: number[], i: number, stops: ReadonlySet<string>): boolean {
  const line = lines[i]!
  if (doc.lineTab[line] || i === 0 || i + 1 >= lines.length) return false
  return lines[i - 1] === line - 1 && lines[i + 1] === line + 1 && doc.lineTab[line - 1] === true && doc.lineTab[line + 1] === true && !isSummaryLine(doc, line, stops)
}

/**
 * A row right before a summary row that leaves empty a number cell every item fills (`Standing
 * charge (7 days)⇥⇥£3.69` over `Total⇥73.5⇥£23.42`): a charge of the summary, not an item.
 */
function chargeBeforeTotal(doc: Doc, lines: number[], at: number, n: number, unit: UnitLine[], stops: ReadonlySet<string>): boolean {
  const spec = unit[0]!
  if (n !== 1 || !('cells' in spec) || at + 1 >= lines.length || !isSummaryLine(doc, lines[at + 1]!, stops)) return false
  // In a sparse grid (a timesheet's days) an item leaves number cells empty too.
  if (isSparseGrid(spec.cells, spec.cells.findIndex((want) => want !== 'empty'))) return false
  if (spec.sparse && at > 0 && sameLead(doc, lines[at]!, lines[at - 1]!)) return false
  const cells = cellsOf(doc, lines[at]!)
  // A first cell of several lines, as the item's above is (a name over `Contractor`), is an item's.
  if (at > 0 && (cells[0] ?? '').includes(CELL_LINE_SEPARATOR) && (cellsOf(doc, lines[at - 1]!)[0] ?? '').includes(CELL_LINE_SEPARATOR)) return false
  return spec.cells.some((want, i) => want === 'num' && (cells[i] ?? '').trim() === '')
}

/** Whether two rows' first filled cells have the same shape (two dates, two codes), not a word and a date. */
function sameLead(doc: Doc, a: number, b: number): boolean {
  const lead = (line: number) => detectShape(rowOf(doc, line).label).shape
  return lead(a) === lead(b)
}

function isSectionRow(doc: Doc, line: number, stops: ReadonlySet<string>): boolean {
  if (doc.lineTab[line]) return false
  const row = rowOf(doc, line)
  return row.label !== '' && !hasDigit(row.label) && row.wordCount <= 5 && !isSummaryLine(doc, line, stops)
}

/** The content index just after a run's last unit. */
function runEnd(doc: Doc, lines: number[], run: number[], unit: UnitLine[], stops: ReadonlySet<string>): number {
  const last = run[run.length - 1]!
  let end = last + unitLength(doc, lines, last, unit, stops)
  while (!isSubRow(doc, lines[run[0]!]!) && end < lines.length && isSubRow(doc, lines[end]!)) end++
  return end
}

type Run = number[]
const runCache = new WeakMap<Doc, Map<string, Run | null>>()
/** Rules that find the same run share it (the fields of one item table): keyed by what finds it. */
const ruleKeys = new WeakMap<RowsRule, string>()

/** The target's items for a rule: after its header or heading, else the rule's ordinal run. */
function findRun(doc: Doc, rule: RowsRule): Run | null {
  let key = ruleKeys.get(rule)
  if (key === undefined) ruleKeys.set(rule, (key = JSON.stringify([rule.unit, rule.header, rule.landmark, rule.prefix, rule.ordinal, rule.stops])))
  let byKey = runCache.get(doc)
  if (!byKey) runCache.set(doc, (byKey = new Map()))
  if (byKey.has(key)) return byKey.get(key)!
  const { lines, index } = contentLines(doc)
  const stops = new Set(rule.stops)
  let found: Run | null = null
  const after = (anchorLines: number[]) => {
    for (const a of anchorLines) {
      const at = index.get(a)
      if (at === undefined) continue
      // The first item follows its heading closely: a subheading or a note may sit between them.
      for (let i = at + 1; i <= at + 1 + rule.gap + 2 && i < lines.length; i++) {
        const run = runFrom(doc, lines, i, rule.unit, stops)
        if (run.length > 0) return run
        if (rule.header) break
        // A row of about the items' width that does not fit is an item of another layout (a cell
        // more or less), not a note before them: the items are not read rather than read from the next.
        if (rowOfItemsWidth(doc, lines[i]!, rule.unit)) break
      }
    }
    return null
  }
  if (rule.header) {
    const header = rule.header
    const candidates: number[] = []
    for (const l of lines) if (doc.lineTab[l] && headerMatches(cellsOf(doc, l), header)) candidates.push(l)
    found = after(candidates)
  }
  const anchors = !rule.header && rule.landmark ? findLandmarks(doc, rule.landmark, rule.prefix ?? false) : []
  if (anchors.length > 0) found = after(anchors)
  // The line above the sample's items may be data nobody highlighted (the event's venue): where it
  // is not, the items are the n-th run of look-alike units, as for a rule learned without an anchor.
  // Where it is and no items follow it, they are not read from elsewhere.
  // A sample's one item found by its shape alone (a name over a price), found after its anchor and
  // not as the first run of such lines: without its anchor, a later run is no evidence of it, and
  // the field's other rules read the value.
  if (!rule.header && anchors.length === 0 && !(rule.single && rule.landmark && rule.ordinal > 0)) {
    let seen = 0
    for (let i = 0; i < lines.length; i++) {
      const run = runFrom(doc, lines, i, rule.unit, stops)
      if (run.length === 0) continue
      if (seen++ === rule.ordinal) {
        found = run
        break
      }
      i = runEnd(doc, lines, run, rule.unit, stops) - 1
    }
  }
  byKey.set(key, found)
  return found
}

/** One item's value of the rule's field, or '' when its cell is empty or does not read as the field. */
function valueIn(doc: Doc, line: number, rule: RowsRule, field: FieldTemplate): string {
  const spec = rule.unit[rule.line]!
  let value: string
  if ('cells' in spec && rule.capture) {
    const cell = cellsOf(doc, line)[rule.cell] ?? ''
    const re = compiled(rule.capture)
    // A capture learned on one of the cell's sub-lines (`SKU: MB3` of `Bag • SKU: MB3 • Size • M`)
    // is tried on each of them.
    // The sample's value was on one line of its cell: a match across the lines under an item's
    // name (`Jam • Replaced Honey`) reads the name's line alone.
    let m = re.exec(cell)
    if (m?.[1]?.includes(CELL_LINE_SEPARATOR)) m = re.exec(beforeSubLines(cell))
    m ??= cell.includes(CELL_LINE_SEPARATOR) ? (cell.split(CELL_LINE_SEPARATOR).map((part) => re.exec(part)).find((x) => x !== null) ?? null) : null
    value = cleanValue(m?.[1] ?? (rule.atEnd ? (endingValue(cell, field) ?? '') : ''))
  } else if ('cells' in spec) {
    const cells = cellsOf(doc, line)
    const start = doc.lineStart[line]! + cells.slice(0, rule.cell).reduce((n, c) => n + c.length + 1, 0)
    let p = start
    // An empty cell is no value: the next cell's text is another column's.
    while (p < doc.lineEnd[line]! && /[^\S\t]/.test(doc.text[p]!)) p++
    const got = applyExtent(doc, p, rule.extent, field)
    // A word where other rows of a sparse table have an amount (`Included`) is that row's value.
    const cell = (cells[rule.cell] ?? '').trim()
    value = got ? withoutOptions(cleanValue(firstLineOfItem(got, rule.extent)), rule.extent, field) : spec.sparse || NOTHING_TO_PAY.test(cell) ? cell : ''
  } else if (rule.capture) {
    value = cleanValue(compiled(rule.capture).exec(lineText(doc, line))?.[1] ?? '')
  } else {
    value = cleanValue(lineText(doc, line))
  }
  if (value === '') return ''
  if (acceptable(value, field)) return value
  // A reference cell that goes on after the reference (`INV-04340 / PO 5020`): the cell is the value.
  return rule.extent.kind === 'cell' && field.shape === 'id' && acceptable(value.split(/\s/)[0]!, field) ? value : ''
}

/**
 * A value that is a whole sub-line of its cell, with no fixed text of its own (an app's kind under
 * its name: `Tinder Dating App • Tinder Gold (1 Month) • …`): that sub-line, by its place.
 */
function subLineCapture(cellText: string, value: string): string | null {
  const k = cellText.split(CELL_LINE_SEPARATOR).findIndex((part) => squash(part) === squash(value))
  return k > 0 ? `^(?:.*?${escapeRe(CELL_LINE_SEPARATOR)}){${k}}\\s*(.+?)\\s*(?:${escapeRe(CELL_LINE_SEPARATOR)}|$)` : null
}

/** The value of the field's shape that ends a cell (`€400.34` of `€500.43 €400.34`), if one does. */
function endingValue(cell: string, field: FieldTemplate): string | null {
  const text = cell.trimEnd()
  const spans = findShapeSpans(text).filter((s) => s[1] === text.length)
  for (const [start] of spans.sort((a, b) => b[0] - a[0])) {
    const value = text.slice(start)
    if (fitsShape(value, field.shape, field.shapeOptions)) return value
  }
  return null
}

/**
 * An item's cell up to the lines under its first (`Blue Hoodie • Size: M`: see html-to-text's
 * joinCellLines): a sample's item with no variant lines says nothing of them, and an item's value
 * is its first line. A sample whose value itself spans them learns no rows rule (the check in
 * learnRows finds it cut), so other rules read it whole.
 */
function beforeSubLines(cell: string): string {
  const at = cell.indexOf(CELL_LINE_SEPARATOR)
  return at > 0 ? cell.slice(0, at) : cell
}

/**
 * A cell's value read to its end (the whole cell, or an ending not found) stops before the item's
 * sub-lines; so does a tail (a discount code after the name) found after a variant line.
 */
function firstLineOfItem(got: { value: string; missed?: boolean }, extent: Extent): string {
  if (extent.kind !== 'cell' && extent.kind !== 'tail' && !got.missed) return got.value
  const first = beforeSubLines(got.value)
  if (first === got.value || extent.kind !== 'tail' || !got.missed) return first
  return beforeTail(first, extent.pattern) ?? first
}

/**
 * An item's name cell read whole, less the options its shop writes after the name (`Solidus
 * T-Shirt Size: XS, Color: Red`): a sample's name without a `Key: value` says nothing of them.
 */
function withoutOptions(value: string, extent: Extent, field: FieldTemplate): string {
  if (extent.kind !== 'cell' || field.shape !== 'text' || field.sampleValue.includes(':')) return value
  const at = value.search(OPTIONS_TAIL)
  return at > 0 ? value.slice(0, at) : value
}
const OPTION_PAIR = '\\p{Lu}\\p{L}*(?: \\p{Ll}+)?: *[^,;:\\s][^,;:]*?'
const OPTIONS_TAIL = new RegExp(`\\s+${OPTION_PAIR}(?:[,;] *${OPTION_PAIR})*$`, 'u')

/** A table row a cell wider or narrower than the items' rows, or as wide. */
function rowOfItemsWidth(doc: Doc, line: number, unit: UnitLine[]): boolean {
  const spec = unit[0]!
  return 'cells' in spec && doc.lineTab[line] === true && Math.abs(cellsOf(doc, line).length - spec.cells.length) <= 1
}

export function applyRows(doc: Doc, rule: RowsRule, field: FieldTemplate): { value: string; penalty: number; items: string[]; cut?: string } | null {
  const run = findRun(doc, rule)
  if (!run) return null
  const { lines } = contentLines(doc)
  const stops = new Set(rule.stops)
  const items = run.map((at) => {
    const at2 = unitLines(doc, lines, at, rule.unit, stops)?.[rule.line] ?? -1
    // The item leaves out the optional line that holds this field.
    return at2 < 0 ? '' : valueIn(doc, lines[at2]!, rule, field)
  })
  const found = items.filter((v) => v !== '').length
  if (found === 0) return null
  // A table row of about the items' width right after them, not a summary, may be an item laid out
  // otherwise (a cell more or less): the items read may not be all.
  const next = 'cells' in rule.unit[0]! ? runEnd(doc, lines, run, rule.unit, stops) : lines.length
  const cut = next < lines.length && rowOfItemsWidth(doc, lines[next]!, rule.unit) && !isSummaryLine(doc, lines[next]!, stops) && !chargeBeforeTotal(doc, lines, next, 1, rule.unit, stops)
  // Items whose cell does not read as the field make the whole column doubtful.
  return { value: items.join('\n'), penalty: found < items.length || cut ? 0.3 : 0, items, ...(cut ? { cut: `the items end at a row that does not read like them (${items.length} read)` } : {}) }
}

// ── learning ──

/** How the sample's unit line is recognised in other emails. */
export function specOf(doc: Doc, line: number, variable: Span[]): UnitLine | null {
  const ls = doc.lineStart[line]!
  const le = doc.lineEnd[line]!
  if (doc.lineTab[line]) {
    const keyed = keyedRow(doc, line, variable)
    if (keyed) return { pattern: keyed }
    let offset = ls
    const cells = cellsOf(doc, line).map((c) => {
      const s = offset
      offset += c.length + 1
      const t = c.trim()
      if (t === '') return 'empty' as const
      // A cell holding a highlighted value is data whatever it looks like in the sample.
      if (overlaps(variable, s, s + c.length) && !hasDigit(t)) return 'text' as const
      return cellClass(t) === 'num' ? ('num' as const) : ('text' as const)
    })
    return { cells }
  }
  const whole = spanAt(variable, ls, le)
  // A line that is only a value: any line of text, or a number line when it is one (an item's price under its name).
  if (whole && whole[0] <= ls + (lineText(doc, line).length - lineText(doc, line).trimStart().length) && whole[1] >= le - 1) return NUMBER_LINE_RE.test(lineText(doc, line)) ? { pattern: NUMBER_LINE } : { pattern: null }
  // Any span on the line will do as the "captured" part: only the shape of the line matters here.
  const first = variable.find((s) => s[0] >= ls && s[1] <= le)
  const number = /\S*\d\S*/.exec(lineText(doc, line))
  const span: Span | null = first ?? (number ? [ls + number.index, ls + number.index + number[0].length] : null)
  if (!span) return { pattern: literalLine(lineText(doc, line)) }
  const pattern = linePattern(doc, line, span, variable)
  return pattern ? { pattern: pattern.replace(/\((\.\+\?|\\S\+\?)\)/, '$1') } : null
}

/**
 * A line of text nobody highlighted whose words differ between the sample's first two items (an
 * app's developer under its name: `Tinder Inc.`, `Ginger Labs`) is data: the unit takes any line of
 * text there. `skip`: the unit's line the other item does not have (an optional line).
 */
function freeWhereItemsDiffer(doc: Doc, lines: number[], variable: Span[], unit: UnitLine[], start: number, other: number, skip = -1): void {
  for (let j = 0; j < unit.length; j++) {
    if (j === skip) continue
    const spec = unit[j]!
    const mine = lines[start + j]
    const theirs = lines[other + (skip >= 0 && j > skip ? j - 1 : j)]
    if (mine === undefined || theirs === undefined || 'cells' in spec || spec.pattern === null) continue
    const text = lineText(doc, mine)
    // A question or a label (`How likely are you to recommend us?`) is the form's fixed text, not data.
    if (spec.pattern !== literalLine(text) || !/\p{L}/u.test(text) || /[?:]\s*$/.test(text)) continue
    const next = specOf(doc, theirs, variable)
    if (!next || 'cells' in next || next.pattern !== literalLine(lineText(doc, theirs)) || next.pattern === spec.pattern) continue
    unit[j] = { ...spec, pattern: null }
  }
}

/**
 * A line of fixed words ending with a connecting word, then a name (`Assigned by Mohammed Nguyễn`,
 * `Sold by Peña Hermanos`): the name is data nobody highlighted, and other items name another.
 */
const NAMED_LINE = /^(\s*\p{L}+(?:\s+\p{Ll}+)*\s+(?:by|to|from|for|with|via|at|von|par|por|de|da|di|van|af|av))\s+\p{Lu}[\p{L}'’.-]*(?:\s+[\p{L}'’.-]+){0,4}\s*$/u

/**
 * A row of two cells, a label of words and its value (`Ticket number⇥220-3935736485`, `Class⇥Economy
 * (K)`), inside a block of other such rows: known by its label, as a `Label: value` line is, not by
 * the classes of its cells, which a row of any other label shares.
 */
function keyedRow(doc: Doc, line: number, variable: Span[]): string | null {
  const cells = cellsOf(doc, line)
  if (cells.length !== 2) return null
  const label = cells[0]!.trim()
  const ls = doc.lineStart[line]!
  if (label === '' || hasDigit(label) || wordsOf(label).length > 4 || overlaps(variable, ls, ls + cells[0]!.length) || cells[1]!.trim() === '' || cellClass(cells[1]!) === 'num') return null
  return `^\\s*${wordsSource(label)}\\W*\\t\\s*\\S.*$`
}

/** A text's words as a regex source, whatever punctuation and spaces lie between them. */
function wordsSource(text: string): string {
  return wordsOf(text).map(escapeRe).join('\\W+')
}

function literalLine(text: string): string {
  const named = NAMED_LINE.exec(text)
  if (named) return `^\\s*${wordsSource(named[1]!)}\\s+\\p{Lu}.*$`
  return `^\\s*${wordsSource(text)}\\W*$`
}

/** Whether a unit is more than lines of free text: something in it must show an item's shape. */
function shaped(unit: UnitLine[]): boolean {
  return unit.some((u) => ('cells' in u ? u.cells.length >= 2 && (u.cells.includes('num') || u.cells.length >= 3) : u.pattern !== null && hasFixedText(u.pattern)))
}

/** Whether a line pattern has fixed text of its own (`Qty:`, a bullet, `x`), beyond free numbers and words. */
export function hasFixedText(pattern: string): boolean {
  const rest = pattern.replace(/\\S\*\\d\\S\*|\(?\.\+\?\)?|\(?\\S\+\?\)?|\\s[*+]|\^|\$/g, '')
  return /[^\s]/.test(rest)
}

/** A unit line's pattern that starts with fixed words (`Change at …`), not a value or a number. */
const STARTS_WITH_WORDS = /^\^\\s\*\p{L}{2,}/u

/** `firstEnd` and `end`: the content indices after the run's first unit and after its last. */
/** `single`: the sample has one item, found by its shape alone (see singleItem). */
/** `loose`: words of a one-item sample's line read as data (see looseItemSpec). */
export type LearnedRun = { unit: UnitLine[]; first: number; count: number; lines: number[]; firstEnd: number; end: number; single?: true; loose?: Span[] }

/**
 * The repeated unit holding a highlighted value, if the sample shows one: two or more look-alike
 * units in a row, or one table row under a header.
 */
export function findUnitRun(doc: Doc, span: Span, variable: Span[]): LearnedRun | null {
  const line = lineOf(doc, span[0])
  if (lineOf(doc, span[1]) !== line) return null
  const { lines, index } = contentLines(doc)
  const at = index.get(line)
  if (at === undefined) return null
  let fallback: LearnedRun | null = null
  for (let k = 1; k <= MAX_UNIT_LINES; k++) {
    let best: LearnedRun | null = null
    for (let o = 0; o < k; o++) {
      const start = at - o
      if (start < 0 || start + k > lines.length) continue
      const unit: UnitLine[] = []
      for (let j = 0; j < k; j++) {
        const spec = specOf(doc, lines[start + j]!, variable)
        if (!spec) break
        unit.push(spec)
      }
      if (unit.length === k) freeWhereItemsDiffer(doc, lines, variable, unit, start, start + k)
      // Two cells of text are an item's row only under a header that names them (Passenger, E-ticket number).
      if (unit.length !== k || !(shaped(unit) || (k === 1 && 'cells' in unit[0]! && headerAbove(doc, lines, start, unit[0]!.cells.length, variable)))) continue
      const stops = new Set<string>()
      if (!unitAt(doc, lines, start, unit, stops)) continue
      const first = start
      // The user highlights the first item: a look-alike unit right above (not a table's header)
      // means these are lines of one block (an address), not items.
      if (first - k >= 0 && unitAt(doc, lines, first - k, unit, stops) && !headerAbove(doc, lines, first, 'cells' in unit[0]! ? unit[0]!.cells.length : -1, variable)) continue
      let run = runFrom(doc, lines, first, unit, stops)
      // Rows under a header whose number cells only some rows fill (a dividend's quantity and
      // price; a deposit's symbol too): the highlighted row filled them all, the rows under it need not.
      const row = unit[0]!
      if (k === 1 && 'cells' in row && !row.sparse && headerAbove(doc, lines, first, row.cells.length, variable)) {
        const sparse: UnitLine[] = [{ ...row, sparse: true }]
        // …rows that start like the highlighted one (a date, a code): not the summary rows under them (`Produits⇥⇥⇥⇥753,21 €`).
        const all = runFrom(doc, lines, first, sparse, stops)
        const led = all.findIndex((u) => !sameLead(doc, lines[u]!, lines[first]!))
        const wider = led < 0 ? all : all.slice(0, led)
        if (wider.length > run.length) {
          unit[0] = sparse[0]!
          run = wider
        }
      }
      // A line between items (`Change at Leipzig Hbf · 29 min` between a journey's legs) is not
      // after the last one: the unit without it right after the run is the last item, and the line
      // is optional.
      const between = unit[k - 1]!
      if (k > 1 && run.length >= 2 && 'pattern' in between && between.pattern !== null && STARTS_WITH_WORDS.test(between.pattern) && !between.optional) {
        const end = runEnd(doc, lines, run, unit, stops)
        // The rest of the unit must be lines of some form (rows, patterns), two or more: any line
        // of text after the items reads as a unit of one free line.
        const rest = unit.slice(0, -1)
        const formed = rest.length >= 2 && rest.some((u) => 'cells' in u || u.pattern !== null)
        if (formed && !unitAt(doc, lines, end, unit, stops) && unitAt(doc, lines, end, rest, stops)) {
          unit[k - 1] = { ...between, optional: true }
          run = runFrom(doc, lines, first, unit, stops)
        }
      }
      // Each other unit must read like this one by its own spec too, and hold a value of the same
      // kind where the sample's value is (`$28.99` under `2,361 kWh` is a key–value table).
      const kind = (l: number) => valueKind(doc, l, span, line)
      const consistent = run.every((u) => {
        const other: Array<UnitLine | null> = []
        for (let j = 0; j < k; j++) other.push(specOf(doc, lines[u + j]!, variable))
        // In a sparse table, the items that leave the value's cell empty have no value there.
        const theirs = kind(lines[u + o]!)
        // (A row keyed by a label in one item may be data in another: it fits the unit's row all the same.)
        return other.every((s, j) => s !== null && (('cells' in s) === ('cells' in unit[j]!) || unitLineFits(doc, lines[u + j]!, unit[j]!))) && (theirs === kind(line) || ((theirs === 'empty' || theirs === 'text') && 'cells' in unit[0]! && unit[0].sparse === true))
      })
      if (run.length >= 2 && consistent) {
        const found = { unit, first, count: run.length, lines, firstEnd: first + k, end: runEnd(doc, lines, run, unit, stops) }
        // Every unit followed by the same number of other lines (a name under each table row): the
        // item is the longer unit, which reads those lines too; this one if that is not found.
        // Rows marked as parts of the item above (`+ Extra cheese`) are skipped as such, not read.
        const gaps = new Set(run.slice(1).map((u, j) => u - run[j]!))
        const marked = run.slice(1).some((u, j) => lines.slice(run[j]! + k, u).some((l) => isSubRow(doc, l)))
        if (gaps.size === 1 && [...gaps][0]! > k && [...gaps][0]! <= MAX_UNIT_LINES && !marked) {
          fallback ??= found
          continue
        }
        // Blocks of labelled lines whose option lines vary reach further than a fixed unit that two
        // items happen to share (both with one `Size:` line): the items are the longer run.
        const blocks = 'cells' in unit[0]! ? null : findRunOfLabelledBlocks(doc, variable, lines, at)
        const result = blocks && blocks.end > found.end ? blocks : found
        // Units of the same length that start on another of their lines: the one that reaches
        // further (a name line over a table row also pairs with the next item's row, one item short).
        if (!best || result.end > best.end) best = result
        continue
      }
      // One row under a header: items, though a row of text cells alone may as well be a form's values under their names.
      if (k === 1 && run.length === 1 && 'cells' in unit[0]! && headerAbove(doc, lines, first, unit[0]!.cells.length, variable)) return { unit, first, count: 1, lines, firstEnd: first + 1, end: first + 1, ...(shaped(unit) ? {} : { single: true as const }) }
      // One item numbered 1 (`Room 1: Deluxe Double`, `1. Linen Shirt`): the first of a list that has one item here.
      if (k === 1 && run.length === 1 && FIRST_OF_LIST.test(lineText(doc, line))) return { unit, first, count: 1, lines, firstEnd: first + 1, end: first + 1 }
    }
    if (best) {
      // Sections under headings of several lines hold more items than a unit some of them share
      // (a plan name over the same two charge rows in two of three services).
      const sections = findRunOfHeadedSections(doc, variable, lines, at)
      return sections && sections.count > best.count ? sections : best
    }
  }
  // Blocks of labelled lines whose options vary are the items when they hold as many as a unit
  // with one optional line does, which may be a rotation of them that takes the next item's name for a line.
  const optional = fallback ? null : findRunWithOptionalLine(doc, variable, lines, at)
  const blocks = fallback ? null : findRunOfLabelledBlocks(doc, variable, lines, at)
  return (
    fallback ??
    (blocks && (!optional || blocks.count >= optional.count) ? blocks : optional) ??
    findRunOfSections(doc, variable, lines, at) ??
    findRunOfHeadedSections(doc, variable, lines, at) ??
    firstNumberedBlock(doc, variable, lines, at) ??
    singleItem(doc, variable, lines, at) ??
    singleBlock(doc, variable, lines, at) ??
    singleRuledBlock(doc, variable, lines, at)
  )
}

/** The variable spans that lie within a line. */
function valuesOn(doc: Doc, variable: Span[], line: number): Span[] {
  return variable.filter((v) => v[0] >= doc.lineStart[line]! && v[1] <= doc.lineEnd[line]!)
}

/** A block of the unit's lines (of 2 to 8 lines) ending right above content line `head`. */
function blockAbove(doc: Doc, lines: number[], head: number, unit: UnitLine[], stops: ReadonlySet<string>): boolean {
  return [2, 3, 4, 5, 6, 7, 8].some((n) => head - n >= 0 && unitLength(doc, lines, head - n, unit, stops) === n)
}

/** A line drawn to separate blocks: `-----`, `=====`, `─────`. */
const RULE_LINE = /^\s*[-=_*~─━═·•]{3,}\s*$/u

/**
 * A sample with one item as a block of lines between two drawn rules (`商品名：…`, `数量：3`,
 * `小計：…` between `-----` lines), each line with fixed text of its own and two or more holding
 * values: the block other emails repeat between rules, one per item.
 */
function singleRuledBlock(doc: Doc, variable: Span[], lines: number[], at: number): LearnedRun | null {
  const line = lines[at]!
  const raw = (l: number) => (l >= 0 && l < doc.lineStart.length ? lineText(doc, l) : '')
  let top = line
  while (top > 0 && raw(top - 1).trim() !== '' && !RULE_LINE.test(raw(top - 1))) top--
  let bottom = line
  while (bottom + 1 < doc.lineStart.length && raw(bottom + 1).trim() !== '' && !RULE_LINE.test(raw(bottom + 1))) bottom++
  if (!RULE_LINE.test(raw(top - 1)) || !RULE_LINE.test(raw(bottom + 1)) || bottom - top + 1 < 2 || bottom - top + 1 > MAX_UNIT_LINES + 2) return null
  const first = at - (line - top)
  const unit: UnitLine[] = []
  let values = 0
  for (let l = top; l <= bottom; l++) {
    const spec = specOf(doc, l, variable)
    if (!spec || 'cells' in spec || spec.pattern === null || !hasFixedText(spec.pattern)) return null
    unit.push(spec)
    if (valuesOn(doc, variable, l).length > 0) values++
  }
  const stops = new Set<string>()
  if (values < 2 || lines[first] !== top || runFrom(doc, lines, first, unit, stops).length !== 1) return null
  return { unit, first, count: 1, lines, firstEnd: first + unit.length, end: first + unit.length, single: true }
}

/**
 * A sample with one item laid out as a block: its name on a line of its own, then labelled lines
 * (`Quantity: 4`, `Sold by: …`) or a line of its price. Labelled lines between the name and the
 * first one holding a value are options other items may not have (`Engraving: J.D.`), and so may
 * be labelled lines the other items have and this one has not. Found like singleItem, for the
 * same reason: emails with more items show more such blocks after it.
 */
function singleBlock(doc: Doc, variable: Span[], lines: number[], at: number): LearnedRun | null {
  const holdsValue = (i: number) => valuesOn(doc, variable, lines[i]!).length > 0
  const numberLine = (i: number) => NUMBER_LINE_RE.test(lineText(doc, lines[i]!))
  // A label is a few words without digits (`Inchecken vanaf 15:00 uur, …` is a sentence).
  const labelled = (i: number) => {
    const label = labelOf(doc, lines[i]!)
    return label !== null && !hasDigit(label)
  }
  const inBlock = (i: number) => i < lines.length && !doc.lineTab[lines[i]!] && !rowOf(doc, lines[i]!).summary && (labelled(i) || numberLine(i))
  let head = at
  while (head > 0 && at - head <= MAX_OPTION_LINES + MAX_UNIT_LINES && (labelOf(doc, lines[head]!) !== null || numberLine(head))) head--
  const name = specOf(doc, lines[head]!, variable)
  if (!name || 'cells' in name || name.pattern !== null || labelOf(doc, lines[head]!) !== null) return null
  let end = head + 1
  while (inBlock(end) && end - head <= MAX_OPTION_LINES + MAX_UNIT_LINES) end++
  let own = head + 1
  while (own < end && !holdsValue(own)) own++
  // An item has a number: its quantity or price (not a note over `Ships to: …`).
  if (own >= end || end - own > MAX_UNIT_LINES || (at > head && at < own) || !lines.slice(own, end).some((l) => hasDigit(lineText(doc, l)))) return null
  // A line that is only the item's price is known by being a number.
  const ownLines: Array<{ pattern: string }> = []
  for (const l of lines.slice(own, end)) {
    const spec = specOf(doc, l, variable)
    if (!spec || 'cells' in spec || spec.pattern === null) return null
    ownLines.push({ pattern: spec.pattern })
  }
  // Other items may have labelled lines this one has not (`Condition: Used`), after the name or between its lines.
  const option: UnitLine = { pattern: OPTION_LINE, optional: true, repeat: true }
  const unit: UnitLine[] = [name, option, ...ownLines.flatMap((spec, k) => (k > 0 && LABELLED_LINE.test(spec.pattern) ? [option, spec] : [spec]))]
  const stops = new Set<string>()
  const mine = unitSpan(doc, lines, head, unit, stops)
  if (!mine || mine.next !== end || runFrom(doc, lines, head, unit, stops).length !== 1) return null
  if (blockAbove(doc, lines, head, unit, stops)) return null
  return { unit, first: head, count: 1, lines, firstEnd: end, end, single: true }
}

/**
 * A sample with one item: a line or table row that carries several values and starts with one
 * (an item's name, a sale's date), with no look-alike line above or below it. Emails with more
 * items show look-alike lines after it, which a rule that read one value would leave out while
 * saying "success". A key–value line starts with its fixed label and is not an item.
 */
const ITEM_SHAPES = new Set(['money', 'number', 'date', 'time', 'id'])

function singleItem(doc: Doc, variable: Span[], lines: number[], at: number): LearnedRun | null {
  const line = lines[at]!
  const loose = looseItemSpec(doc, line, variable)
  const spec = loose?.spec ?? specOf(doc, line, variable)
  if (!spec || !shaped([spec])) return null
  const stops = new Set<string>()
  if (!unitAt(doc, lines, at, [spec], stops) || (at > 0 && unitAt(doc, lines, at - 1, [spec], stops)) || runFrom(doc, lines, at, [spec], stops).length !== 1) return null
  const ls = doc.lineStart[line]!
  const lead = ls + lineText(doc, line).search(/\S/)
  const values = valuesOn(doc, variable, line)
  if (values.length < 2 || !values.some((v) => v[0] <= lead && v[1] > lead)) return null
  // An item has a number of its own (a quantity, a price, a date, a reference): a line of a
  // person's details (`Matthäus; Nguyễn; m@example.com; +49 39 5925511`) is one record, not an item.
  if (!values.some((v) => ITEM_SHAPES.has(detectShape(doc.text.slice(v[0], v[1])).shape))) return null
  return { unit: [spec], first: at, count: 1, lines, firstEnd: at + 1, end: at + 1, single: true, ...(loose ? { loose: loose.spans } : {}) }
}

/**
 * A one-item sample's item line read with the words nobody highlighted as data: other items have
 * another author after the title, another variant after the name, where a sample of two items
 * would show the words differ. Kept as the line's fixed text: a label (`Barcode:`), the word right
 * before a value (`Qty 2`, `2 x Name`) and punctuation. Null when that leaves the line no fixed
 * text of its own, or no word was loosened.
 */
function looseItemSpec(doc: Doc, line: number, variable: Span[]): { spec: UnitLine; spans: Span[] } | null {
  if (doc.lineTab[line]) return null
  const le = doc.lineEnd[line]!
  const loose: Span[] = []
  let run: number[] = []
  const close = (next: number) => {
    if (run.length === 0) return
    const end = doc.tokens[run[run.length - 1]!]!.end
    const label = /^\s*:/.test(doc.text.slice(end, end + 8))
    const beforeValue = doc.text.slice(end, next).trim() === '' && overlaps(variable, next, next + 1)
    const words = beforeValue ? run.slice(0, -1) : label ? [] : run
    const from = words.length > 0 ? doc.tokens[words[0]!]!.start : 0
    const to = words.length > 0 ? doc.tokens[words[words.length - 1]!]!.end : 0
    // Whole words only: `SKU` in `SKU-9` is part of a code, which the line's number form reads.
    const whole = /^[\s(["'“‘/]?$/u.test(doc.text.slice(from - 1, from)) && /^(?:[\s)\]"'”’/]|[.,;](?:\s|$)|$)/u.test(doc.text.slice(to, to + 2))
    // Names (`Carolyn Bain`, `Size M`), not a sentence's words (`dropped it off at`): those are the line's own.
    const named = words.every((i) => /^[\p{Lu}\p{N}]/u.test(doc.text.slice(doc.tokens[i]!.start, doc.tokens[i]!.end)))
    if (whole && named && words.some((i) => /\p{L}/u.test(doc.tokens[i]!.norm))) loose.push([from, to])
    run = []
  }
  for (let i = doc.lineToken[line]!; i < doc.tokens.length && doc.tokens[i]!.line === line; i++) {
    const t = doc.tokens[i]!
    // A run is words with spaces between: a value or punctuation (`/`, `.`, `·`, `:`) ends it, and punctuation stays fixed.
    if (overlaps(variable, t.start, t.end) || !t.word) {
      close(t.start)
      continue
    }
    run.push(i)
  }
  close(le)
  if (loose.length === 0) return null
  const spans = [...variable, ...loose].sort((a, b) => a[0] - b[0])
  const spec = specOf(doc, line, spans)
  return spec && !('cells' in spec) && spec.pattern !== null && hasFixedText(spec.pattern) ? { spec, spans } : null
}

/** A block's heading that numbers it as the first: `Package 1 of 3`, `Passenger 1`, `Ticket #1:`. */
const FIRST_BLOCK_HEADING = /^\s*\p{L}+\s+#?1(?:\s*(?:of|\/|von|de|sur|di|van)\s*\d+)?\s*[:.)–—-]?\s*$/u

/**
 * The one block of a sample that numbers it as the first (`Package 1 of 1` over `Carrier: UPS`,
 * `Tracking number: …`): the first of blocks that other emails have several of. Its labelled
 * lines are known by their labels, its other lines (the items in a package) are any text.
 */
function firstNumberedBlock(doc: Doc, variable: Span[], lines: number[], at: number): LearnedRun | null {
  for (let head = at; head >= 0 && at - head < MAX_VARIABLE_UNIT_LINES; head--) {
    const line = lines[head]!
    if (head < at && doc.lineTab[line]) return null
    if (!FIRST_BLOCK_HEADING.test(lineText(doc, line))) continue
    // The block: its heading's paragraph, which must hold the value.
    let last = head
    while (last + 1 < lines.length && lines[last + 1] === lines[last]! + 1 && last + 1 - head < MAX_VARIABLE_UNIT_LINES && !doc.lineTab[lines[last + 1]!]) last++
    if (at > last) return null
    const unit: UnitLine[] = []
    for (let i = head; i <= last; i++) {
      const spec = i === head || labelOf(doc, lines[i]!) !== null ? specOf(doc, lines[i]!, variable) : { pattern: null }
      if (!spec || 'cells' in spec) return null
      unit.push(spec)
    }
    const stops = new Set<string>()
    if (unitLength(doc, lines, head, unit, stops) !== last - head + 1) return null
    return { unit, first: head, count: 1, lines, firstEnd: last + 1, end: last + 1 }
  }
  return null
}

/** A line of text that reads `Label: value`, the label of at most four words. */
export const LABEL_VALUE = /^\s*(\p{L}[\p{L}\p{N}'’()/&.-]*(?:\s+[\p{L}\p{N}'’()/&.-]+){0,3}):\s*\S/u
/** Any such line, as a unit line: an item's option (`Color: Forest Green`, `Engraving: For Mom`). */
const OPTION_LINE = '^\\s*\\p{L}[^:\\t]{0,40}:\\s*\\S'

function labelOf(doc: Doc, line: number): string | null {
  if (doc.lineTab[line]) return null
  const m = LABEL_VALUE.exec(lineText(doc, line))
  return m ? wordsOf(m[1]!).join(' ') : null
}

/**
 * Items as blocks of a name line over `Label: value` lines, where items differ in how many option
 * lines they have (`Color: Blue`, `Size: M`, none) but each ends with the same labelled lines
 * (`Quantity: 2`, `Price: $12.00`). The labels every block of the sample has are the item's own
 * lines; any other labelled line is an option, 0 or more of them after the name.
 */
function findRunOfLabelledBlocks(doc: Doc, variable: Span[], lines: number[], at: number): LearnedRun | null {
  // The first block's name: the value's line, or the nearest line above it that is not labelled.
  let head = at
  while (head > 0 && at - head < MAX_OPTION_LINES + 2 && labelOf(doc, lines[head]!) !== null) head--
  if (labelOf(doc, lines[head]!) !== null || doc.lineTab[lines[head]!]) return null
  // A block is a name line and the labelled lines under it, ending with the first block's last label.
  let end = head + 1
  while (end < lines.length && labelOf(doc, lines[end]!) !== null) end++
  if (end - head < 2) return null
  const closing = labelOf(doc, lines[end - 1]!)!
  // A line that is only the item's amount may close each block, after its labelled lines (`197,22 €`).
  const amountLine = (i: number) => i < lines.length && NUMBER_LINE_RE.test(lineText(doc, lines[i]!))
  const tail = amountLine(end) ? 1 : 0
  end += tail
  const blocks: Array<[number, number]> = [[head, end]]
  while (blocks.length < MAX_ITEMS) {
    const start = blocks[blocks.length - 1]![1]
    if (start >= lines.length || doc.lineTab[lines[start]!] || rowOf(doc, lines[start]!).summary) break
    let e = start + 1
    while (e < lines.length && e - start <= MAX_OPTION_LINES + 4 && labelOf(doc, lines[e]!) !== null && labelOf(doc, lines[e]!) !== closing) e++
    if (e >= lines.length || labelOf(doc, lines[e]!) !== closing || (tail === 1 && !amountLine(e + 1))) break
    blocks.push([start, e + 1 + tail])
  }
  if (blocks.length < 2) return null
  // The item's own lines: the labels every block has, in the first block's order, closing it.
  const labelsIn = ([s, e]: [number, number]) => Array.from({ length: e - s - 1 - tail }, (_, k) => labelOf(doc, lines[s + 1 + k]!)!)
  const firstLabels = labelsIn(blocks[0]!)
  const common = firstLabels.filter((label) => blocks.every((b) => labelsIn(b).includes(label)))
  // They close every block, in the same order; the lines before them are options.
  let own = firstLabels.slice(firstLabels.length - common.length)
  if (own.length === 0 || own.join('|') !== common.join('|') || !blocks.every((b) => labelsIn(b).slice(-own.length).join('|') === own.join('|'))) return null
  // Of those, the ones before the value's line may be options too (a SKU line every item of the
  // sample had, some products have none): the item is known by its lines from the value's on, or
  // by its last labelled line when the value is its name.
  const from = at === head ? own.length - 1 : own.indexOf(labelOf(doc, lines[at]!) ?? '')
  if (from > 0) own = own.slice(from)
  // Something varies between blocks, or they are one block's repeated lines.
  if (blocks.every((b) => b[1] - b[0] === blocks[0]![1] - blocks[0]![0])) return null
  const ownLines = Array.from({ length: own.length }, (_, k) => specOf(doc, lines[end - tail - own.length + k]!, variable))
  if (ownLines.some((spec) => !spec || 'cells' in spec || spec.pattern === null)) return null
  const unit: UnitLine[] = [{ pattern: null }, { pattern: OPTION_LINE, optional: true, repeat: true }, ...(ownLines as UnitLine[]), ...(tail ? [{ pattern: NUMBER_LINE }] : [])]
  // The value is the name or on one of the item's own lines, never on an option line.
  if (at !== head && at < end - tail - own.length) return null
  const stops = new Set<string>()
  const mine = unitSpan(doc, lines, head, unit, stops)
  if (!mine || mine.next !== end) return null
  // A look-alike block right above: the highlighted item is not the first, or these are not items.
  if (blockAbove(doc, lines, head, unit, stops)) return null
  const run = runFrom(doc, lines, head, unit, stops)
  if (run.length < 2) return null
  return { unit, first: head, count: run.length, lines, firstEnd: end, end: runEnd(doc, lines, run, unit, stops) }
}

/** Any row of a table: a section's rows, whatever their cells. */
const ANY_ROW = '\\t'

/**
 * Items as sections of a table: a heading line (the value: a job, a project, a shipment) over rows
 * of any form, the parts and the labour, closed by a row of fixed text every section ends with
 * (`Job total⇥⇥⇥⇥£193.42`). The rows vary in number and form; the heading is known by its place,
 * between the table's header or the previous section's closing row and rows.
 */
function findRunOfSections(doc: Doc, variable: Span[], lines: number[], at: number): LearnedRun | null {
  const line = lines[at]!
  const spec = specOf(doc, line, variable)
  if (!spec || 'cells' in spec || spec.pattern !== null || doc.lineTab[line]) return null
  // The section's rows and the row that closes it: the last row before the next line of text.
  let end = at + 1
  while (end < lines.length && doc.lineTab[lines[end]!]) end++
  if (end - (at + 1) < 2 || end - (at + 1) > MAX_OPTION_LINES + 1) return null
  // (A closing row named by data, different in each section, finds no second section.)
  const label = rowOf(doc, lines[end - 1]!).label
  if (label === '') return null
  const closing = `^\\s*${wordsSource(label)}\\W*\\t.*$`
  const unit: UnitLine[] = [{ pattern: null }, { pattern: ANY_ROW, optional: true, repeat: true }, { pattern: closing }]
  const stops = new Set<string>()
  const mine = unitSpan(doc, lines, at, unit, stops)
  if (!mine || mine.next !== end) return null
  const run = runFrom(doc, lines, at, unit, stops)
  if (run.length < 2) return null
  return { unit, first: at, count: run.length, lines, firstEnd: end, end: runEnd(doc, lines, run, unit, stops) }
}

/** At most this many lines of text head a section (a phone number, its kind, its plan). */
const MAX_HEADING_LINES = 3
/** Any line with something on it: a section's rows and its sub-headings (`One-off charges`). */
const ANY_CONTENT_LINE = '\\S'

/**
 * Items as sections of several heading lines (a bill's service: its number, its kind, its plan)
 * over rows and sub-headings of any number and form (`Plan charges⇥$99.00`, `One-off charges`,
 * `Extra data 10GB⇥$10.00`), closed by a row of fixed text every section ends with (`Service
 * total⇥$173.89`) that the next section's heading follows. The heading lines are known by their
 * place after the previous section's closing row.
 */
function findRunOfHeadedSections(doc: Doc, variable: Span[], lines: number[], at: number): LearnedRun | null {
  // A heading line by its own form (`Commande n° …`, a number alone, a line of text); one whose
  // fixed words differ in the next section (`Mobile`, `Mobile · Ngozi's Pixel`) as any line of text.
  const heading = (i: number): UnitLine | null => {
    if (doc.lineTab[lines[i]!]) return null
    const spec = specOf(doc, lines[i]!, variable)
    return spec && !('cells' in spec) ? spec : null
  }
  let body = at + 1
  while (body < lines.length && !doc.lineTab[lines[body]!] && body - at < MAX_HEADING_LINES) body++
  if (body >= lines.length || !doc.lineTab[lines[body]!] || !heading(at)) return null
  let top = at
  while (top > 0 && body - (top - 1) <= MAX_HEADING_LINES && heading(top - 1)) top--
  // A row right above the heading is the section's own (a flight's date and number over its
  // route): the section starts there, and this is not its heading.
  if (top > 0 && doc.lineTab[lines[top - 1]!]) return null
  // The heading from its first line: a heading that starts lower also repeats, a rotation that
  // takes the next section's first line for its last.
  let best: LearnedRun | null = null
  for (; top <= at; top++) {
    const own: UnitLine[] = []
    for (let i = top; i < body; i++) {
      const spec = heading(i)
      if (!spec) return best
      own.push(spec)
    }
    for (let close = body + 1; close < lines.length && close - body <= MAX_OPTION_LINES; close++) {
      // Freed against the section after this closing row, so each try starts from the heading's own forms.
      const head = [...own]
      freeWhereItemsDiffer(doc, lines, variable, head, top, close + 1)
      // The closing row: a labelled row that the next section's heading (a line of text) follows.
      if (!doc.lineTab[lines[close]!] || (close + 1 < lines.length && doc.lineTab[lines[close + 1]!])) continue
      const label = rowOf(doc, lines[close]!).label
      if (label === '') continue
      const unit: UnitLine[] = [...head, { pattern: ANY_CONTENT_LINE, optional: true, repeat: true }, { pattern: `^\\s*${wordsSource(label)}\\W*\\t.*$` }]
      const stops = new Set<string>()
      const mine = unitSpan(doc, lines, top, unit, stops)
      if (!mine || mine.next !== close + 1) continue
      const run = runFrom(doc, lines, top, unit, stops)
      if (run.length < 2) continue
      if (!best || run.length > best.count) best = { unit, first: top, count: run.length, lines, firstEnd: close + 1, end: runEnd(doc, lines, run, unit, stops) }
      break
    }
  }
  return best
}

/** A line that numbers its item as the first: `Room 1: …`, `Ticket #1 …`, `1. …`, `1) …`. */
const FIRST_OF_LIST = /^\s*(?:\p{L}+\s+#?1\s*[:.)–—-]|#?1[.)]\s)/u

/** A line of digits and signs, no letters: an item's price or count on a line of its own. */
export const NUMBER_LINE = '^[^\\p{L}]*\\d[^\\p{L}]*$'
export const NUMBER_LINE_RE = new RegExp(NUMBER_LINE, 'u')
/** A line pattern that opens with fixed words and a colon (`Quantity:`, `Sold by:`). */
const LABELLED_LINE = /^\^\\s\*(?:\p{L}+s?\??(?:\\s\+|\s))*\p{L}+s?\??:/u

/** At most this many lines per item when items differ by an optional line. */
const MAX_VARIABLE_UNIT_LINES = 6

/**
 * Items laid out as blocks of lines where some item has one line more than another (a marketplace's
 * `Condition: Used` under some items only): the sample's first two items, aligned, give the unit
 * with that line optional. The user highlights the first item, so the value is in the first block.
 */
function findRunWithOptionalLine(doc: Doc, variable: Span[], lines: number[], at: number): LearnedRun | null {
  const specsFrom = (start: number, n: number): UnitLine[] | null => {
    if (start < 0 || start + n > lines.length) return null
    const out: UnitLine[] = []
    for (let j = 0; j < n; j++) {
      const text = lineText(doc, lines[start + j]!)
      const spec = specOf(doc, lines[start + j]!, variable)
      if (!spec || 'cells' in spec) return null
      // A line that is only an amount or a number (an item's price) is known by that.
      out.push(spec.pattern === null && !/\p{L}/u.test(text) ? { pattern: NUMBER_LINE } : spec)
    }
    return out
  }
  const stops = new Set<string>()
  // Units that start on another of the item's lines (its price, then the next item's name) find
  // one item fewer, or take the lines after the items for one: the run of most items wins, then
  // the one that starts first (at the highlighted item's first line).
  let best: LearnedRun | null = null
  for (let k1 = 2; k1 <= MAX_VARIABLE_UNIT_LINES; k1++) {
    for (let o = 0; o < k1; o++) {
      const first = at - o
      const own = specsFrom(first, k1)
      if (!own) continue
      for (const k2 of [k1 - 1, k1 + 1]) {
        if (k2 < 2 || k2 > MAX_VARIABLE_UNIT_LINES) continue
        const next = specsFrom(first + k1, k2)
        if (!next) continue
        // The longer item's specs, with the line the shorter one lacks made optional (never the first).
        const longer = k1 > k2 ? own : next
        for (let j = 1; j < longer.length; j++) {
          const unit = longer.map((u, i) => (i === j ? { ...u, optional: true as const } : u))
          const [longStart, shortStart] = k1 > k2 ? [first, first + k1] : [first + k1, first]
          freeWhereItemsDiffer(doc, lines, variable, unit, longStart, shortStart, j)
          // Items, not two blocks of an address or a card: each has a labelled line (`Qty: 2`) or a
          // line that is only an amount of money (its price).
          const priced = (u: UnitLine, i: number) => 'pattern' in u && u.pattern === NUMBER_LINE && /\p{Sc}/u.test(lineText(doc, lines[longStart + i]!))
          if (longer.length < 3 || !unit.some((u, i) => i !== j && 'pattern' in u && u.pattern !== null && (LABELLED_LINE.test(u.pattern) || priced(u, i)))) continue
          const mine = unitLines(doc, lines, first, unit, stops)
          if (!mine || mine.filter((l) => l >= 0).length !== k1 || !mine.includes(at)) continue
          const theirs = unitLines(doc, lines, first + k1, unit, stops)
          if (!theirs || theirs.filter((l) => l >= 0).length !== k2) continue
          // A look-alike block right above: these are the lines of one longer block, not items.
          if (first >= 2 && [2, 3, 4, 5, 6].some((n) => first - n >= 0 && unitLength(doc, lines, first - n, unit, stops) === n)) continue
          const run = runFrom(doc, lines, first, unit, stops)
          if (run.length < 2) continue
          const found = { unit, first, count: run.length, lines, firstEnd: first + k1, end: runEnd(doc, lines, run, unit, stops) }
          if (!best || found.count > best.count || (found.count === best.count && found.first < best.first)) best = found
        }
      }
    }
  }
  return best
}

/** The shape of the cell at the value's position on a line of the same unit (its cell index). */
function valueKind(doc: Doc, l: number, span: Span, line: number): string {
  if (!doc.lineTab[line]) return 'line'
  const index = doc.text.slice(doc.lineStart[line]!, span[0]).split('\t').length - 1
  // A cell's first line is its value's kind (`£7.84 • Pending` is an amount, as `£24.99` is).
  const cell = (cellsOf(doc, l)[index] ?? '').split(CELL_LINE_SEPARATOR)[0]!.trim()
  if (cell === '') return 'empty'
  const shape = detectShape(cell).shape
  if (shape !== 'text') return shape
  // A cell of amounts (`€500.43 €400.34`: an old price struck through, then the price) is of the
  // kind of the amount that ends it.
  const spans = findShapeSpans(cell)
  const last = spans.find((s) => s[1] === cell.length)
  return last && spans.every((s) => s[1] <= last[0] || s === last) && onlyAmounts(cell.slice(0, last[0])) ? detectShape(cell.slice(last[0])).shape : shape
}

/** Text of amounts and nothing else: digits, separators, currency signs (`€500.43 `). */
function onlyAmounts(text: string): boolean {
  return text.replace(/[\s\p{Sc}\d.,'\u00a0\u202f-]/gu, '') === ''
}

/**
 * A header row as the sample's, or without its last column (a `Note` column a table shows only when
 * some row has a note), when that column was after the cells holding values.
 */
function headerMatches(cells: readonly string[], header: readonly string[]): boolean {
  if (cells.length !== header.length && cells.length !== header.length - 1) return false
  if (cells.length < 2) return false
  return cells.every((c, i) => sameHeaderCell(wordsOf(c), header[i]!))
}

/** A header cell's words as the sample's; a currency's code may be another (`Price in GBP`). */
function sameHeaderCell(words: string[], sample: string): boolean {
  const joined = words.join(' ')
  if (joined === sample) return true
  const want = sample.split(' ')
  return words.length === want.length && words.every((w, k) => w === want[k] || (isCurrencyCode(w) && isCurrencyCode(want[k]!)))
}

function headerAbove(doc: Doc, lines: number[], first: number, cells: number, variable: Span[]): string[] | null {
  if (first === 0) return null
  const h = lines[first - 1]!
  if (!doc.lineTab[h] || overlaps(variable, doc.lineStart[h]!, doc.lineEnd[h]!)) return null
  const row = cellsOf(doc, h)
  // One header cell more than the row: the row's last cell is empty (see unitLineFits).
  if ((row.length !== cells && row.length !== cells + 1) || !row.some((c) => c.trim() !== '')) return null
  if (!row.every((c) => c.trim() === '' || (!hasDigit(c) && c.trim().length <= 40))) return null
  return row.map((c) => wordsOf(c).join(' '))
}

/** Learns the rows rule for a value inside a repeated unit; null when the value is not in one. */
export function learnRows(doc: Doc, span: Span, field: FieldTemplate, variable: Span[], run: LearnedRun, extents: Extent[]): RowsRule | null {
  const { unit, first, lines } = run
  const line = lineOf(doc, span[0])
  const j = unitLines(doc, lines, first, unit, new Set())?.indexOf(lines.indexOf(line, first)) ?? -1
  if (j < 0 || unit[j]!.repeat) return null
  const spec = unit[j]!
  let cell = 0
  let capture: string | undefined
  let atEnd = false
  let extent: Extent = { kind: 'cell' }
  if ('cells' in spec) {
    const ls = doc.lineStart[line]!
    const before = doc.text.slice(ls, span[0])
    cell = before.split('\t').length - 1
    const cellText = cellsOf(doc, line)[cell] ?? ''
    if (cellText.trim() === '') return null
    const lead = before.split('\t').pop()!
    if (lead.trim() === '') {
      // The value opens its cell (after spaces): read by the extent learned for it, or, for a
      // reference that filled its cell, as the whole cell (an invoice's `INV-04340 / PO 5020` in
      // a column where the sample's was `INV-03742`). Amounts and dates keep their form
      // (`$38.43 Excl. Tax: $35.50` is the price and a note).
      const whole = field.shape === 'id' && cellText.split(CELL_LINE_SEPARATOR)[0]!.trim() === doc.text.slice(span[0], span[1]).trim()
      extent = whole ? { kind: 'cell' } : (extents[0] ?? { kind: 'cell' })
    } else {
      // Inside its cell (the 4 of `Linen Napkins × 4`): the cell's own pattern finds it, or the
      // pattern of its sub-line when the cell has several (`Bag • SKU: MB3 • Size • M`).
      const cellStart = span[0] - lead.length
      let bounds: [number, number] = [cellStart, cellStart + cellText.length]
      const at = span[0] - cellStart
      const from = cellText.lastIndexOf(CELL_LINE_SEPARATOR, at)
      const to = cellText.indexOf(CELL_LINE_SEPARATOR, at)
      if (from >= 0 || to >= 0) bounds = [cellStart + (from >= 0 ? from + CELL_LINE_SEPARATOR.length : 0), cellStart + (to >= 0 ? to : cellText.length)]
      const pattern = subLineCapture(cellText, doc.text.slice(span[0], span[1])) ?? linePattern(doc, line, span, variable, bounds)
      if (!pattern) return null
      capture = pattern
      // Amounts before the value in its cell (an old price struck through): other items' cells
      // may hold the value alone.
      if (span[1] >= cellStart + cellText.trimEnd().length && onlyAmounts(lead) && fitsShape(lead.trim().split(/\s+(?=\p{Sc}|\d)/u).pop() ?? '', field.shape, field.shapeOptions)) atEnd = true
    }
  } else if (spec.pattern !== null) {
    const pattern = linePattern(doc, line, span, run.loose ?? variable)
    if (!pattern) return null
    capture = pattern
  }
  // What follows the items in the sample (Subtotal, Shipping, Total…) ends them in every email.
  const stops: string[] = []
  const after = run.end
  for (let i = after; i < lines.length && i < after + 8; i++) {
    // Items of the unit again (another section's: `Due this week` over its tasks) are data: the
    // lines from there on are no stops, or an email whose items start with that task would have none.
    if (i > after && unitAt(doc, lines, i, unit, new Set())) break
    // A line of text between table rows is a line under an item (`Backordered – ships
    // separately`) or a section's heading, which other emails may show between their items.
    if ('cells' in unit[0]! && !doc.lineTab[lines[i]!] && i + 1 < lines.length && doc.lineTab[lines[i + 1]!]) continue
    // A row right after the items that reads like one but for a cell (a contractor's one payment
    // under employees' gross and net) is an item laid out otherwise, not where items end: where
    // an email shows it, the items read are said to be cut there.
    if (i === after && rowOfItemsWidth(doc, lines[i]!, unit) && !isSummary(doc, lines[i]!) && sameLead(doc, lines[i]!, lines[first]!)) continue
    const label = rowOf(doc, lines[i]!).words
    if (label !== '' && !hasDigit(label) && label.length <= 40) stops.push(label)
  }
  const header = headerAbove(doc, lines, first, 'cells' in unit[0]! ? unit[0]!.cells.length : -1, variable)
  let landmark: string[] | null = null
  let prefix = false
  let gap = 0
  if (!header) {
    for (let i = first - 1; i >= 0 && i >= first - 3; i--) {
      const lm = landmarkOf(doc, lines[i]!, variable)
      if (lm && !rowOf(doc, lines[i]!).summary) {
        landmark = lm.words
        prefix = lm.prefix
        gap = first - 1 - i
        break
      }
    }
  }
  const rule: RowsRule = { kind: 'rows', unit, line: j, cell, extent, header, landmark, ...(prefix ? { prefix } : {}), gap, ordinal: 0, stops, ...(capture ? { capture } : {}), ...(atEnd ? { atEnd } : {}), ...(run.single ? { single: true as const } : {}) }
  if (!header) {
    // The items are the n-th run of look-alike units in the email, when no anchor finds them.
    const stopSet = new Set(stops)
    let seen = 0
    for (let i = 0; i < lines.length; i++) {
      const r = runFrom(doc, lines, i, unit, stopSet)
      if (r.length === 0) continue
      if (r.includes(first)) break
      seen++
      i = r[r.length - 1]! + unit.length - 1
    }
    rule.ordinal = seen
  }
  const got = applyRows(doc, rule, field)
  const want = squash(doc.text.slice(span[0], span[1]))
  if (!got || !got.items.some((v) => squash(v) === want)) return null
  return rule
}

/** Whether the sample's row reads as a summary or as the field's own label: then it is one value, not an item. */
export function isSummaryRow(doc: Doc, span: Span, fieldName: string): boolean {
  const line = lineOf(doc, span[0])
  const label = rowLabel(doc, line)
  if (label === '' || squash(label) === squash(doc.text.slice(span[0], span[1]))) {
    // The value is the row's first cell: the row is known by itself, an item's name.
    return false
  }
  if (SUMMARY.test(label)) return true
  // `Room 1: Deluxe Double` for "Room": the first of numbered items, not a row named like the field.
  if (FIRST_OF_LIST.test(label)) return false
  // A table row labelled like the field (`Late fee | $15.50` for "Late Fee"); a line of text keeps its
  // label in every item (`Qty: 2 · $10.00`), so only a row's label cell says this.
  if (!doc.lineTab[line]) return false
  const words = wordsOf(label).join(' ')
  const name = wordsOf(fieldName).join(' ')
  if (name === '' || !(words === name || words.startsWith(`${name} `) || name.endsWith(` ${words}`))) return false
  // …unless such rows repeat, one per item (`Montant net⇥3,57 €` in each sale's block, `Guest name: Hélène⇥Edit`
  // in each room's): a summary is shown once.
  const named = (l: number) => (/^([^:]*):/.exec(rowOf(doc, l).label)?.[1] ?? rowOf(doc, l).label).trim().toLowerCase()
  const own = named(line)
  const { lines } = contentLines(doc)
  return !lines.some((l) => l !== line && doc.lineTab[l] && named(l) === own)
}

export const rowsRule: RuleHandler<'rows'> = {
  baseConfidence: 0.93,
  apply: (doc, rule, field) => applyRows(doc, rule, field),
  describe: (rule) => `rows:${rule.header ? `"${rule.header.filter(Boolean).join(' | ')}"` : rule.landmark ? `after "${rule.landmark.join(' ')}"` : `#${rule.ordinal + 1}`}`,
}
