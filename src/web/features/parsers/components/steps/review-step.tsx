import { CheckCircle2, Lock } from 'lucide-react'
import type { ReactNode } from 'react'
import type { GmailConnectionStatus } from '@shared/contracts/gmail'
import { spreadsheetName } from '@shared/contracts/sheets'
import { PLAN_INFO, type Plan } from '@shared/plans'
import { Button } from '@web/components/ui/button'
import { Field, SwitchField } from '@web/components/ui/field'
import { Input } from '@web/components/ui/input'
import { useUpgrade } from '@web/features/billing/use-upgrade'
import { useValidatedSpreadsheet } from '../../api/validate-spreadsheet'
import { PARSER_TYPE_INFO } from '../../parser-types'
import type { DraftPatch, WizardDraft } from '../../wizard-draft'
import { ColumnList } from '../column-list'
import { FilterSummary } from '../filter-summary'
import { ROW_MODE_LABELS } from '../row-mode-choice'

/** Wizard step 5 (spec §2): name, everything chosen so far, historical parsing. */
export function ReviewStep({
  draft,
  plan,
  connection,
  nameError,
  onChange,
  onSubmit,
}: {
  draft: WizardDraft
  plan: Plan
  connection: GmailConnectionStatus | undefined
  nameError?: string
  onChange: (patch: DraftPatch) => void
  onSubmit: () => void
}) {
  const { upgrade, isPending: isUpgrading } = useUpgrade()
  const existing = useValidatedSpreadsheet(draft.destination.spreadsheet)
  const type = PARSER_TYPE_INFO[draft.parserType]
  const starter = PLAN_INFO.starter

  return (
    <form
      noValidate
      className="grid gap-6"
      onSubmit={(event) => {
        event.preventDefault()
        onSubmit()
      }}
    >
      <Field label="Parser Name *" error={nameError}>
        {(control) => (
          <Input
            {...control}
            required
            aria-required
            autoComplete="off"
            maxLength={200}
            placeholder="e.g., Shop orders"
            value={draft.name}
            onChange={(event) => onChange({ name: event.target.value })}
          />
        )}
      </Field>

      <dl className="grid gap-3 sm:grid-cols-2">
        <SummaryItem term="Gmail connection">{connection?.connected ? connection.accountEmail : 'Not connected'}</SummaryItem>
        <SummaryItem term="Email filters">
          <FilterSummary filters={draft.filters} />
        </SummaryItem>
        <SummaryItem term={`Fields (${draft.fields.length})`}>
          <ul className="grid gap-1 text-sm">
            {draft.fields.map((field) => (
              <li key={field.name} className="flex min-w-0 gap-2">
                <span className="shrink-0 font-medium">{field.name}:</span>
                <span className="truncate text-muted-foreground">{field.value}</span>
              </li>
            ))}
          </ul>
        </SummaryItem>
        <SummaryItem term="Parser type">
          {type.name}
          <span className="block text-xs text-muted-foreground">
            {type.cost}
            {draft.parserType === 'full_ai' && draft.parseAttachments ? ' · PDF attachments parsed' : ''}
          </span>
        </SummaryItem>
        <SummaryItem term="Destination">
          {draft.destination.type === 'new' ? (
            <>
              New Google Sheets spreadsheet
              <span className="block text-xs text-muted-foreground">
                Named &ldquo;{draft.name.trim() ? spreadsheetName(draft.name) : '<parser name> - Data'}&rdquo;, created on activation
              </span>
            </>
          ) : (
            <>
              Existing spreadsheet
              <span className="block break-all text-xs text-muted-foreground">{existing.data?.title ?? draft.destination.spreadsheet}</span>
            </>
          )}
        </SummaryItem>
        <SummaryItem term="Rows">
          <span className="block">{ROW_MODE_LABELS[draft.rowMode].title}</span>
          <span className="block text-xs text-muted-foreground">{ROW_MODE_LABELS[draft.rowMode].summary}</span>
        </SummaryItem>
        <SummaryItem term="Columns">
          <ColumnList fieldNames={draft.fields.map((field) => field.name)} rowMode={draft.rowMode} />
        </SummaryItem>
      </dl>

      <div className="grid gap-3">
        <SwitchField
          label="Parse Existing Emails"
          hint={`Also process up to ${starter.historicalEmails} emails already in your mailbox that match these filters.`}
          checked={draft.parseHistorical}
          onCheckedChange={(checked) => onChange({ parseHistorical: checked })}
        />
        {draft.parseHistorical &&
          (plan === 'free' ? (
            <div className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center sm:justify-between" role="status">
              <div className="flex items-start gap-3">
                <Lock className="mt-0.5 size-4 shrink-0" aria-hidden />
                <div>
                  <p className="font-medium">Upgrade Required</p>
                  <p className="text-sm">
                    Parsing existing emails (up to {starter.historicalEmails} existing emails) is available on the {starter.name} plan at $
                    {starter.priceMonthly}/month and above.
                  </p>
                </div>
              </div>
              <Button type="button" size="sm" disabled={isUpgrading} onClick={() => upgrade('starter')}>
                Upgrade Now
              </Button>
            </div>
          ) : (
            <div className="flex items-start gap-3 rounded-md border border-success/40 bg-success/5 p-4" role="status">
              <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
              <div>
                <p className="font-medium">Ready to process historical emails</p>
                <p className="text-sm text-muted-foreground">
                  Up to {PLAN_INFO[plan].historicalEmails} existing emails matching your filters are processed after activation.
                </p>
              </div>
            </div>
          ))}
      </div>
    </form>
  )
}

function SummaryItem({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 content-start gap-1 rounded-md border p-4">
      <dt className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{term}</dt>
      <dd className="min-w-0 text-sm">{children}</dd>
    </div>
  )
}
