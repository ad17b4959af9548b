import type { LucideIcon } from 'lucide-react'
import { Card, CardContent } from '@web/components/ui/card'
import { Spinner } from '@web/components/ui/spinner'

export function StatCard({ label, value, icon: Icon, isLoading }: { label: string; value: string; icon: LucideIcon; isLoading: boolean }) {
  return (
    <Card>
      <CardContent className="flex items-center justify-between gap-2 p-3 sm:p-6">
        <div className="grid min-w-0 gap-1">
          <p className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</p>
          {/* The line height is fixed, so the spinner and the number take the same space. */}
          <div className="flex h-9 items-center text-2xl font-bold sm:text-3xl" aria-live="polite">
            {isLoading ? <Spinner /> : value}
          </div>
        </div>
        <span className="hidden size-11 shrink-0 items-center justify-center rounded-full bg-accent text-accent-foreground sm:flex">
          <Icon className="size-5" aria-hidden />
        </span>
      </CardContent>
    </Card>
  )
}
