import type { z } from 'zod'
import type { Db } from '../server/db/client'
import type { Logger } from '../server/lib/logger'

export type JobContext = { db: Db; logger: Logger }

/** A background job: its queue name, payload schema, handler and optional cron schedule. */
export type JobDefinition<S extends z.ZodType = z.ZodType> = {
  name: string
  schema: S
  /** Cron expression (UTC) when the job runs on a schedule. */
  schedule?: string
  handler(context: JobContext, payload: z.infer<S>): Promise<void>
}

export function defineJob<S extends z.ZodType>(job: JobDefinition<S>): JobDefinition<S> {
  return job
}
