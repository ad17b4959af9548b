import { useQueryClient } from '@tanstack/react-query'
import { Check } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import type { GmailConnectionStatus } from '@shared/contracts/gmail'
import { SAMPLE_EMAIL_ID } from '@shared/contracts/parsers'
import { paths } from '@shared/paths'
import { AppHeader } from '../../components/layout/app-header'
import { Button } from '../../components/ui/button'
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card'
import { cn } from '../../lib/utils'
import { useGmailConnection } from '../connections/api/gmail-connection'
import { useGmailCallback } from '../connections/use-gmail-callback'
import { useCheckoutReturn } from '../billing/use-checkout-return'
import { useUpgrade } from '../billing/use-upgrade'
import { dashboardQuery } from '../dashboard/api/get-dashboard'
import { useAccount } from '../settings/api/get-account'
import { useCreateParser } from './api/create-parser'
import { validateSpreadsheetQuery } from './api/validate-spreadsheet'
import { ConnectGmailStep } from './components/connect-gmail-step'
import { DiscardDraftDialog } from './components/discard-draft-dialog'
import { DestinationStep } from './components/steps/destination-step'
import { FiltersStep } from './components/steps/filters-step'
import { ReviewStep } from './components/steps/review-step'
import { filterErrors, STEP_BLOCKS, stepBlock, type StepBlock } from './components/steps/step-schemas'
import { TrainStep } from './components/steps/train-step'
import { useWizardState } from './use-wizard-state'
import { clearWizardDrafts } from './wizard-draft-storage'
import { hasAnyFilter, toCreateParserInput, type DraftPatch } from './wizard-draft'

/** The wizard's five steps (spec §2). */
export const WIZARD_STEPS = [
  { title: 'Connect Gmail', heading: 'Connect Gmail', description: 'Authorize access to your Gmail' },
  { title: 'Email Filter', heading: 'Set Email Filters', description: 'Define which emails to parse' },
  { title: 'Train AI', heading: 'Train AI to Extract Data', description: 'Select data to extract' },
  { title: 'Destination', heading: 'Choose Destination', description: 'Choose where to send data' },
  { title: 'Review', heading: 'Review Your Parser', description: 'Review and activate' },
] as const

function ProgressBar({ current }: { current: number }) {
  return (
    <ol className="grid grid-cols-5 gap-2" aria-label="Progress">
      {WIZARD_STEPS.map((step, index) => {
        const number = index + 1
        const isDone = number < current
        return (
          <li key={step.title} className="grid gap-2" aria-current={number === current ? 'step' : undefined}>
            <div className={cn('h-1.5 rounded-full', number <= current ? 'bg-primary' : 'bg-border')} />
            <div className="flex items-center gap-2 text-sm">
              <span
                className={cn(
                  'flex size-6 shrink-0 items-center justify-center rounded-full border text-xs font-semibold',
                  isDone && 'border-primary bg-primary text-primary-foreground',
                  number === current && 'border-primary text-primary',
                )}
              >
                {isDone ? <Check className="size-3.5" aria-label="Completed" /> : number}
              </span>
              <span className="hidden font-medium md:inline">{step.title}</span>
            </div>
            <p className="hidden text-xs text-muted-foreground lg:block">{step.description}</p>
          </li>
        )
      })}
    </ol>
  )
}

/** Sheets rides on the Gmail connection (spec §3): connected, with the spreadsheets scope granted. */
function hasSheetsAccess(connection: GmailConnectionStatus | undefined): boolean {
  return Boolean(connection?.connected && !connection.missingScopes.some((scope) => scope.endsWith('/auth/spreadsheets')))
}

/** Moves focus to the new step's heading, so keyboard and screen-reader users start at the top. */
function useFocusOnStepChange(step: number) {
  const headingRef = useRef<HTMLHeadingElement>(null)
  const previous = useRef(step)
  useEffect(() => {
    if (previous.current === step) return
    previous.current = step
    headingRef.current?.focus()
  }, [step])
  return headingRef
}

/** The create-parser wizard (spec §2, §4, §5). The page owns the draft; each step edits part of it. */
export function CreateParserPage() {
  // Back from Google's consent page: report, refresh, and clean the address.
  useGmailCallback(paths.createParser)
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { step, setStep, draft, setDraft } = useWizardState()
  const [isCancelling, setCancelling] = useState(false)
  const [shownFilterErrors, setShownFilterErrors] = useState<ReturnType<typeof filterErrors>>({})
  const [nameError, setNameError] = useState<string>()
  const [isCheckingSheet, setCheckingSheet] = useState(false)
  const headingRef = useFocusOnStepChange(step)

  const connection = useGmailConnection()
  const account = useAccount()
  const create = useCreateParser()
  const { upgrade } = useUpgrade()
  useCheckoutReturn()
  // Spec §8: the plan is free until it loads, and when it can't be read.
  const plan = account.data?.plan ?? 'free'
  const isGmailConnected = connection.data?.connected ?? false
  const isSheetsConnected = hasSheetsAccess(connection.data)
  // Partial consent: the connection exists but can't read mail or write sheets (step 1 says so).
  const hasMissingPermissions = Boolean(connection.data?.connected && connection.data.missingScopes.length > 0)
  const current = WIZARD_STEPS[step - 1]!

  const update = (patch: DraftPatch) => setDraft((d) => ({ ...d, ...patch }))
  const leave = () => {
    clearWizardDrafts()
    navigate(paths.dashboard)
  }
  // Trained fields are work; anything less is quick to redo.
  const onCancel = () => (draft.fields.length > 0 ? setCancelling(true) : leave())

  const showBlock = (block: StepBlock) =>
    toast.error(block.title, {
      description: block.description,
      action: block.isUpgrade ? { label: 'Upgrade Now', onClick: () => upgrade(draft.parserType === 'full_ai' ? 'pro' : 'starter') } : undefined,
    })

  const onNext = async () => {
    if (step === 2) setShownFilterErrors(filterErrors(draft.filters))
    const block = stepBlock(step, { draft, isGmailConnected, hasMissingPermissions, isSheetsConnected, plan })
    if (block) {
      showBlock(block)
      return
    }
    if (step === 4 && draft.destination.type === 'existing') {
      setCheckingSheet(true)
      try {
        await queryClient.fetchQuery(validateSpreadsheetQuery(draft.destination.spreadsheet))
      } catch (error) {
        toast.error('Spreadsheet not available', { description: (error as Error).message })
        return
      } finally {
        setCheckingSheet(false)
      }
    }
    setStep(step + 1)
  }

  const onActivate = () => {
    if (create.isPending) return
    const block = stepBlock(5, { draft, isGmailConnected, hasMissingPermissions, isSheetsConnected, plan })
    if (block) {
      if (block === STEP_BLOCKS.name) setNameError(block.description)
      showBlock(block)
      return
    }
    create.mutate(toCreateParserInput(draft, draft.sampleId ?? SAMPLE_EMAIL_ID), {
      onSuccess: ({ spreadsheetUrl, createdSpreadsheet }) => {
        toast.success('Parser created successfully!', {
          description: 'Your parser is now active and will start processing emails.',
          duration: 10_000,
          action: createdSpreadsheet
            ? { label: 'Open Spreadsheet →', onClick: () => window.open(spreadsheetUrl, '_blank', 'noopener,noreferrer') }
            : undefined,
        })
        void queryClient.invalidateQueries({ queryKey: dashboardQuery.queryKey })
        leave()
      },
      onError: (error) => toast.error('Error creating parser', { description: error.message || 'Failed to save parser. Please try again.' }),
    })
  }

  const body = (() => {
    switch (step) {
      case 1:
        return <ConnectGmailStep />
      case 2:
        return (
          <FiltersStep
            filters={draft.filters}
            errors={shownFilterErrors}
            onChange={(filters) => {
              setShownFilterErrors({})
              update({ filters })
            }}
            onSubmit={() => void onNext()}
          />
        )
      case 3:
        return <TrainStep draft={draft} plan={plan} isGmailConnected={isGmailConnected} onChange={update} onBackToFilters={() => setStep(2)} />
      case 4:
        return (
          <DestinationStep
            destination={draft.destination}
            fieldNames={draft.fields.map((field) => field.name)}
            rowMode={draft.rowMode}
            connection={connection.data}
            isSheetsConnected={isSheetsConnected}
            onChange={(destination) => update({ destination })}
            onGoToConnect={() => setStep(1)}
          />
        )
      default:
        return (
          <ReviewStep
            draft={draft}
            plan={plan}
            connection={connection.data}
            nameError={nameError}
            onChange={(patch) => {
              if (patch.name !== undefined) setNameError(undefined)
              update(patch)
            }}
            onSubmit={onActivate}
          />
        )
    }
  })()

  const isLastStep = step === WIZARD_STEPS.length
  const isNextDisabled = (step === 1 && hasMissingPermissions) || (step === 2 && !hasAnyFilter(draft.filters)) || isCheckingSheet

  return (
    <div className="min-h-screen bg-muted/40">
      <AppHeader />
      <main className="mx-auto grid max-w-5xl gap-6 px-4 py-8">
        <div className="flex items-center justify-between">
          <h1 className="text-2xl font-bold tracking-tight">Create a parser</h1>
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        </div>
        <ProgressBar current={step} />
        <Card>
          <CardHeader>
            <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold leading-none tracking-tight focus:outline-none">
              {current.heading}
            </h2>
            <CardDescription>
              Step {step} of {WIZARD_STEPS.length}: {current.description}
            </CardDescription>
          </CardHeader>
          <CardContent>{body}</CardContent>
        </Card>
        <div className="flex justify-between gap-2">
          <Button variant="outline" disabled={step === 1} onClick={() => setStep(step - 1)}>
            Previous
          </Button>
          {isLastStep ? (
            <Button onClick={onActivate} disabled={create.isPending || !draft.name.trim()}>
              {create.isPending ? 'Creating Parser...' : 'Activate Parser'}
            </Button>
          ) : (
            <Button onClick={() => void onNext()} disabled={isNextDisabled}>
              {isCheckingSheet ? 'Checking spreadsheet...' : 'Next'}
            </Button>
          )}
        </div>
      </main>
      <DiscardDraftDialog open={isCancelling} fieldCount={draft.fields.length} onOpenChange={setCancelling} onDiscard={leave} />
    </div>
  )
}
