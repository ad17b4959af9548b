import type { z } from 'zod'
import type { Db } from '../server/db/client'
import type { PipelineDeps } from '../server/features/pipeline/pipeline.service'
import type { Logger } from '../server/lib/logger'

export type JobContext = {
  db: Db
  logger: Logger
  /** Google and AI access for the pipeline; absent when Google isn't configured. */
  pipeline?: PipelineDeps
}

export type QueuePolicy = 'standard' | 'short' | 'singleton' | 'stately'

/** A background job: its queue name, payload schema, handler and optional cron schedule. */
export type JobDefinition<S extends z.ZodType = z.ZodType> = {
  name: string
  schema: S
  /** Cron expression (UTC) when the job runs on a schedule. */
  schedule?: string
  /** pg-boss queue policy; 'stately' keeps at most one queued and one running job per singletonKey. */
  policy?: QueuePolicy
  retryLimit?: number
  handler(context: JobContext, payload: z.infer<S>): Promise<void>
}

export function defineJob<S extends z.ZodType>(job: JobDefinition<S>): JobDefinition<S> {
  return job
}
