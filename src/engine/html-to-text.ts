import { decodeHTML } from 'entities/decode'
import { cellClass } from './shapes'

/**
 * HTML → text that keeps the structure extraction needs: one line per block, table rows as
 * lines with cells separated by tabs, list items as lines, blank lines between paragraphs.
 * Entities are decoded; script, style, head and hidden (display:none) content is dropped.
 *
 * It scans the HTML itself (docs/decisions/008): htmlparser2's tokenizer walks every
 * character of every attribute, and attributes are most of an email's bytes.
 */
export type HtmlToTextOptions = {
  /** Open elements deeper than this fail the conversion (browsers stop nesting at 512). */
  maxDepth?: number
  /** Output is cut at this many characters. */
  maxChars?: number
}

export type HtmlToTextResult =
  | { ok: true; text: string; truncated: boolean }
  | { ok: false; reason: string }

const DEFAULT_MAX_DEPTH = 1000
const DEFAULT_MAX_CHARS = 1_000_000
/** How far a close tag looks down the stack for its opener; beyond, it is a stray and ignored. */
const CLOSE_SEARCH_LIMIT = 64

const VOID = 1
const SKIP = 2
const PARAGRAPH = 4
const BLOCK = 8
const FAMILY = 16
const PRE = 32

/** What each element means for the text: one lookup per tag. */
const TAG_FLAGS = new Map<string, number>()
const flag = (bits: number, names: string[]) => {
  for (const name of names) TAG_FLAGS.set(name, (TAG_FLAGS.get(name) ?? 0) | bits)
}
flag(VOID, ['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr'])
flag(SKIP, ['script', 'style', 'head', 'title', 'template', 'noembed', 'noframes', 'object', 'svg', 'math', 'iframe', 'select'])
flag(PARAGRAPH, ['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'dl', 'blockquote', 'pre', 'hr', 'address', 'figure', 'fieldset'])
flag(BLOCK, ['div', 'li', 'dt', 'dd', 'section', 'article', 'aside', 'header', 'footer', 'main', 'nav', 'center', 'form', 'details', 'summary', 'figcaption', 'caption', 'body', 'html', 'option', 'legend', 'dialog'])
flag(FAMILY, ['p', 'li', 'dt', 'dd', 'option'])
flag(PRE, ['pre', 'plaintext', 'xmp'])

/** Opening one of these closes an open element of the same family. */
const SELF_CLOSING_FAMILY: Record<string, string[]> = {
  p: ['p'],
  li: ['li'],
  dt: ['dt', 'dd'],
  dd: ['dt', 'dd'],
  option: ['option'],
}
const ZERO_WIDTH = /[\u200b-\u200d\u2060\u00ad\ufeff]|\u034f/g
const WHITESPACE = /\s+/g
/** Text that WHITESPACE must collapse: control characters, two spaces, or one of INVISIBLE. */
// eslint-disable-next-line no-control-regex -- control characters (tab, line breaks and the rest) are what it looks for
const NEEDS_SPACES = /[\x00-\x1f\u00a0\u00ad\u2000-\u206f\u3000\ufeff]|\u034f| {2}/
/** Spaces and invisible characters, among them every ZERO_WIDTH one. */
const INVISIBLE = /[\u00a0\u00ad\u2000-\u206f\u3000\ufeff]|\u034f/
const ALNUM = /[\p{L}\p{N}]/u
const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i
const HIDDEN_ATTR = /(?:^|\s)hidden(?=[\s=/]|$)/i
const QUOTED_VALUE = /"[^"]*"|'[^']*'/g
/** A tag's attributes are read only when they hold one of these words (as written: not every mix of cases). */
const ATTR_OF_INTEREST = /none|hidden|colspan|flex|block|line-through|NONE|HIDDEN|COLSPAN|FLEX|BLOCK|LINE-THROUGH|None|Hidden|Colspan|Flex|Block/
/**
 * An inline element styled as a block (`<span style="display:block">` under a merchant's name in a
 * cell) is a line of its own, as a browser shows it. One styled inline-block (a badge: `Over
 * limit` after a hotel's name, `BONUS 2e halve prijs` before its discount) starts a line, and what
 * follows it on its line stays there, a word apart.
 */
const BLOCK_STYLE = /display\s*:\s*block/i
const INLINE_BLOCK_STYLE = /display\s*:\s*inline-block/i
const COLSPAN = /(?:^|\s)colspan\s*=\s*["']?\s*(\d{1,3})/i
/**
 * A flex container laid out in a row (React Email's and Tailwind's `display:flex;
 * justify-content:space-between`: a label left, its amount right) reads as a table row, each
 * child a cell, as a table-built email's row does.
 */
const FLEX_ROW = /display\s*:\s*(?:inline-)?flex\b/i
const FLEX_COLUMN = /flex-direction\s*:\s*column|flex-flow\s*:\s*column/i
const STRUCK_STYLE = /text-decoration(?:-line)?\s*:[^;"']*line-through/i
/**
 * A paragraph styled without margins (`<p style="margin: 0;">`, as help desks and mail editors
 * write each line of a message) is a line, not a paragraph: a reader sees no gap after it, and an
 * empty one (`<p style="margin: 0;">&nbsp;</p>`) is the blank line between paragraphs.
 */
const NO_MARGIN = /(?:^|[\s;"'])margin\s*:\s*0[a-z]*(?:\s+0[a-z]*)*\s*(?:[;"'!]|$)/i

/** Collects the lines of one block of output: the document, or one table cell. */
class Sink {
  readonly lines: string[] = []
  private cur = ''
  private space = false
  /** 0: none, 1: line break, 2: paragraph break, pending until the next text. */
  private brk = 0
  /** A blank line is owed before the next line. */
  private blank = false

  text(s: string) {
    if (s.charCodeAt(0) === 32) this.space = true
    const core = s.trim()
    if (core === '') return
    if (this.brk > 0) this.endLine()
    if (this.space && this.cur !== '') this.cur += ' '
    this.cur += core
    this.space = s.charCodeAt(s.length - 1) === 32
  }

  /** Preformatted text: its own line breaks and spacing are kept. */
  pre(s: string) {
    const parts = s.split(/\r?\n/)
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) this.hardBreak()
      const part = parts[i]!.replace(/[\t\u00a0]/g, ' ').trimEnd()
      if (part.trim() === '') continue
      if (this.brk > 0) this.endLine()
      this.cur += part
    }
  }

  lineBreak(kind: 1 | 2) {
    if (kind > this.brk) this.brk = kind
    this.space = false
  }

  /** `<br>`: ends the line even when it is empty, so `<br><br>` leaves a blank line. */
  hardBreak() {
    if (this.cur !== '' && this.brk === 0) {
      this.brk = 1
      this.endLine()
    } else {
      // No text on the line, or a line a block ended already (`<div>Hello,</div><div><br></div>`):
      // the break is a line of its own, an empty one.
      this.emptyLine()
    }
    this.space = false
  }

  /**
   * A no-break space alone: in a block of its own (`<div>&nbsp;</div>`, `<p>&nbsp;</p>`) it is an
   * empty line on screen, the blank line a mail editor writes between paragraphs.
   */
  spaceAlone() {
    if (this.brk > 0 || this.cur === '') this.emptyLine()
    else this.text(' ')
  }

  private emptyLine() {
    if (this.cur !== '') this.endLine()
    this.blank = true
    this.brk = 0
    this.space = false
  }

  /** Appends already-rendered lines (a table) as their own block. */
  block(lines: string[]) {
    if (lines.length === 0) return
    this.brk = 2
    this.endLine()
    for (const line of lines) {
      if (line === '') this.blank = true
      else this.pushLine(line)
    }
    this.blank = true
    this.space = false
  }

  private pushLine(line: string) {
    const last = this.lines.length - 1
    if (this.blank && last >= 0 && this.lines[last] !== '') this.lines.push('')
    this.blank = false
    this.lines.push(line)
  }

  private endLine() {
    const cur = this.cur.trim()
    if (cur !== '') this.pushLine(cur)
    this.cur = ''
    if (this.brk === 2) this.blank = true
    this.brk = 0
    this.space = false
  }

  finish(): string[] {
    this.endLine()
    return this.lines
  }
}

/** A table cell; its sink exists once text arrives (most cells of a layout hold an image or nothing). */
type Cell = { sink: Sink | null; colspan: number }
type Row = { cells: Cell[] }
type Table = { rows: Row[]; row: Row | null; cell: Cell | null; parent: Sink }

type Entry = {
  name: string
  flags: number
  skip: boolean
  hidden: boolean
  pre: boolean
  list: boolean
  table: Table | null
  /** The table this element's td/tr belongs to. */
  owner: Table | null
  /** A flex row: its table has one row, each child element a cell. */
  flex: boolean
  /** Styled inline-block: a line break before it, a space after it. */
  spaced?: true
}

class Abort extends Error {}

function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13) return false
  }
  return true
}

class Converter {
  private readonly stack: Entry[] = []
  private readonly root = new Sink()
  private readonly tables: Table[] = []
  private skipDepth = 0
  private readonly listCounters: number[] = []
  private hiddenDepth = 0
  private preDepth = 0
  private pendingText = ''
  private pendingSpace = false
  private hidden = false
  private colspan = 1
  private flexRow = false
  /** The opening tag's style: 1 display:block, 2 display:inline-block, 0 neither. */
  private display = 0
  /** The tag being opened is a paragraph without margins (NO_MARGIN). */
  private tight = false
  private total = 0
  truncated = false
  error: string | null = null

  constructor(
    private readonly maxDepth: number,
    private readonly maxChars: number,
  ) {}

  private sink(): Sink {
    const table = this.tables[this.tables.length - 1]
    if (!table) return this.root
    if (!table.cell) this.openCell(table, 1)
    return (table.cell!.sink ??= new Sink())
  }

  /** A line or paragraph break; before any text of a cell it changes nothing, so no sink is made for it. */
  private lineBreak(kind: 1 | 2) {
    const table = this.tables[this.tables.length - 1]
    const sink = table ? table.cell?.sink : this.root
    if (sink) sink.lineBreak(kind)
  }

  private flushText() {
    if (this.pendingText === '') {
      if (this.pendingSpace) {
        this.pendingSpace = false
        // Whitespace between tags: a space at most, and never a reason to open a cell.
        const table = this.tables[this.tables.length - 1]
        if (!table) this.root.text(' ')
        else if (table.cell?.sink) table.cell.sink.text(' ')
      }
      return
    }
    let s = this.pendingSpace ? ` ${this.pendingText}` : this.pendingText
    this.pendingText = ''
    this.pendingSpace = false
    // Tests decide which of the (costly) replacements this text needs.
    const spaces = NEEDS_SPACES.test(s)
    if (spaces && INVISIBLE.test(s)) s = s.replace(ZERO_WIDTH, '')
    this.total += s.length
    if (this.total > this.maxChars) {
      this.truncated = true
      throw new Abort()
    }
    if (this.preDepth > 0) {
      this.sink().pre(s)
      return
    }
    const nbsp = spaces && s.includes('\u00a0')
    if (spaces) s = s.replace(WHITESPACE, ' ')
    if (s === ' ' || s === '') {
      const table = this.tables[this.tables.length - 1]
      const sink = !table ? this.root : table.cell?.sink
      if (nbsp) sink?.spaceAlone()
      else sink?.text(' ')
      return
    }
    this.sink().text(s)
  }

  // ── scanner events ──
  /** Text between tags that is only spaces, tabs and line breaks, given by its range so most of it is never sliced. */
  blank(html: string, start: number, end: number) {
    if (this.skipDepth > 0 || this.hiddenDepth > 0) return
    if (this.preDepth > 0) this.text(html.slice(start, end))
    else if (this.pendingText === '') this.pendingSpace = true
    else this.pendingText += ' '
  }

  /** Raw text between tags (entities still encoded). */
  text(raw: string) {
    if (this.skipDepth > 0 || this.hiddenDepth > 0) return
    if (this.preDepth === 0 && isBlank(raw)) {
      if (this.pendingText === '') this.pendingSpace = true
      else this.pendingText += ' '
      return
    }
    const decoded = raw.includes('&') ? decodeHTML(raw) : raw
    this.pendingText = this.pendingText === '' ? decoded : this.pendingText + decoded
  }

  /**
   * An opening tag: its lower-cased name and the raw source of its attributes, passed only when
   * they mention none, hidden or colspan (most tags carry a style, and nothing else is read).
   */
  openTag(name: string, attrs: string | null) {
    this.flushText()
    this.hidden = false
    this.colspan = 1
    this.flexRow = false
    this.display = 0
    this.tight = false
    if (attrs !== null) {
      if (name === 'p' && NO_MARGIN.test(attrs)) this.tight = true
      if (BLOCK_STYLE.test(attrs)) this.display = 1
      else if (INLINE_BLOCK_STYLE.test(attrs)) this.display = 2
      // The `hidden` attribute, not the word in an attribute's value (`style="border: hidden"`,
      // in every Laravel mail's body cell).
      if (HIDDEN_STYLE.test(attrs) || (HIDDEN_ATTR.test(attrs) && HIDDEN_ATTR.test(attrs.replace(QUOTED_VALUE, '""')))) this.hidden = true
      const colspan = COLSPAN.exec(attrs)
      if (colspan) this.colspan = Math.min(Number(colspan[1]), 50)
      if (FLEX_ROW.test(attrs) && !FLEX_COLUMN.test(attrs)) this.flexRow = true
      if (STRUCK_STYLE.test(attrs)) this.hidden = true
    }
    // Struck-through text (these elements, or a line-through style) is what no longer holds: an old
    // price before the price (`<s>€500.43</s> €400.34`), a removed line. Left out, so the cell
    // reads as the value it shows now.
    if (name === 's' || name === 'strike' || name === 'del') this.hidden = true
    this.openElement(name)
  }

  closeTag(name: string) {
    this.flushText()
    this.closeElement(name)
  }

  end() {
    this.flushText()
  }

  // ── element semantics ──
  private openElement(name: string) {
    const flags = TAG_FLAGS.get(name) ?? 0
    if (name === 'body') this.closeOpen('head', true)
    if (flags & FAMILY) this.closeFamily(SELF_CLOSING_FAMILY[name]!)
    if (flags & VOID) {
      if (this.skipDepth > 0 || this.hiddenDepth > 0) return
      if (name === 'br') this.sink().hardBreak()
      else if (name === 'hr') this.lineBreak(2)
      return
    }
    const tableTag = name === 'table' || name === 'tr' || name === 'td' || name === 'th'
    const own = this.tight ? (flags & ~PARAGRAPH) | BLOCK : flags
    const entry: Entry = { name, flags: this.display === 1 && !tableTag ? own | BLOCK : own, skip: false, hidden: false, pre: false, list: false, table: null, owner: null, flex: false }
    if (this.display === 2 && !tableTag && this.skipDepth === 0 && this.hiddenDepth === 0 && !this.hidden) {
      entry.spaced = true
      this.lineBreak(1)
    }
    const active = this.skipDepth === 0 && this.hiddenDepth === 0
    if (flags & SKIP) {
      entry.skip = true
      this.skipDepth++
    } else if (this.hidden) {
      entry.hidden = true
      this.hiddenDepth++
    }
    if (flags & PRE) {
      entry.pre = true
      this.preDepth++
    }
    if (active) this.applyOpen(name, entry)
    this.stack.push(entry)
    if (this.stack.length > this.maxDepth) {
      this.error = `HTML is nested more than ${this.maxDepth} levels deep`
      throw new Abort()
    }
  }

  private applyOpen(name: string, entry: Entry) {
    if (name === 'table') {
      const parent = this.sink()
      parent.lineBreak(2)
      const table: Table = { rows: [], row: null, cell: null, parent }
      this.tables.push(table)
      entry.table = table
      return
    }
    const table = this.tables[this.tables.length - 1]
    const parent = this.stack[this.stack.length - 1]
    const tableTag = name === 'table' || name === 'tr' || name === 'td' || name === 'th'
    if (parent?.flex && parent.table === table && table && !tableTag) {
      // A flex row's child element: a cell of its own.
      this.openCell(table, 1)
      entry.owner = table
    } else if (this.flexRow && !tableTag) {
      const outer = this.sink()
      outer.lineBreak(2)
      const row: Table = { rows: [{ cells: [] }], row: null, cell: null, parent: outer }
      row.row = row.rows[0]!
      this.tables.push(row)
      entry.table = row
      entry.flex = true
      return
    }
    if (entry.owner) return
    if (name === 'tr' && table) {
      this.popToTable(table)
      table.cell = null
      table.row = { cells: [] }
      table.rows.push(table.row)
      entry.owner = table
      return
    }
    if ((name === 'td' || name === 'th') && table) {
      this.popToTable(table, true)
      this.openCell(table, this.colspan)
      entry.owner = table
      return
    }
    if (entry.flags & PARAGRAPH) this.lineBreak(2)
    else if (entry.flags & BLOCK) this.lineBreak(1)
    if (name === 'ol' || name === 'ul') {
      this.listCounters.push(name === 'ol' ? 0 : -1)
      entry.list = true
    } else if (name === 'li') {
      // List items keep a marker, so a one-item list still reads as a list.
      const depth = this.listCounters.length
      const n = depth > 0 ? this.listCounters[depth - 1]! : -1
      if (n >= 0) this.listCounters[depth - 1] = n + 1
      this.sink().text(n >= 0 ? `${n + 1}. ` : '• ')
    }
  }

  private openCell(table: Table, colspan: number) {
    if (!table.row) {
      table.row = { cells: [] }
      table.rows.push(table.row)
    }
    table.cell = { sink: null, colspan }
    table.row.cells.push(table.cell)
  }

  /** Pops cells (and rows, unless keepRow) left open in the current table. */
  private popToTable(table: Table, keepRow = false) {
    for (let i = this.stack.length - 1, n = 0; i >= 0 && n < CLOSE_SEARCH_LIMIT; i--, n++) {
      const e = this.stack[i]!
      if (e.table === table) {
        while (this.stack.length - 1 > i) {
          const top = this.stack[this.stack.length - 1]!
          if (keepRow && top.name === 'tr' && top.owner === table) return
          this.popEntry()
        }
        return
      }
    }
  }

  private closeFamily(family: string[]) {
    for (let i = this.stack.length - 1, n = 0; i >= 0 && n < 8; i--, n++) {
      const e = this.stack[i]!
      if (e.table || e.name === 'ul' || e.name === 'ol' || e.name === 'dl' || e.name === 'td' || e.name === 'th') return
      if (family.includes(e.name)) {
        while (this.stack.length > i) this.popEntry()
        return
      }
    }
  }

  private closeOpen(name: string, anyDepth = false) {
    const limit = anyDepth ? this.stack.length : CLOSE_SEARCH_LIMIT
    for (let i = this.stack.length - 1, n = 0; i >= 0 && n < limit; i--, n++) {
      if (this.stack[i]!.name === name) {
        while (this.stack.length > i) this.popEntry()
        return true
      }
    }
    return false
  }

  private closeElement(name: string) {
    if (name === 'br' || name === 'p') {
      // `</br>` and a stray `</p>` act as breaks in browsers.
      if (!this.closeOpen(name) && this.skipDepth === 0 && this.hiddenDepth === 0) {
        if (name === 'br') this.sink().hardBreak()
        else this.lineBreak(2)
      }
      return
    }
    if ((TAG_FLAGS.get(name) ?? 0) & VOID) return
    this.closeOpen(name)
  }

  private popEntry() {
    const e = this.stack.pop()!
    if (e.skip) this.skipDepth--
    if (e.hidden) this.hiddenDepth--
    if (e.pre) this.preDepth--
    if (e.table) {
      const index = this.tables.lastIndexOf(e.table)
      if (index >= 0) {
        this.tables.splice(index)
        e.table.parent.block(renderTable(e.table))
      }
      return
    }
    if (e.owner) {
      if (e.name === 'tr') {
        e.owner.row = null
        e.owner.cell = null
      } else {
        e.owner.cell = null
      }
      return
    }
    if (e.list) this.listCounters.pop()
    if (this.skipDepth > 0 || this.hiddenDepth > 0) return
    if (e.flags & PARAGRAPH) this.lineBreak(2)
    else if (e.flags & BLOCK) this.lineBreak(1)
    if (e.spaced) this.sink().text(' ')
  }

  finish(): string {
    this.flushText()
    while (this.stack.length > 0) this.popEntry()
    return this.root.finish().join('\n')
  }
}

/** A cell is simple when it renders as at most a few short lines and holds no nested table. */
type RenderedCell = { all: string[]; lines: string[]; colspan: number; simple: boolean; content: boolean }

const EMPTY_CELL: RenderedCell = { all: [], lines: [], colspan: 1, simple: true, content: false }

function renderCell(cell: Cell): RenderedCell {
  if (!cell.sink) return cell.colspan === 1 ? EMPTY_CELL : { ...EMPTY_CELL, colspan: cell.colspan }
  const all = cell.sink.finish()
  const lines: string[] = []
  let simple = true
  let content = false
  for (const l of all) {
    if (l === '') continue
    lines.push(l)
    if (l.includes('\t')) simple = false
    if (!content && ALNUM.test(l)) content = true
  }
  // A cell is simple when it renders as a few lines and holds no nested row; a cell of bullets,
  // icons or spacers has no content.
  if (lines.length > 3) simple = false
  return { all, lines, colspan: cell.colspan, simple, content }
}

/**
 * An item laid out as a row of its own table (a shop's order list: an image, the name with its
 * variant under it, the price): one cell of a few lines, every other cell with text a single
 * number or amount. Read as a row, so an item with a variant line looks like one without.
 * Two cells of several lines (addresses side by side) stay a layout, read cell by cell.
 */
function isItemRow(cells: RenderedCell[]): boolean {
  let multi = 0
  let numbers = 0
  for (const c of cells) {
    if (!c.content) continue
    // A price over its struck-through list price and a discount (`₹4,799` over `₹10,440 54% off`)
    // is the item's amount all the same: only some items show the lines under it.
    if (c.lines.length > 1 && c.simple && cellClass(c.lines[0]!) === 'num') numbers++
    else if (c.lines.length > 1) {
      // An item's name may have several lines under it (`Color: Grafito`, `SKU: JT-MX3S`,
      // `Cantidad: 1`, `Precio unitario: …`): more than a simple cell's, as many as items show.
      if (++multi > 1 || hasNestedRow(c) || c.lines.length > MAX_ITEM_CELL_LINES) return false
    } else if (cellClass(c.lines[0]!) === 'num') numbers++
    else return false
  }
  return multi === 1 && numbers >= 1
}

const MAX_ITEM_CELL_LINES = 6

function hasNestedRow(cell: RenderedCell): boolean {
  return cell.lines.some((l) => l.includes('\t'))
}

/**
 * A cell's lines as one: an item's name with its variant lines under it (`Size: M`, `Color: Blue`,
 * from `<br>`, `<p>` or a list) reads `Blue Hoodie • Size: M • Color: Blue`, so the name stays
 * apart from what follows it. A list item brings its own bullet, and a line ending in a colon
 * (`<strong>Size:</strong><p>M</p>`) goes on with its value.
 */
/** What joins an item cell's lines (the template learner cuts an item's value at it). */
export const CELL_LINE_SEPARATOR = ' • '

function joinCellLines(lines: string[]): string {
  let out = lines[0] ?? ''
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!
    out += line.startsWith('• ') || out.endsWith(':') ? ` ${line}` : `${CELL_LINE_SEPARATOR}${line}`
  }
  return out
}

function renderTable(table: Table): string[] {
  const rows: RenderedCell[][] = []
  let dataRows = 0
  for (const row of table.rows) {
    const cells: RenderedCell[] = []
    let withContent = 0
    let allSimple = true
    for (const cell of row.cells) {
      const r = renderCell(cell)
      cells.push(r)
      if (r.content) withContent++
      if (!r.simple) allSimple = false
    }
    if (withContent >= 2 && allSimple) dataRows++
    rows.push(cells)
  }
  const isDataTable = dataRows >= 2
  const out: string[] = []
  for (const cells of rows) {
    let filled = 0
    let real = 0
    let firstFilled: RenderedCell | undefined
    let firstReal: RenderedCell | undefined
    let singleLine = true
    let allSimple = true
    for (const c of cells) {
      if (c.lines.length > 0) {
        filled++
        firstFilled ??= c
      }
      if (c.content) {
        real++
        firstReal ??= c
      }
      if (c.lines.length > 1) singleLine = false
      if (!c.simple) allSimple = false
    }
    if (filled === 0) continue
    // A row with one real cell reads as that cell.
    if (real <= 1) {
      for (const l of (firstReal ?? firstFilled)!.all) out.push(l)
      continue
    }
    if (singleLine || (isDataTable && (allSimple || (real >= 3 && !cells.some(hasNestedRow)))) || isItemRow(cells)) {
      const parts: string[] = []
      for (const c of cells) {
        parts.push(joinCellLines(c.lines))
        for (let k = 1; k < c.colspan; k++) parts.push('')
      }
      while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop()
      out.push(parts.join('\t'))
    } else {
      for (const c of cells) {
        if (c.lines.length === 0) continue
        out.push('')
        for (const l of c.all) out.push(l)
      }
      out.push('')
    }
  }
  return out
}

/** Elements whose content is text up to their own closing tag, never markup. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes'])

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
}

function isBlankRange(html: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = html.charCodeAt(i)
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13) return false
  }
  return true
}

/** Names of the elements that have rules here, or that emails use most, by length and first letter. */
const KNOWN_NAMES: string[][] = []
for (const name of new Set([...TAG_FLAGS.keys(), ...RAW_TEXT, 'table', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th', 'a', 'b', 'i', 'u', 's', 'span', 'strong', 'em', 'font', 'small', 'big', 'sup', 'sub', 'label', 'center', 'img'])) {
  ;(KNOWN_NAMES[(name.length << 7) | name.charCodeAt(0)] ??= []).push(name)
}

/**
 * A tag name in lower case. A known name is matched in place and its constant returned (no slice,
 * and the lookups that follow hash and compare it at once); toLowerCase is slow on two-byte strings,
 * and tags are nearly always lower case already.
 */
function tagName(html: string, start: number, end: number): string {
  const length = end - start
  if (length <= 10) {
    let first = html.charCodeAt(start)
    if (first >= 65 && first <= 90) first += 32
    const candidates = KNOWN_NAMES[(length << 7) | first]
    if (candidates) {
      for (const name of candidates) {
        let i = 1
        for (; i < length; i++) {
          let c = html.charCodeAt(start + i)
          if (c >= 65 && c <= 90) c += 32
          if (c !== name.charCodeAt(i)) break
        }
        if (i === length) return name
      }
    }
  }
  for (let i = start; i < end; i++) {
    const c = html.charCodeAt(i)
    if (c >= 65 && c <= 90) return html.slice(start, end).toLowerCase()
  }
  return html.slice(start, end)
}

/** Whether the character ends a tag name: whitespace, `/` or `>`. */
function endsName(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 47 || c === 62
}

/**
 * Finds the `>` that closes a tag, skipping quoted attribute values. It keeps the next `"`, `'`
 * and `>` positions between calls, so a whole document costs one pass however its quotes fall.
 */
class TagEnds {
  private dq = -1
  private sq = -1
  private gt = -1

  constructor(private readonly html: string) {}

  private nextQuote(from: number): number {
    if (this.dq !== Infinity && this.dq < from) {
      const i = this.html.indexOf('"', from)
      this.dq = i === -1 ? Infinity : i
    }
    if (this.sq !== Infinity && this.sq < from) {
      const i = this.html.indexOf("'", from)
      this.sq = i === -1 ? Infinity : i
    }
    return Math.min(this.dq, this.sq)
  }

  private nextGt(from: number): number {
    if (this.gt !== Infinity && this.gt < from) {
      const i = this.html.indexOf('>', from)
      this.gt = i === -1 ? Infinity : i
    }
    return this.gt
  }

  /** The `>` closing the tag whose attributes start at `from`, or -1. */
  find(from: number): number {
    const html = this.html
    let pos = from
    for (;;) {
      const gt = this.nextGt(pos)
      if (gt === Infinity) return -1
      const q = this.nextQuote(pos)
      if (q > gt) return gt
      // A quote opens a value only right after `=`; anywhere else it is an ordinary character.
      let p = q - 1
      while (p > from && (html.charCodeAt(p) === 32 || html.charCodeAt(p) === 9 || html.charCodeAt(p) === 10 || html.charCodeAt(p) === 13)) p--
      if (html.charCodeAt(p) !== 61) {
        pos = q + 1
        continue
      }
      const close = html.indexOf(q === this.dq ? '"' : "'", q + 1)
      if (close === -1) return -1
      pos = close + 1
    }
  }
}

/**
 * Where the words that make a tag's attributes worth reading (ATTR_OF_INTEREST) occur: one regex
 * search through the document, remembered between tags, instead of a slice and a regex per tag
 * (the same scanning, without the slices; nine indexOf searches cost twice as much, each scans
 * the document).
 */
class AttrWords {
  private readonly pattern = new RegExp(ATTR_OF_INTEREST.source, 'g')
  private next = -1

  constructor(private readonly html: string) {}

  /** Whether such a word starts within [from, to). */
  within(from: number, to: number): boolean {
    if (this.next < from) {
      this.pattern.lastIndex = from
      const m = this.pattern.exec(this.html)
      this.next = m ? m.index : this.html.length
    }
    return this.next < to
  }
}

/**
 * A forgiving HTML scanner: text, start tags with their attribute source, end tags. Comments,
 * doctypes and processing instructions are skipped; script, style and the like are read as raw
 * text to their end tag. Every step moves forward with indexOf, so hostile
 * input costs time linear in its length.
 */
function scan(html: string, converter: Converter) {
  const n = html.length
  const tagEnds = new TagEnds(html)
  const attrWords = new AttrWords(html)
  let pos = 0
  while (pos < n) {
    const lt = html.indexOf('<', pos)
    if (lt === -1) {
      if (isBlankRange(html, pos, n)) converter.blank(html, pos, n)
      else converter.text(html.slice(pos))
      break
    }
    if (lt > pos) {
      if (isBlankRange(html, pos, lt)) converter.blank(html, pos, lt)
      else converter.text(html.slice(pos, lt))
    }
    const c = html.charCodeAt(lt + 1)
    if (isLetter(c)) {
      let nameEnd = lt + 2
      while (nameEnd < n && !endsName(html.charCodeAt(nameEnd))) nameEnd++
      const gt = tagEnds.find(nameEnd)
      if (gt === -1) break
      const name = tagName(html, lt + 1, nameEnd)
      // A word of interest lies wholly inside the attributes: it is letters, they end at `>`. An
      // image's or a break's attributes change no text (most images are styled display:block).
      // A paragraph's attributes are read for its margins (NO_MARGIN).
      const read = gt - nameEnd > 5 && !((TAG_FLAGS.get(name) ?? 0) & VOID) && (name === 'p' || attrWords.within(nameEnd, gt))
      converter.openTag(name, read ? html.slice(nameEnd, gt) : null)
      pos = gt + 1
      if (RAW_TEXT.has(name) && html.charCodeAt(gt - 1) !== 47) {
        const close = findClose(html, pos, name)
        if (name === 'textarea') converter.text(html.slice(pos, close === -1 ? n : close))
        if (close === -1) break
        converter.closeTag(name)
        const closeGt = html.indexOf('>', close)
        pos = closeGt === -1 ? n : closeGt + 1
      }
    } else if (c === 47) {
      const c2 = html.charCodeAt(lt + 2)
      const gt = html.indexOf('>', lt + 2)
      if (gt === -1) break
      if (isLetter(c2)) {
        let nameEnd = lt + 3
        while (nameEnd < gt && !endsName(html.charCodeAt(nameEnd))) nameEnd++
        converter.closeTag(tagName(html, lt + 2, nameEnd))
      }
      pos = gt + 1
    } else if (c === 33 && html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4)
      pos = end === -1 ? n : end + 3
    } else if (c === 33 || c === 63) {
      const gt = html.indexOf('>', lt + 2)
      pos = gt === -1 ? n : gt + 1
    } else {
      converter.text('<')
      pos = lt + 1
    }
  }
  converter.end()
}

/** Where the end tag of a raw-text element starts, or -1. */
function findClose(html: string, from: number, name: string): number {
  for (let i = html.indexOf('</', from); i !== -1; i = html.indexOf('</', i + 2)) {
    if (html.slice(i + 2, i + 2 + name.length).toLowerCase() === name && endsName(html.charCodeAt(i + 2 + name.length) || 62)) return i
  }
  return -1
}

export function htmlToText(html: string, options: HtmlToTextOptions = {}): HtmlToTextResult {
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS
  const converter = new Converter(options.maxDepth ?? DEFAULT_MAX_DEPTH, maxChars)
  try {
    scan(html, converter)
  } catch (error) {
    if (!(error instanceof Abort)) throw error
    if (converter.error) return { ok: false, reason: converter.error }
  }
  let text = converter.finish()
  if (text.length > maxChars) text = text.slice(0, maxChars)
  return { ok: true, text, truncated: converter.truncated }
}
