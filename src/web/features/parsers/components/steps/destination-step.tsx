import { CheckCircle2, ExternalLink, FilePlus2, Sheet, TriangleAlert } from 'lucide-react'
import type { GmailConnectionStatus } from '@shared/contracts/gmail'
import type { RowMode } from '@shared/contracts/parsers'
import { Button } from '@web/components/ui/button'
import { Field } from '@web/components/ui/field'
import { Input } from '@web/components/ui/input'
import { Spinner } from '@web/components/ui/spinner'
import { cn } from '@web/lib/utils'
import { useValidatedSpreadsheet } from '../../api/validate-spreadsheet'
import type { WizardDraft } from '../../wizard-draft'
import { ColumnList } from '../column-list'

type Destination = WizardDraft['destination']

/** Wizard step 4 (spec §2): the Sheets connection, a new or an existing spreadsheet, the columns. */
export function DestinationStep({
  destination,
  fieldNames,
  rowMode,
  connection,
  isSheetsConnected,
  onChange,
  onGoToConnect,
}: {
  destination: Destination
  fieldNames: string[]
  rowMode: RowMode
  connection: GmailConnectionStatus | undefined
  isSheetsConnected: boolean
  onChange: (destination: Destination) => void
  onGoToConnect: () => void
}) {
  return (
    <div className="grid gap-6">
      {connection === undefined ? (
        <div className="flex min-h-20 items-center justify-center rounded-md border">
          <Spinner label="Checking your Google Sheets connection" />
        </div>
      ) : isSheetsConnected ? (
        <div className="flex items-center gap-3 rounded-md border border-success/40 bg-success/5 p-4">
          <CheckCircle2 className="size-6 shrink-0 text-success" aria-hidden />
          <div>
            <p className="font-medium">Google Sheets Connected</p>
            <p className="text-sm text-muted-foreground">Through your Gmail sign-in ({connection.accountEmail})</p>
          </div>
        </div>
      ) : (
        <div role="alert" className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex items-start gap-3">
            <TriangleAlert className="mt-0.5 size-5 shrink-0" aria-hidden />
            {connection.connected ? (
              <div>
                <p className="font-medium">Google Sheets access not granted</p>
                <p className="text-sm">Go back to step 1, reconnect your Gmail account and allow access to Google Sheets.</p>
              </div>
            ) : (
              <div>
                <p className="font-medium">Gmail not connected</p>
                <p className="text-sm">Google Sheets access comes with your Gmail connection. Connect Gmail in step 1 first.</p>
              </div>
            )}
          </div>
          <Button variant="outline" size="sm" onClick={onGoToConnect}>
            Go to step 1
          </Button>
        </div>
      )}

      {isSheetsConnected && (
        <fieldset className="grid gap-3">
          <legend className="mb-3 font-semibold">Where should the rows go?</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            <DestinationOption
              value="new"
              checked={destination.type === 'new'}
              onSelect={() => onChange({ ...destination, type: 'new' })}
              icon={<FilePlus2 className="size-5 text-primary" aria-hidden />}
              title="Create New Spreadsheet"
              description="A new spreadsheet is made automatically when you activate the parser."
            />
            <DestinationOption
              value="existing"
              checked={destination.type === 'existing'}
              onSelect={() => onChange({ ...destination, type: 'existing' })}
              icon={<Sheet className="size-5 text-primary" aria-hidden />}
              title="Use Existing Spreadsheet"
              description="Add rows to a spreadsheet you already have."
            />
          </div>
          {destination.type === 'existing' && (
            <ExistingSpreadsheetInput value={destination.spreadsheet} onChange={(spreadsheet) => onChange({ ...destination, spreadsheet })} />
          )}
        </fieldset>
      )}

      <div className="grid gap-2 rounded-md border bg-muted/40 p-4">
        <h3 className="text-sm font-semibold">Columns to be created</h3>
        <p className="text-xs text-muted-foreground">
          One per extraction field, then details of each email{rowMode === 'per_item' ? ' and the number of the item in its email' : ''}.
        </p>
        <ColumnList fieldNames={fieldNames} rowMode={rowMode} />
      </div>
    </div>
  )
}

function DestinationOption({
  value,
  checked,
  onSelect,
  icon,
  title,
  description,
}: {
  value: string
  checked: boolean
  onSelect: () => void
  icon: React.ReactNode
  title: string
  description: string
}) {
  return (
    <label
      className={cn(
        'flex cursor-pointer items-start gap-3 rounded-lg border p-4 transition-colors hover:border-primary/60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
        checked && 'border-primary ring-1 ring-primary',
      )}
    >
      <input type="radio" name="destination-type" value={value} checked={checked} onChange={onSelect} className="mt-1 accent-[var(--color-primary)]" />
      <span className="grid gap-1">
        <span className="flex items-center gap-2 font-medium">
          {icon}
          {title}
        </span>
        <span className="text-sm text-muted-foreground">{description}</span>
      </span>
    </label>
  )
}

function ExistingSpreadsheetInput({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const check = useValidatedSpreadsheet(value)
  // A check under way, or one that has found the sheet, makes the last error stale.
  const error = check.isError && !check.isFetching && !check.data ? check.error.message : undefined
  return (
    <div className="grid gap-2">
      <Field
        id="spreadsheet"
        label="Spreadsheet URL or ID"
        hint="Paste the address of the spreadsheet from your browser, or just its ID."
        error={error}
      >
        {(control) => (
          <Input
            {...control}
            autoComplete="off"
            spellCheck={false}
            placeholder="https://docs.google.com/spreadsheets/d/..."
            value={value}
            onChange={(event) => onChange(event.target.value)}
            onBlur={() => {
              if (value.trim() && !check.data && !check.isFetching) void check.refetch()
            }}
          />
        )}
      </Field>
      <div className="min-h-5 text-sm" aria-live="polite">
        {check.isFetching ? (
          <span className="flex items-center gap-2 text-muted-foreground">
            <Spinner className="size-4" label="Checking spreadsheet" />
            Checking spreadsheet...
          </span>
        ) : check.data ? (
          <span className="flex flex-wrap items-center gap-2 text-success">
            <CheckCircle2 className="size-4" aria-hidden />
            <span>
              Found <strong>{check.data.title}</strong>
            </span>
            <a href={check.data.spreadsheetUrl} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 text-primary hover:underline">
              Open <ExternalLink className="size-3" aria-hidden />
            </a>
          </span>
        ) : null}
      </div>
    </div>
  )
}
