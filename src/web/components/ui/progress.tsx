import type { ComponentProps } from 'react'
import { cn } from '../../lib/utils'

type ProgressProps = Omit<ComponentProps<'div'>, 'children'> & {
  value: number
  max: number
  /** Classes for the filled part, e.g. a warning colour near a limit. */
  indicatorClassName?: string
}

/** A horizontal meter (WAI-ARIA progressbar); name it with aria-label or aria-labelledby. */
export function Progress({ value, max, className, indicatorClassName, ...props }: ProgressProps) {
  const percent = max > 0 ? Math.min(100, Math.max(0, (value / max) * 100)) : 0
  return (
    <div
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.min(value, max)}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-secondary', className)}
      {...props}
    >
      <div className={cn('h-full rounded-full bg-primary transition-[width]', indicatorClassName)} style={{ width: `${percent}%` }} />
    </div>
  )
}
