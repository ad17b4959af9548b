import { Check, ShieldCheck } from 'lucide-react'
import { Link } from 'react-router'
import { paths } from '../../../shared/paths'
import { AppHeader } from '../../components/layout/app-header'
import { Button } from '../../components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import { cn } from '../../lib/utils'

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

/**
 * The create-parser wizard. This frame shows the steps and the Gmail privacy notice; the Gmail
 * connection and the remaining steps arrive with the Google and product-UI issues.
 */
export function CreateParserPage() {
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
        <ProgressBar current={1} />
        <Card>
          <CardHeader>
            <CardTitle>Connect Gmail</CardTitle>
            <CardDescription>Authorize access to your Gmail</CardDescription>
          </CardHeader>
          <CardContent>
            <div className="flex gap-3 rounded-md border bg-accent/40 p-4 text-sm">
              <ShieldCheck className="size-5 shrink-0 text-primary" aria-hidden />
              <p>
                Mailrow only reads emails that match the filters you set. Nothing in your mailbox is modified, deleted or
                sent.
              </p>
            </div>
          </CardContent>
        </Card>
        <div className="flex justify-between">
          <Button variant="outline" disabled>
            Previous
          </Button>
          <Button disabled>Next</Button>
        </div>
      </main>
    </div>
  )
}
