import type { SheetCell, SheetKey } from '../../db/schema'

/**
 * How the sheet writer recognises rows it already wrote (docs/decisions/010, 014). Parsers made
 * since 014: the Row Key column, the row's last cell (parser id, message id, item #), so two
 * parsers writing to one sheet never take each other's rows for their own. Older parsers: one row
 * per email the Message ID column, the last cell; one row per item Message ID and Item #, the last
 * two cells.
 */
/** How many trailing cells of a row make up its key. */
export function keyWidth(key: SheetKey): number {
  return key === 'message_item' ? 2 : 1
}

/** A row's key from its key cells, as written or as the sheet reads them back (trailing blanks omitted). */
export function keyOf(keyCells: readonly unknown[], key: SheetKey): string {
  return Array.from({ length: keyWidth(key) }, (_, i) => cellText(keyCells[i])).join('#')
}

/**
 * Where a row's key cells start: the ledger's `sheetKeyAt` (rows laid out since docs/decisions/022,
 * whose parser may have columns after the key), else the row's last cell(s).
 */
export function keyStart(width: number, key: SheetKey, at?: number | null): number {
  return at ?? width - keyWidth(key)
}

/** The key of a row about to be written. */
export function rowKey(cells: readonly SheetCell[], key: SheetKey, at?: number | null): string {
  const start = keyStart(cells.length, key, at)
  return keyOf(cells.slice(start, start + keyWidth(key)), key)
}

/** A1 column letters for a 0-based index: 0 → A, 26 → AA. */
export function columnLetter(index: number): string {
  let n = index + 1
  let letters = ''
  while (n > 0) {
    const rem = (n - 1) % 26
    letters = String.fromCharCode(65 + rem) + letters
    n = Math.floor((n - 1) / 26)
  }
  return letters
}

const cellText = (cell: unknown) => (cell === null || cell === undefined ? '' : String(cell))
