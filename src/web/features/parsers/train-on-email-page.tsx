import { ArrowLeft, CheckCircle2, GraduationCap, Keyboard, MousePointerClick, RotateCw, X } from 'lucide-react'
import { useMemo, useRef, useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { toast } from 'sonner'
import type { ExtractionField } from '@shared/contracts/extraction'
import type { ParserView, TrainFromEmailResult, TrainingEmailView } from '@shared/contracts/parsers'
import { parserPath, paths } from '@shared/paths'
import { AppHeader } from '../../components/layout/app-header'
import { Button } from '../../components/ui/button'
import { usePageTitle } from '../../lib/document-title'
import { Spinner } from '../../components/ui/spinner'
import { useFlowReturnFocus } from '../../components/ui/use-return-focus'
import { useParser, useReprocessEmails, useTrainingEmail, useTrainingPreview, useTrainParser } from './api/parser-pages'
import { AssignFieldDialog } from './components/assign-field-dialog'
import { EmailView } from './components/email-view'
import { FieldSwatch } from './components/field-swatch'
import { focusAfterRemoval } from './components/focus-after-removal'
import { LivePreviewPanel, DEFAULT_NOT_FOUND_REASON } from './components/live-preview-panel'
import { reprocessSummary } from './components/parser-emails-table'
import { TypeValueDialog } from './components/type-value-dialog'
import type { HighlightedValue } from './selection-context'
import { useDebouncedValue } from './use-debounced-value'

const PREVIEW_DEBOUNCE_MS = 400

/**
 * 'Train on this email': the highlight view on one of the parser's emails, its current values
 * marked; the user corrects or adds values, watches the preview over the parser's recent emails,
 * and saves (the template is learned again from all its samples).
 */
export function TrainOnEmailPage() {
  const { parserId = '', emailId = '' } = useParams()
  const parser = useParser(parserId)
  usePageTitle(parser.data?.name)
  const training = useTrainingEmail(parserId, emailId)
  const error = parser.error ?? training.error
  return (
    <div className="min-h-screen bg-muted/40">
      <AppHeader />
      <main className="mx-auto grid max-w-6xl grid-cols-1 gap-6 px-4 py-8">
        <Link to={parserId ? parserPath(parserId) : paths.parsers} className="flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
          <ArrowLeft className="size-4" aria-hidden />
          Back to {parser.data?.name ?? 'the parser'}
        </Link>
        {error ? (
          <div className="grid justify-items-center gap-3 rounded-lg border bg-background p-8 text-center">
            <h1 className="text-2xl font-bold">Could not open this email</h1>
            <p className="text-sm text-muted-foreground">{error.message}</p>
          </div>
        ) : parser.isPending || training.isPending ? (
          <div className="flex min-h-56 items-center justify-center">
            <Spinner label="Loading the email" />
          </div>
        ) : (
          <TrainingView key={emailId} parser={parser.data!} training={training.data!} />
        )}
      </main>
    </div>
  )
}

function TrainingView({ parser, training }: { parser: ParserView; training: TrainingEmailView }) {
  const navigate = useNavigate()
  // Fields added here (highlighted in this email) join the parser's on save, as new sheet columns.
  const [newNames, setNewNames] = useState<string[]>([])
  const fieldNames = useMemo(() => [...parser.extraction_fields.map((f) => f.name), ...newNames], [parser.extraction_fields, newNames])
  // The parser's current values start marked; a field it missed waits for a highlight.
  const [values, setValues] = useState<Record<string, Omit<ExtractionField, 'name'> | null>>(() =>
    Object.fromEntries(fieldNames.map((name) => [name, training.values[name] ? { value: training.values[name]! } : null])),
  )
  const [pending, setPending] = useState<HighlightedValue | null>(null)
  const [isTyping, setTyping] = useState(false)
  const [saved, setSaved] = useState<TrainFromEmailResult | null>(null)
  const returnFocus = useFlowReturnFocus()
  const addByTypingRef = useRef<HTMLButtonElement>(null)
  const fieldsRef = useRef<HTMLElement>(null)
  const fields = useMemo<ExtractionField[]>(() => fieldNames.flatMap((name) => (values[name] ? [{ name, ...values[name] }] : [])), [fieldNames, values])
  // Each field keeps its colour (its place in the parser's list) whichever values are set.
  const marked = useMemo(() => fields.map((field) => ({ ...field, colour: fieldNames.indexOf(field.name) })), [fields, fieldNames])
  const debounced = useDebouncedValue(fields, PREVIEW_DEBOUNCE_MS)
  const preview = useTrainingPreview(parser.id, { emailId: training.parsedEmailId, fields: debounced }, { enabled: debounced.length > 0 })
  const train = useTrainParser(parser.id)
  const reprocess = useReprocessEmails(parser.id)
  const missing = fieldNames.filter((name) => !values[name])

  const onSave = () =>
    train.mutate(
      { emailId: training.parsedEmailId, fields },
      {
        onSuccess: (result) => {
          setSaved(result)
          toast.success('Parser re-learned', { description: `${parser.name} learned from ${result.samples} emails.` })
        },
        onError: (error) => toast.error('Could not re-learn the parser', { description: error.message || 'Please try again.' }),
      },
    )

  const onReprocess = () =>
    reprocess.mutate(
      { allFailed: true },
      {
        onSuccess: (result) => {
          toast.success(result.reprocessed === 1 ? '1 email reprocessed' : `${result.reprocessed} emails reprocessed`, { description: reprocessSummary(result) })
          navigate(parserPath(parser.id))
        },
        onError: (error) => toast.error('Could not reprocess', { description: error.message || 'Please try again.' }),
      },
    )

  return (
    <div className="grid gap-6">
      <div>
        <h1 className="flex items-center gap-2 text-3xl font-bold tracking-tight">
          <GraduationCap className="size-7 text-primary" aria-hidden />
          Train on this email
        </h1>
        <p className="mt-1 flex items-start gap-2 text-sm text-muted-foreground">
          <MousePointerClick className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
          Highlight the right value for each field that is missing or wrong, then save. {parser.name} learns from this email and the ones it was trained on
          before.
        </p>
      </div>

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_17rem]">
        <div className="grid min-w-0 gap-4">
          <EmailView
            email={training.email}
            marked={marked}
            onHighlight={(highlight) => {
              returnFocus.remember()
              setPending(highlight)
            }}
          />
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <Button
              ref={addByTypingRef}
              variant="outline"
              onClick={(event) => {
                returnFocus.remember(event.currentTarget)
                setTyping(true)
              }}
            >
              <Keyboard aria-hidden />
              Add field by typing
            </Button>
            <p className="text-sm text-muted-foreground">Type a value as it appears in the email instead of highlighting it.</p>
          </div>
        </div>
        <section ref={fieldsRef} aria-labelledby="training-fields-heading" className="grid h-fit gap-3 rounded-lg border bg-background p-4 lg:sticky lg:top-4">
          <h2 id="training-fields-heading" tabIndex={-1} className="font-semibold outline-none">
            Fields
          </h2>
          <ol className="grid gap-2">
            {fieldNames.map((name, index) => {
              const field = values[name]
              return (
                <li key={name} className="flex items-start justify-between gap-2 rounded-md border p-2" data-testid="training-field">
                  <FieldSwatch index={index} />
                  <div className="min-w-0 flex-1">
                    <p className="break-words text-sm font-medium">{name}</p>
                    {field ? (
                      <p className="line-clamp-2 break-all text-xs text-muted-foreground">{field.value}</p>
                    ) : (
                      <p className="text-xs text-destructive">Not found: {training.reasons[name] || DEFAULT_NOT_FOUND_REASON}. Highlight it in the email.</p>
                    )}
                  </div>
                  {field ? (
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-7 shrink-0"
                      aria-label={`Clear ${name}`}
                      data-clear-field
                      onClick={(event) => {
                        focusAfterRemoval(fieldsRef.current, event.currentTarget, '[data-clear-field]', '#training-fields-heading')
                        setValues((v) => ({ ...v, [name]: null }))
                      }}
                    >
                      <X />
                    </Button>
                  ) : null}
                </li>
              )
            })}
          </ol>
        </section>
      </div>

      {debounced.length > 0 && (
        <LivePreviewPanel
          fieldNames={fieldNames}
          lineItemFields={[]}
          rows={preview.data?.rows}
          isUpdating={debounced !== fields || preview.isFetching}
          error={preview.isError ? preview.error.message : null}
        />
      )}

      {saved ? (
        <div role="status" className="flex flex-col gap-3 rounded-lg border border-success/40 bg-background p-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-start gap-2 text-sm">
            <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
            {parser.name} re-learned its template from {saved.samples} emails.{' '}
            {saved.incomplete > 0 ? `${saved.incomplete} ${saved.incomplete === 1 ? 'email is' : 'emails are'} failed or partial.` : 'No email is failed or partial.'}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" asChild>
              <Link to={parserPath(parser.id)}>Back to {parser.name}</Link>
            </Button>
            {saved.incomplete > 0 ? (
              <Button onClick={onReprocess} disabled={reprocess.isPending}>
                <RotateCw aria-hidden className={reprocess.isPending ? 'animate-spin' : undefined} />
                {reprocess.isPending ? 'Reprocessing...' : `Reprocess failed emails (${saved.incomplete})`}
              </Button>
            ) : null}
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap items-center justify-end gap-2">
          {missing.length > 0 ? <p className="text-sm text-muted-foreground">Still missing: {missing.join(', ')}</p> : null}
          <Button variant="outline" asChild>
            <Link to={parserPath(parser.id)}>Cancel</Link>
          </Button>
          <Button onClick={onSave} disabled={fields.length === 0 || train.isPending}>
            {train.isPending ? 'Saving...' : 'Save and re-learn'}
          </Button>
        </div>
      )}

      {isTyping && (
        <TypeValueDialog
          emailText={training.email.body}
          onCloseAutoFocus={returnFocus.onCloseAutoFocus}
          onCancel={() => setTyping(false)}
          onFound={(highlight) => {
            setTyping(false)
            setPending(highlight)
          }}
        />
      )}
      {pending && (
        <AssignFieldDialog
          highlight={pending}
          fieldNames={fieldNames}
          suggested={missing[0] ?? fieldNames[0]!}
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            returnFocus.restore(addByTypingRef.current)
          }}
          onCancel={() => setPending(null)}
          onAssign={(name) => {
            if (!fieldNames.includes(name)) setNewNames((names) => [...names, name])
            setValues((v) => ({ ...v, [name]: pending }))
            setSaved(null)
            setPending(null)
            toast.success('Field updated', { description: `${name}: ${pending.value}` })
          }}
        />
      )}
    </div>
  )
}
