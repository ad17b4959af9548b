import * as DialogPrimitive from '@radix-ui/react-dialog'
import type { ComponentProps } from 'react'
import { cn } from '../../lib/utils'

/**
 * A panel that drops down from its trigger (notifications and similar). Built on the non-modal
 * Radix dialog: Escape and an outside click close it, and focus returns to the trigger.
 * Give the trigger's wrapper `sm:relative` and a wide ancestor `relative` for small screens.
 */
export function Popover(props: Omit<ComponentProps<typeof DialogPrimitive.Root>, 'modal'>) {
  return <DialogPrimitive.Root modal={false} {...props} />
}
export const PopoverTrigger = DialogPrimitive.Trigger
export const PopoverClose = DialogPrimitive.Close

export function PopoverContent({ className, ...props }: ComponentProps<typeof DialogPrimitive.Content>) {
  return (
    <DialogPrimitive.Content
      className={cn(
        // Below sm the panel spans the nearest positioned ancestor (e.g. the top bar); from sm it
        // hangs under the trigger's positioned wrapper.
        'absolute inset-x-2 top-full z-50 mt-2 flex max-h-[min(32rem,calc(100dvh-5rem))] flex-col overflow-hidden rounded-lg border bg-background shadow-lg focus-visible:outline-none',
        'sm:inset-x-auto sm:right-0 sm:w-96',
        className,
      )}
      {...props}
    />
  )
}
export function PopoverTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn('text-sm font-semibold', className)} {...props} />
}
export function PopoverDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn('text-xs text-muted-foreground', className)} {...props} />
}
