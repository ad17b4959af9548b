import { ArrowLeft, Info, Keyboard, MousePointerClick, RefreshCw, TriangleAlert } from 'lucide-react'
import { useRef, useState } from 'react'
import { toast } from 'sonner'
import type { FetchedEmail } from '@shared/contracts/gmail'
import { SAMPLE_EMAIL_ID } from '@shared/contracts/parsers'
import type { Plan } from '@shared/plans'
import { SAMPLE_EMAIL } from '@shared/sample-email'
import { Button } from '@web/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog'
import { Spinner } from '@web/components/ui/spinner'
import { useFlowReturnFocus } from '@web/components/ui/use-return-focus'
import { useMatchingEmails } from '../../api/matching-emails'
import { usePreviewParser } from '../../api/preview-parser'
import type { HighlightedValue } from '../../selection-context'
import { useDebouncedValue } from '../../use-debounced-value'
import { toEmailFilters, type DraftPatch, type WizardDraft } from '../../wizard-draft'
import { EmailList } from '../email-list'
import { EmailView } from '../email-view'
import { LivePreviewPanel } from '../live-preview-panel'
import { NameFieldDialog } from '../name-field-dialog'
import { ParserTypePicker } from '../parser-type-picker'
import { RowModeChoice } from '../row-mode-choice'
import { SelectedFieldsPanel } from '../selected-fields-panel'
import { TypeValueDialog } from '../type-value-dialog'

const SAMPLE_AS_FETCHED: FetchedEmail = {
  id: SAMPLE_EMAIL.id,
  subject: SAMPLE_EMAIL.subject,
  from: SAMPLE_EMAIL.from,
  date: SAMPLE_EMAIL.date,
  body: SAMPLE_EMAIL.text,
  bodyHtml: SAMPLE_EMAIL.html,
}

const PREVIEW_DEBOUNCE_MS = 400
const NO_FIELDS: never[] = []

/** Wizard step 3 (spec §2): pick a sample email, highlight values, see them work, choose a parser type. */
export function TrainStep({
  draft,
  plan,
  isGmailConnected,
  onChange,
  onBackToFilters,
}: {
  draft: WizardDraft
  plan: Plan
  isGmailConnected: boolean
  onChange: (patch: DraftPatch) => void
  onBackToFilters: () => void
}) {
  const filters = toEmailFilters(draft.filters)
  const [showImages, setShowImages] = useState(false)
  const [pending, setPending] = useState<HighlightedValue | null>(null)
  const [switchTo, setSwitchTo] = useState<string | null>(null)
  const [isTypingValue, setTypingValue] = useState(false)
  const returnFocus = useFlowReturnFocus()
  const addByTypingRef = useRef<HTMLButtonElement>(null)
  const emails = useMatchingEmails(filters, { showImages, enabled: isGmailConnected })

  const list = emails.data ?? []
  const isLoading = isGmailConnected && emails.isPending
  const fallbackMessage = !isGmailConnected
    ? 'Could not fetch emails: Gmail is not connected'
    : emails.isError && list.length === 0
      ? `Could not fetch emails: ${emails.error.message || 'Failed to fetch emails'}`
      : emails.isSuccess && list.length === 0
        ? 'No emails found matching your filters'
        : null
  const shown = fallbackMessage ? [SAMPLE_AS_FETCHED] : list
  const viewed = shown.find((email) => email.id === draft.sampleId) ?? shown[0]
  // Fields belong to the email they were highlighted in; after a filter change it may be gone.
  const isOtherSample = draft.fields.length > 0 && !isLoading && viewed !== undefined && draft.sampleId !== viewed.id

  const debouncedFields = useDebouncedValue(draft.fields, PREVIEW_DEBOUNCE_MS)
  // Training runs for any sample (it reports line items and text not found); the table needs other emails.
  const canTrain = isGmailConnected && !isOtherSample && draft.sampleId !== null && debouncedFields.length > 0
  const canPreview = canTrain && !fallbackMessage && list.length > 1 && draft.sampleId !== SAMPLE_EMAIL_ID
  const preview = usePreviewParser({ filters, fields: debouncedFields, sample: { messageId: draft.sampleId ?? SAMPLE_EMAIL_ID } }, { enabled: canTrain })
  const isPreviewSettling = debouncedFields !== draft.fields || preview.isFetching
  const lineItemFields = canTrain ? (preview.data?.lineItemFields ?? []).filter((name) => draft.fields.some((field) => field.name === name)) : []

  const onSelectEmail = (id: string) => {
    if (id === viewed?.id) return
    if (draft.fields.length > 0) setSwitchTo(id)
    else onChange({ sampleId: id, rowMode: 'per_email' })
  }

  const onHighlight = (highlight: HighlightedValue) => {
    if (isOtherSample) {
      toast.error('Fields come from another email', { description: 'Clear the selected fields to train on this email.' })
      return
    }
    // A highlight made in the email frame returns focus to the frame; a typed one to its button.
    if (!isTypingValue) returnFocus.remember()
    setPending(highlight)
  }

  const onAddField = (name: string) => {
    if (!pending || !viewed) return
    onChange({ fields: [...draft.fields, { name, ...pending }], sampleId: viewed.id })
    toast.success('Field added', { description: `${name}: ${pending.value}` })
    setPending(null)
  }

  return (
    <div className="grid gap-8">
      <p className="flex items-start gap-2 text-sm text-muted-foreground">
        <MousePointerClick className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        Highlight each value you want in your spreadsheet (an amount, an order number, a name) with your mouse, then give it a name.
      </p>

      {isLoading ? (
        <div className="flex min-h-[28rem] flex-col items-center justify-center gap-3 rounded-md border border-dashed text-sm text-muted-foreground">
          <Spinner className="size-6" label="Loading emails" />
          Loading matching emails from your Gmail...
        </div>
      ) : (
        <div className="grid gap-6">
          {fallbackMessage ? (
            <div className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 sm:flex-row sm:items-center sm:justify-between" role="status">
              <div className="flex items-start gap-2">
                <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
                <div>
                  <p className="font-medium">{fallbackMessage}</p>
                  <p>Here is a sample invoice so you can see how training works.</p>
                </div>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" size="sm" onClick={onBackToFilters}>
                  <ArrowLeft />
                  Go back to adjust filters
                </Button>
                {isGmailConnected && (
                  <Button variant="outline" size="sm" onClick={() => void emails.refetch()} disabled={emails.isFetching}>
                    <RefreshCw className={emails.isFetching ? 'animate-spin' : undefined} />
                    Try Again
                  </Button>
                )}
              </div>
            </div>
          ) : (
            <p className="text-sm font-medium" role="status">
              {list.length === 1 ? '1 matching email found from your Gmail' : `${list.length} emails found`}
            </p>
          )}

          <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_17rem]">
            <div className="grid min-w-0 gap-4">
              {shown.length > 1 && viewed && <EmailList emails={shown} selectedId={viewed.id} onSelect={onSelectEmail} />}
              {isOtherSample && (
                <div className="flex flex-col gap-2 rounded-md border bg-muted/40 p-3 text-sm sm:flex-row sm:items-center sm:justify-between">
                  <p className="flex items-start gap-2">
                    <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
                    Your selected fields come from an email that is no longer shown.
                  </p>
                  <Button variant="outline" size="sm" onClick={() => onChange({ fields: [], sampleId: viewed?.id ?? null, rowMode: 'per_email' })}>
                    Start over with this email
                  </Button>
                </div>
              )}
              {viewed && (
                <EmailView
                  email={viewed}
                  marked={isOtherSample ? NO_FIELDS : draft.fields}
                  onHighlight={onHighlight}
                  onShowImages={fallbackMessage ? undefined : () => setShowImages(true)}
                  isLoadingImages={showImages && emails.isPlaceholderData}
                  areImagesShown={showImages && !fallbackMessage}
                />
              )}
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <Button
                  ref={addByTypingRef}
                  variant="outline"
                  onClick={(event) => {
                    returnFocus.remember(event.currentTarget)
                    setTypingValue(true)
                  }}
                >
                  <Keyboard aria-hidden />
                  Add field by typing
                </Button>
                <p className="text-sm text-muted-foreground">Type a value as it appears in the email instead of highlighting it.</p>
              </div>
            </div>
            <SelectedFieldsPanel
              fields={draft.fields}
              notInSample={preview.data?.unmatched ?? []}
              onTypeChange={(index, type) => onChange({ fields: draft.fields.map((field, i) => (i === index ? { ...field, type } : field)) })}
              onRemove={(index) => {
                const fields = draft.fields.filter((_, i) => i !== index)
                // The choice goes with the last line-item field: back to one row per email.
                const hasItems = lineItemFields.some((name) => fields.some((field) => field.name === name))
                onChange({ fields, ...(hasItems ? {} : { rowMode: 'per_email' as const }) })
              }}
            />
          </div>

          {canPreview && (
            <LivePreviewPanel
              fieldNames={debouncedFields.map((field) => field.name)}
              lineItemFields={preview.data?.lineItemFields ?? []}
              rows={preview.data?.rows}
              isUpdating={isPreviewSettling}
              error={preview.isError ? preview.error.message : null}
            />
          )}

          {lineItemFields.length > 0 && <RowModeChoice lineItemFields={lineItemFields} rowMode={draft.rowMode} onChange={(rowMode) => onChange({ rowMode })} />}
        </div>
      )}

      <ParserTypePicker plan={plan} parserType={draft.parserType} parseAttachments={draft.parseAttachments} onChange={onChange} />

      {isTypingValue && viewed && (
        <TypeValueDialog
          emailText={viewed.body}
          onCloseAutoFocus={returnFocus.onCloseAutoFocus}
          onCancel={() => setTypingValue(false)}
          onFound={(highlight) => {
            setTypingValue(false)
            onHighlight(highlight)
          }}
        />
      )}
      {pending && (
        <NameFieldDialog
          highlight={pending}
          existingNames={draft.fields.map((field) => field.name)}
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            returnFocus.restore(addByTypingRef.current)
          }}
          onAdd={onAddField}
          onCancel={() => setPending(null)}
        />
      )}
      <Dialog open={switchTo !== null} onOpenChange={(open) => !open && setSwitchTo(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Train on another email?</DialogTitle>
            <DialogDescription>
              Your {draft.fields.length === 1 ? 'field was' : `${draft.fields.length} fields were`} highlighted in the current email. Switching removes
              {draft.fields.length === 1 ? ' it' : ' them'} so you can highlight the values again in the other email.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setSwitchTo(null)}>
              Keep current email
            </Button>
            <Button
              onClick={() => {
                onChange({ fields: [], sampleId: switchTo, rowMode: 'per_email' })
                setSwitchTo(null)
              }}
            >
              Switch email
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  )
}
