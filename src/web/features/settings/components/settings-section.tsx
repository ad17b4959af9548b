import type { ReactNode } from 'react'
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card'

type SettingsSectionProps = {
  id: string
  title: string
  description?: string
  children: ReactNode
}

/** One card of the settings page; the id doubles as a link target (/settings#plan). */
export function SettingsSection({ id, title, description, children }: SettingsSectionProps) {
  const headingId = `${id}-heading`
  return (
    <section id={id} aria-labelledby={headingId} className="scroll-mt-6">
      <Card>
        <CardHeader>
          <h2 id={headingId} className="text-lg font-semibold leading-none tracking-tight">
            {title}
          </h2>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </section>
  )
}
