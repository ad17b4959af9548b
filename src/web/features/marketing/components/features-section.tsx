import { FileSpreadsheet, Mail, Sparkles, Timer, type LucideIcon } from 'lucide-react'
import { SectionHeading } from './section-heading'

type Feature = { title: string; description: string; icon: LucideIcon }

// Tile titles are spec §2 text.
const features: Feature[] = [
  {
    title: 'Gmail Integration',
    description:
      'Connect Gmail with read-only access and choose which emails to parse by sender, subject or label. Nothing is ever modified, deleted or sent.',
    icon: Mail,
  },
  {
    title: 'AI Extraction',
    description:
      'Highlight the values you need in one sample email. Mailrow learns the fields and pulls them out of every similar email, even when the wording shifts.',
    icon: Sparkles,
  },
  {
    title: 'Google Sheets Output',
    description:
      'Each parsed email becomes a new row, one column per field, in a spreadsheet you pick or a new one Mailrow creates for you.',
    icon: FileSpreadsheet,
  },
  {
    title: '2-Minute Setup',
    description:
      'No code, no regular expressions, no templates to maintain. Connect, highlight, pick a sheet and you are live in under two minutes.',
    icon: Timer,
  },
]

export function FeaturesSection() {
  return (
    <section id="features" aria-labelledby="features-heading" className="scroll-mt-16 py-20 sm:py-28">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="features-heading"
          eyebrow="Features"
          title="Everything you need to get email data into a spreadsheet"
          description="Mailrow watches your inbox for the emails you care about and turns them into clean, structured rows."
        />
        <ul className="mt-14 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {features.map(({ title, description, icon: Icon }) => (
            <li
              key={title}
              className="group relative rounded-xl border bg-card p-6 shadow-sm transition-all hover:-translate-y-0.5 hover:border-primary/30 hover:shadow-md"
            >
              <span className="flex size-10 items-center justify-center rounded-lg bg-accent text-accent-foreground ring-1 ring-primary/10 transition-colors group-hover:bg-primary group-hover:text-primary-foreground">
                <Icon className="size-5" aria-hidden />
              </span>
              <h3 className="mt-5 text-base font-semibold">{title}</h3>
              <p className="mt-2 text-sm leading-6 text-muted-foreground">{description}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
