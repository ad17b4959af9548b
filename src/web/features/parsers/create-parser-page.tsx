import { useQueryClient } from '@tanstack/react-query'
import { Check } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { paths } from '../../../shared/paths'
import { AppHeader } from '../../components/layout/app-header'
import { Button } from '../../components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import { cn } from '../../lib/utils'
import { gmailConnectionQuery, useGmailConnection } from '../connections/api/gmail-connection'
import { ConnectGmailStep } from './components/connect-gmail-step'

/** The wizard's five steps (spec §2). */
export const WIZARD_STEPS = [
  { title: 'Connect Gmail', description: 'Authorize access to your Gmail' },
  { title: 'Email Filter', description: 'Define which emails to parse' },
  { title: 'Train AI', description: 'Select data to extract' },
  { title: 'Destination', description: 'Choose where to send data' },
  { title: 'Review', description: 'Review and activate' },
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

/** Back from Google's consent page (?step=gmail-callback): report, refresh, and clean the address. */
function useGmailCallback() {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const isCallback = params.get('step') === 'gmail-callback'
  const error = params.get('error')
  const missing = params.get('missing')
  useEffect(() => {
    if (!isCallback) return
    if (error) toast.error('Error connecting Gmail', { description: error })
    else if (missing) toast.warning('Gmail connected with missing permissions', { description: 'Reconnect and allow every permission Mailrow asks for.' })
    else toast.success('Gmail connected successfully!', { description: 'You can now proceed to the next step.' })
    void queryClient.invalidateQueries({ queryKey: gmailConnectionQuery.queryKey })
    navigate('/create-parser', { replace: true })
  }, [isCallback, error, missing, navigate, queryClient])
}

/**
 * The create-parser wizard. Step 1 (Gmail connection) works; the later steps arrive with the
 * product-UI issue.
 */
export function CreateParserPage() {
  useGmailCallback()
  const [step, setStep] = useState(1)
  const connection = useGmailConnection()
  const current = WIZARD_STEPS[step - 1]!

  const onNext = () => {
    if (step === 1 && !connection.data?.connected) {
      toast.error('Gmail not connected', { description: 'Please connect your Gmail account before proceeding.' })
      return
    }
    setStep((s) => Math.min(WIZARD_STEPS.length, s + 1))
  }

  return (
    <div className="min-h-screen bg-muted/40">
      <AppHeader />
      <main className="mx-auto grid max-w-4xl gap-6 px-4 py-8">
        <div className="flex items-center justify-between">
          <h1 className="text-2xl font-bold tracking-tight">Create a parser</h1>
          <Button variant="ghost" asChild>
            <Link to={paths.dashboard}>Cancel</Link>
          </Button>
        </div>
        <ProgressBar current={step} />
        <Card>
          <CardHeader>
            <CardTitle>{current.title}</CardTitle>
            <CardDescription>{current.description}</CardDescription>
          </CardHeader>
          <CardContent>{step === 1 ? <ConnectGmailStep /> : null}</CardContent>
        </Card>
        <div className="flex justify-between">
          <Button variant="outline" disabled={step === 1} onClick={() => setStep((s) => Math.max(1, s - 1))}>
            Previous
          </Button>
          <Button onClick={onNext} disabled={step === WIZARD_STEPS.length}>
            Next
          </Button>
        </div>
      </main>
    </div>
  )
}
