import { zodResolver } from '@hookform/resolvers/zod'
import { CheckCircle2, ExternalLink, XCircle } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { toast } from 'sonner'
import { testParserInputSchema, type ParserView, type TestParserResult } from '@shared/contracts/parsers'
import { Button } from '@web/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog'
import { Field } from '@web/components/ui/field'
import { Input } from '@web/components/ui/input'
import { useTestParser } from '../api/test-parser'
import { formatExtractionMethod } from '../format'
import { RecentEmailsPicker } from './recent-emails-picker'
import { useReturnFocus } from '@web/components/ui/use-return-focus'

type TestParserDialogProps = {
  /** The parser under test; null keeps the dialog closed. */
  parser: ParserView | null
  onOpenChange: (open: boolean) => void
}

/** Spec §2 'Test Parser dialog': idle, testing, then a success or failure panel. */
export function TestParserDialog({ parser, onOpenChange }: TestParserDialogProps) {
  const returnFocus = useReturnFocus()
  return (
    <Dialog open={parser !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] w-[calc(100%-1rem)] max-w-xl overflow-y-auto" {...returnFocus}>
        {/* Mounted only while open: closing clears the input and the result (spec §2). */}
        {parser ? <TestParserForm parser={parser} onClose={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  )
}

function TestParserForm({ parser, onClose }: { parser: ParserView; onClose: () => void }) {
  const test = useTestParser(parser.id)
  const { register, handleSubmit, setValue, control } = useForm({
    resolver: zodResolver(testParserInputSchema),
    defaultValues: { emailId: '' },
  })
  const emailId = useWatch({ control, name: 'emailId' })
  const runRef = useRef<HTMLButtonElement>(null)
  // Run Test is disabled while the test runs, which drops focus to the page: it comes back after.
  useEffect(() => {
    if (test.status === 'success' || test.status === 'error') runRef.current?.focus()
  }, [test.status])
  const isBlank = emailId.trim() === ''

  const run = handleSubmit(
    ({ emailId }) =>
      test.mutate(emailId, {
        onSuccess: (result) => {
          if (result.success) {
            toast.success('Test successful!', {
              description: result.written_to_sheets ? 'Data extracted and written to your spreadsheet' : 'Data extracted successfully',
            })
          } else {
            toast.error('Test failed', { description: result.error || 'Failed to test parser' })
          }
        },
        onError: (error) => toast.error('Test failed', { description: error.message || 'Failed to test parser' }),
      }),
    (errors) =>
      // Spec §8 for an empty ID; an ID that can't be Gmail's says so instead of asking Google.
      toast.error(isBlank ? 'Email ID required' : 'Invalid email ID', {
        description: errors.emailId?.message ?? 'Please enter a Gmail message ID',
      }),
  )

  return (
    <form onSubmit={(event) => void run(event)} noValidate className="flex min-w-0 flex-col gap-4">
      <DialogHeader className="pr-6">
        <DialogTitle className="break-words">Test Parser: {parser.name}</DialogTitle>
        <DialogDescription>
          Run this parser on one Gmail message. When every field is found, the row is written to your spreadsheet.
        </DialogDescription>
      </DialogHeader>

      <Field label="Gmail message ID" id="test-email-id">
        {(control) => <Input {...control} autoComplete="off" spellCheck={false} placeholder="e.g. 18c4f2a9e1b7d3c5" className="font-mono" {...register('emailId')} />}
      </Field>

      <RecentEmailsPicker
        parserId={parser.id}
        selectedId={emailId.trim()}
        disabled={test.isPending}
        onPick={(id) => setValue('emailId', id, { shouldDirty: true })}
      />

      <div aria-live="polite">
        {test.isSuccess ? (
          <ResultPanel result={test.data} spreadsheetUrl={parser.destination_config?.spreadsheetUrl ?? null} />
        ) : test.isError ? (
          <FailurePanel error={test.error.message || 'Failed to test parser'} data={{}} />
        ) : null}
      </div>

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Close
        </Button>
        <Button ref={runRef} type="submit" disabled={isBlank || test.isPending}>
          {test.isPending ? 'Testing...' : 'Run Test'}
        </Button>
      </DialogFooter>
    </form>
  )
}

function ResultPanel({ result, spreadsheetUrl }: { result: TestParserResult; spreadsheetUrl: string | null }) {
  if (!result.success) return <FailurePanel error={result.error || 'Failed to test parser'} data={result.extracted_data} method={result.extraction_method} />
  return (
    <section aria-labelledby="test-success-heading" className="flex flex-col gap-3 rounded-md border border-success/40 bg-success/5 p-4">
      <h3 id="test-success-heading" className="flex items-center gap-2 font-semibold text-success">
        <CheckCircle2 className="size-5" aria-hidden />
        Extraction succeeded
      </h3>
      <ExtractedJson data={result.extracted_data} />
      <p className="text-sm">
        <span className="text-muted-foreground">Extraction method: </span>
        {formatExtractionMethod(result.extraction_method)}
      </p>
      {result.written_to_sheets ? (
        <p className="flex flex-wrap items-center gap-x-2 text-sm">
          The data was written to your spreadsheet.
          {spreadsheetUrl ? (
            <a href={spreadsheetUrl} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline">
              Open spreadsheet
              <ExternalLink className="size-3.5" aria-hidden />
            </a>
          ) : null}
        </p>
      ) : null}
    </section>
  )
}

function FailurePanel({ error, data, method }: { error: string; data: Record<string, string | null>; method?: string | null }) {
  const hasPartialData = Object.values(data).some((value) => value !== null && value !== '')
  return (
    <section aria-labelledby="test-failure-heading" className="flex flex-col gap-3 rounded-md border border-destructive/40 bg-destructive/5 p-4">
      <h3 id="test-failure-heading" className="flex items-center gap-2 font-semibold text-destructive">
        <XCircle className="size-5" aria-hidden />
        Extraction failed
      </h3>
      <p className="text-sm break-words">{error}</p>
      {hasPartialData ? (
        <>
          <p className="text-sm text-muted-foreground">What was found:</p>
          <ExtractedJson data={data} />
        </>
      ) : null}
      {method ? (
        <p className="text-sm">
          <span className="text-muted-foreground">Extraction method: </span>
          {formatExtractionMethod(method)}
        </p>
      ) : null}
    </section>
  )
}

function ExtractedJson({ data }: { data: Record<string, unknown> }) {
  return (
    <pre data-testid="extracted-json" className="max-h-60 overflow-auto rounded-md border bg-background p-3 font-mono text-xs">
      {JSON.stringify(data, null, 2)}
    </pre>
  )
}
