import type { RowMode } from '@shared/contracts/parsers'
import { sheetColumns } from '@shared/contracts/sheets'
import { cn } from '@web/lib/utils'

/** The spreadsheet's header row: one column per field, then Mailrow's own columns (muted). */
export function ColumnList({ fieldNames, rowMode = 'per_email' }: { fieldNames: string[]; rowMode?: RowMode }) {
  return (
    <ol className="flex flex-wrap gap-2" aria-label="Spreadsheet columns">
      {sheetColumns(fieldNames, rowMode).map((column, index) => (
        <li
          key={`${index}-${column}`}
          className={cn(
            'rounded-md border px-2 py-1 text-xs font-medium',
            index < fieldNames.length ? 'bg-accent text-accent-foreground' : 'bg-background text-muted-foreground',
          )}
        >
          {column}
        </li>
      ))}
    </ol>
  )
}
