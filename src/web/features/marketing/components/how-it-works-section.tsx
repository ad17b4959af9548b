import { Highlighter, Mail, Workflow, type LucideIcon } from 'lucide-react'
import { SectionHeading } from './section-heading'

type Step = { title: string; description: string; icon: LucideIcon }

// Step titles are spec §2 text.
const steps: Step[] = [
  {
    title: 'Connect Gmail',
    description:
      'Sign in with Google and grant read-only access. Mailrow reads only the emails that match your filters.',
    icon: Mail,
  },
  {
    title: 'Train AI',
    description:
      'Open a sample email and highlight the values you want, such as an order number, a name or a total. Each highlight becomes a column.',
    icon: Highlighter,
  },
  {
    title: 'Automate',
    description:
      'Pick a Google Sheet and activate the parser. From then on every matching email is appended as a new row, automatically.',
    icon: Workflow,
  },
]

export function HowItWorksSection() {
  return (
    <section
      id="how-it-works"
      aria-labelledby="how-it-works-heading"
      className="scroll-mt-16 border-y bg-muted/40 py-20 sm:py-28"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="how-it-works-heading"
          eyebrow="How it works"
          title="From inbox to spreadsheet in three steps"
          description="Set it up once. Mailrow keeps your sheet up to date while you get on with your day."
        />
        <div className="relative mt-14">
          <div
            aria-hidden
            className="absolute top-6 right-[16.66%] left-[16.66%] hidden h-px bg-linear-to-r from-transparent via-primary/40 to-transparent md:block"
          />
          <ol className="grid gap-10 md:grid-cols-3 md:gap-8">
            {steps.map(({ title, description, icon: Icon }, index) => (
              <li key={title} className="relative flex flex-col items-center text-center">
                <span className="relative flex size-12 items-center justify-center rounded-full border bg-background text-primary shadow-sm">
                  <Icon className="size-5" aria-hidden />
                  <span
                    aria-hidden
                    className="absolute -top-1.5 -right-1.5 flex size-5 items-center justify-center rounded-full bg-primary text-[11px] font-semibold text-primary-foreground"
                  >
                    {index + 1}
                  </span>
                </span>
                <h3 className="mt-5 text-lg font-semibold">{title}</h3>
                <p className="mt-2 max-w-xs text-sm leading-6 text-muted-foreground">{description}</p>
              </li>
            ))}
          </ol>
        </div>
      </div>
    </section>
  )
}
