import type { ReactNode } from 'react'
import { clsx } from 'clsx'

type SectionHeadingProps = {
  id: string
  eyebrow: string
  title: ReactNode
  description?: ReactNode
  className?: string
}

/** Eyebrow, h2 and lead paragraph used at the top of each landing section. */
export function SectionHeading({ id, eyebrow, title, description, className }: SectionHeadingProps) {
  return (
    <div className={clsx('mx-auto max-w-2xl text-center', className)}>
      <p className="text-sm font-semibold text-primary">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
        {title}
      </h2>
      {description ? (
        <p className="mt-4 text-base leading-7 text-pretty text-muted-foreground sm:text-lg">{description}</p>
      ) : null}
    </div>
  )
}
