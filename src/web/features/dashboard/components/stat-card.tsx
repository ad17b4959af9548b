import type { LucideIcon } from 'lucide-react'
import { Card, CardContent } from '../../../components/ui/card'
import { Spinner } from '../../../components/ui/spinner'

export function StatCard({ label, value, icon: Icon, isLoading }: { label: string; value: string; icon: LucideIcon; isLoading: boolean }) {
  return (
    <Card>
      <CardContent className="flex items-center justify-between p-6">
        <div className="grid gap-1">
          <p className="text-sm font-medium text-muted-foreground">{label}</p>
          <div className="text-3xl font-bold" aria-live="polite">
            {isLoading ? <Spinner /> : value}
          </div>
        </div>
        <span className="flex size-11 items-center justify-center rounded-full bg-accent text-accent-foreground">
          <Icon className="size-5" aria-hidden />
        </span>
      </CardContent>
    </Card>
  )
}
