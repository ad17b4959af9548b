/** A parsed A1 reference: 0-based, end-exclusive; null ends are unbounded ("A:A", "2:5", "A2:B"). */
export type A1Range = {
  sheetTitle: string | null
  startRow: number
  startCol: number
  endRow: number | null
  endCol: number | null
  /** Written as one cell ("B2"): a write anchored there may spill right and down, as at Google. */
  isSingleCell?: boolean
}

export type ParsedA1 =
  | { kind: 'sheet'; sheetTitle: string }
  | { kind: 'range'; range: A1Range; bareSheetCandidate: string | null }

export function columnToLetters(index: number): string {
  let n = index + 1
  let out = ''
  while (n > 0) {
    const rem = (n - 1) % 26
    out = String.fromCharCode(65 + rem) + out
    n = Math.floor((n - 1) / 26)
  }
  return out
}

export function lettersToColumn(letters: string): number {
  let n = 0
  for (const char of letters.toUpperCase()) n = n * 26 + (char.charCodeAt(0) - 64)
  return n - 1
}

const MAX_COLUMNS = 18278
const MAX_ROWS = 10_000_000

/** Sheet names are quoted when they are not plain identifiers or could read as a cell ("AB12"). */
export function quoteSheetTitle(title: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(title) && !/^[A-Za-z]{1,3}\d+$/.test(title) && !/^R\d*C\d*$/i.test(title)) return title
  return `'${title.replace(/'/g, "''")}'`
}

type Endpoint = { col: number | null; row: number | null }

function parseEndpoint(text: string): Endpoint | null {
  const match = /^\$?([A-Za-z]{0,3})\$?(\d*)$/.exec(text)
  if (!match || (!match[1] && !match[2])) return null
  const col = match[1] ? lettersToColumn(match[1]) : null
  const row = match[2] ? Number(match[2]) - 1 : null
  if (row !== null && (row < 0 || row >= MAX_ROWS)) return null
  if (col !== null && col >= MAX_COLUMNS) return null
  return { col, row }
}

function parseCells(text: string): A1Range | null {
  const pieces = text.split(':')
  if (pieces.length > 2) return null
  const start = parseEndpoint(pieces[0]!)
  if (!start) return null
  if (pieces.length === 1) {
    if (start.col === null || start.row === null) return null
    return { sheetTitle: null, startRow: start.row, startCol: start.col, endRow: start.row + 1, endCol: start.col + 1, isSingleCell: true }
  }
  const end = parseEndpoint(pieces[1]!)
  if (!end) return null
  // "A:B" and "2:5" must be whole columns or rows on both sides.
  if ((start.row === null) !== (end.row === null) && start.col === null) return null
  if (start.col === null && end.col !== null) return null
  let startRow = start.row ?? 0
  let startCol = start.col ?? 0
  let endRow = end.row === null ? null : end.row + 1
  let endCol = end.col === null ? null : end.col + 1
  if (endRow !== null && endRow <= startRow) [startRow, endRow] = [endRow - 1, startRow + 1]
  if (endCol !== null && endCol <= startCol) [startCol, endCol] = [endCol - 1, startCol + 1]
  return { sheetTitle: null, startRow, startCol, endRow, endCol }
}

/** Parses "Sheet1!A1:B2", "'My sheet'!A:A", "Sheet1", "A1:B2" (first sheet). Null when unparseable. */
export function parseA1(input: string): ParsedA1 | null {
  const text = input.trim()
  if (!text) return null
  if (text.startsWith("'")) {
    let index = 1
    let title = ''
    for (;;) {
      if (index >= text.length) return null
      const char = text[index]!
      if (char === "'") {
        if (text[index + 1] === "'") {
          title += "'"
          index += 2
          continue
        }
        index += 1
        break
      }
      title += char
      index += 1
    }
    if (index === text.length) return { kind: 'sheet', sheetTitle: title }
    if (text[index] !== '!') return null
    const range = parseCells(text.slice(index + 1))
    return range ? { kind: 'range', range: { ...range, sheetTitle: title }, bareSheetCandidate: null } : null
  }
  const bang = text.lastIndexOf('!')
  if (bang === -1) {
    const range = parseCells(text)
    if (range) return { kind: 'range', range, bareSheetCandidate: text }
    return { kind: 'sheet', sheetTitle: text }
  }
  const title = text.slice(0, bang)
  const range = parseCells(text.slice(bang + 1))
  return range && title ? { kind: 'range', range: { ...range, sheetTitle: title }, bareSheetCandidate: null } : null
}

export function formatRange(sheetTitle: string, startRow: number, startCol: number, endRow: number, endCol: number): string {
  const start = `${columnToLetters(startCol)}${startRow + 1}`
  const end = `${columnToLetters(endCol - 1)}${endRow}`
  const cells = endRow - startRow === 1 && endCol - startCol === 1 ? start : `${start}:${end}`
  return `${quoteSheetTitle(sheetTitle)}!${cells}`
}
