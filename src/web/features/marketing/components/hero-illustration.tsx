import { ArrowDown, ArrowRight, FileSpreadsheet, Sparkles } from 'lucide-react'
import type { ReactNode } from 'react'

const existingRows = [
  ['#1040', 'Maria Garcia', '$54.00', 'Austin, TX'],
  ['#1041', 'Liam Chen', '$212.75', 'Seattle, WA'],
]
const newRow = ['#1042', 'Jane Cooper', '$128.40', 'Portland, OR']
const columns = ['Order', 'Customer', 'Total', 'City']

function Highlight({ children }: { children: ReactNode }) {
  return (
    <mark className="rounded bg-primary/12 px-1 py-0.5 font-medium text-primary ring-1 ring-primary/25">
      {children}
    </mark>
  )
}

/** A product picture drawn in HTML: one order email becomes one spreadsheet row. */
export function HeroIllustration() {
  return (
    <figure className="relative mx-auto mt-16 max-w-5xl sm:mt-20">
      <figcaption className="sr-only">
        Example: Mailrow reads an order notification email and appends its order number, customer, total and
        city as a new row in a Google Sheet.
      </figcaption>
      <div
        aria-hidden
        className="grid items-center gap-4 rounded-2xl border bg-muted/50 p-3 shadow-xl shadow-primary/5 ring-1 ring-border/50 sm:p-6 lg:grid-cols-[minmax(0,1fr)_auto_minmax(0,1.25fr)] lg:gap-6"
      >
        <div className="rounded-xl border bg-card p-5 text-left shadow-sm">
          <div className="flex items-center gap-3">
            <span className="flex size-9 items-center justify-center rounded-full bg-accent text-sm font-semibold text-accent-foreground">
              A
            </span>
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium">Acme Store</p>
              <p className="truncate text-xs text-muted-foreground">orders@acme.example</p>
            </div>
            <span className="text-xs text-muted-foreground">9:41 AM</span>
          </div>
          <p className="mt-4 text-sm font-semibold">New order #1042</p>
          <div className="mt-3 space-y-2 text-sm leading-6 text-muted-foreground">
            <p>You have a new order. Here are the details:</p>
            <p>
              Order number: <Highlight>#1042</Highlight>
            </p>
            <p>
              Customer: <Highlight>Jane Cooper</Highlight>
            </p>
            <p>
              Order total: <Highlight>$128.40</Highlight>
            </p>
            <p>
              Ship to: <Highlight>Portland, OR</Highlight>
            </p>
          </div>
        </div>

        <div className="flex items-center justify-center gap-2 lg:flex-col">
          <span className="flex size-11 items-center justify-center rounded-full bg-primary text-primary-foreground shadow-lg shadow-primary/30">
            <Sparkles className="size-5" />
          </span>
          <span className="text-xs font-medium text-muted-foreground">AI extraction</span>
          <ArrowDown className="size-4 text-muted-foreground lg:hidden" />
          <ArrowRight className="hidden size-4 text-muted-foreground lg:block" />
        </div>

        <div className="overflow-hidden rounded-xl border bg-card text-left shadow-sm">
          <div className="flex items-center gap-2 border-b px-4 py-3">
            <FileSpreadsheet className="size-4 text-success" />
            <p className="text-sm font-medium">Order Alerts - Data</p>
            <span className="ml-auto text-xs text-muted-foreground">Google Sheets</span>
          </div>
          <div className="overflow-x-auto">
            <table className="w-full min-w-[26rem] text-sm">
              <thead className="bg-muted/60 text-xs text-muted-foreground">
                <tr>
                  {columns.map((column) => (
                    <th key={column} scope="col" className="px-4 py-2 text-left font-medium">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y">
                {existingRows.map((row) => (
                  <tr key={row[0]} className="text-muted-foreground">
                    {row.map((cell) => (
                      <td key={cell} className="px-4 py-2.5 whitespace-nowrap">
                        {cell}
                      </td>
                    ))}
                  </tr>
                ))}
                <tr className="bg-primary/5 font-medium text-foreground">
                  {newRow.map((cell, index) => (
                    <td key={cell} className="px-4 py-2.5 whitespace-nowrap">
                      {index === 0 ? (
                        <span className="flex items-center gap-2">
                          {cell}
                          <span className="rounded-full bg-success/15 px-1.5 py-0.5 text-[10px] font-semibold text-success uppercase">
                            New
                          </span>
                        </span>
                      ) : (
                        cell
                      )}
                    </td>
                  ))}
                </tr>
              </tbody>
            </table>
          </div>
        </div>
      </div>
    </figure>
  )
}
