import { useId, type ReactNode } from 'react'
import { cn } from '../../lib/utils'
import { FieldError } from './form-error'
import { Label } from './label'
import { Switch } from './switch'

/** What a field gives its control: the id its label points at, and what describes it. */
export type FieldControlProps = {
  id: string
  'aria-invalid': true | undefined
  'aria-describedby': string | undefined
}

type FieldProps = {
  label: ReactNode
  /** Help shown under the control, read with it. */
  hint?: ReactNode
  /** A validation message: while there is one, the control is invalid and described by it. */
  error?: string
  /** For an id something else relies on; the error's is then `${id}-error`. Generated otherwise. */
  id?: string
  className?: string
  children: (control: FieldControlProps) => ReactNode
}

/**
 * A label, its control, a hint and a validation message, wired together:
 * `<Field label="Email" error={message}>{(control) => <Input {...control} type="email" />}</Field>`
 */
export function Field({ label, hint, error, id, className, children }: FieldProps) {
  const generatedId = useId()
  const controlId = id ?? generatedId
  const hintId = `${controlId}-hint`
  const errorId = `${controlId}-error`
  // The error first: it is what the user has to act on.
  const describedBy = [error && errorId, hint && hintId].filter(Boolean).join(' ') || undefined
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={controlId}>{label}</Label>
      {children({ id: controlId, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} message={error} />
    </div>
  )
}

type SwitchFieldProps = {
  label: ReactNode
  hint?: ReactNode
  checked: boolean
  onCheckedChange: (checked: boolean) => void
  disabled?: boolean
}

/** An on/off setting: its label and hint on one side of a bordered row, the switch on the other. */
export function SwitchField({ label, hint, checked, onCheckedChange, disabled }: SwitchFieldProps) {
  const id = useId()
  const hintId = `${id}-hint`
  return (
    <div className="flex items-center justify-between gap-4 rounded-md border p-4">
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        {hint ? (
          <p id={hintId} className="text-xs text-muted-foreground">
            {hint}
          </p>
        ) : null}
      </div>
      <Switch id={id} aria-describedby={hint ? hintId : undefined} checked={checked} disabled={disabled} onCheckedChange={onCheckedChange} />
    </div>
  )
}
