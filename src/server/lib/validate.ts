import { zValidator } from '@hono/zod-validator'
import type { ValidationTargets } from 'hono'
import type { z } from 'zod'
import { AppError } from './errors'

/** zValidator that answers bad input with the app's error shape and the first message. */
export function validate<T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
    if (!result.success) {
      const issue = result.error.issues[0]
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
      throw new AppError('VALIDATION', `${where}${issue?.message ?? 'Invalid input'}`)
    }
  })
}
