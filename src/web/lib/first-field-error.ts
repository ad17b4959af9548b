import type { FieldErrors, FieldValues } from 'react-hook-form'

/** The first failing field in form order, and its message: the spec shows only one (§5). */
export function firstFieldError<T extends FieldValues>(errors: FieldErrors<T>, order: readonly (keyof T & string)[]) {
  const field = order.find((name) => errors[name])
  return field ? { field, message: String(errors[field]?.message ?? '') } : undefined
}
