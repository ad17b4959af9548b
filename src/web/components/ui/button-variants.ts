import { cva } from 'class-variance-authority'

/**
 * The button look, without tailwind-merge or Radix: the landing page styles its links with it
 * directly, which keeps both off its critical path (docs/decisions/025). Extra classes given
 * here must not fight a variant's; Button (button.tsx) merges them with `cn`.
 */
export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 disabled:pointer-events-none disabled:opacity-50 cursor-pointer [&_svg]:size-4 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        default: 'bg-primary text-primary-foreground shadow-sm hover:bg-primary/90',
        destructive: 'bg-destructive text-destructive-foreground shadow-sm hover:bg-destructive/90',
        outline: 'border border-input bg-background shadow-sm hover:bg-muted',
        secondary: 'bg-secondary text-secondary-foreground hover:bg-secondary/80',
        ghost: 'hover:bg-muted',
        link: 'text-primary underline-offset-4 hover:underline',
        // On a primary-coloured band (the landing page's closing call to action).
        inverse: 'bg-background text-foreground shadow-md hover:bg-background/90',
        inverseGhost: 'text-primary-foreground ring-1 ring-primary-foreground/30 hover:bg-primary-foreground/10',
      },
      // The font size is set per size only, so no two classes of one button fight without tailwind-merge.
      size: {
        default: 'h-10 px-4 py-2 text-sm',
        sm: 'h-8 px-3 text-xs',
        lg: 'h-12 px-6 text-base',
        icon: 'h-9 w-9 text-sm',
      },
    },
    defaultVariants: { variant: 'default', size: 'default' },
  },
)
