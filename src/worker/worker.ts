import PgBoss from 'pg-boss'
import type { Database, Db } from '../server/db/client'
import { makeMailboxDue } from '../server/features/pipeline/pipeline.queries'
import { runScheduledPass, type PipelineDeps } from '../server/features/pipeline/pipeline.service'
import type { Logger } from '../server/lib/logger'
import { startWebhookDeliveryLoop } from '../server/features/webhooks/webhooks.jobs'
import type { WebhookDeps } from '../server/features/webhooks/webhooks.service'
import type { JobDefinition } from './job'
import { jobRegistry } from './registry'
import { startScheduler } from './scheduler'

export type Worker = {
  boss: PgBoss
  stop(): Promise<void>
  pollNow(): Promise<void>
  requestSync(userId: string): Promise<void>
  /** Sends the webhook deliveries that are due now. */
  deliverNow(): Promise<void>
}

/** Webhook deliveries one worker process sends at a time (a receiver has up to WEBHOOK_TIMEOUT_SECONDS). */
export const WEBHOOK_CONCURRENCY = 10

/** Default passes at a time per worker process (WORKER_CONCURRENCY). */
export const DEFAULT_CONCURRENCY = 25

/**
 * Starts pg-boss on the app's database for the background jobs, and the mailbox scheduler: every
 * worker claims due mailboxes from the database (FOR UPDATE SKIP LOCKED) and runs up to
 * `concurrency` passes at a time, so any number of workers share one PostgreSQL without
 * re-queuing each other's mailboxes.
 */
export async function startWorker({
  database,
  logger,
  jobs = jobRegistry,
  pipeline,
  pollIntervalSeconds = 30,
  concurrency = DEFAULT_CONCURRENCY,
  webhooks,
}: {
  database: Database
  logger: Logger
  jobs?: JobDefinition[]
  pipeline?: PipelineDeps
  pollIntervalSeconds?: number
  concurrency?: number
  /** Sending webhooks (secret box, address policy, timeout); absent: deliveries wait for a worker that has it. */
  webhooks?: WebhookDeps
}): Promise<Worker> {
  const boss = new PgBoss({ db: database.sql as PgBoss.Db, schema: 'pgboss' })
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'))
  await boss.start()

  for (const job of jobs) {
    const queue = { name: job.name, policy: job.policy ?? 'standard', retryLimit: job.retryLimit ?? 2, retryDelay: 2, retryBackoff: true }
    await boss.createQueue(job.name, queue)
    // A queue made by an older version keeps its options unless told otherwise.
    await boss.updateQueue(job.name, queue)
    // Mail doesn't go through pg-boss (the scheduler below), so its jobs are rare: a slow poll will do.
    await boss.work(job.name, { pollingIntervalSeconds: 2 }, async ([item]) => {
      if (!item) return
      const parsed = job.schema.safeParse(item.data ?? {})
      if (!parsed.success) {
        // A malformed payload can never succeed: record it and don't retry.
        logger.error({ job: job.name, id: item.id, issues: parsed.error.issues }, 'job payload rejected')
        return
      }
      await job.handler({ db: database.db, logger: logger.child({ job: job.name }), pipeline }, parsed.data)
    })
    if (job.schedule) await boss.schedule(job.name, job.schedule, {}, { tz: 'UTC' })
  }

  const intervalMs = pollIntervalSeconds * 1000
  const passLogger = logger.child({ job: 'mailbox.pass' })
  const scheduler = pipeline
    ? startScheduler({
        db: database.db,
        logger,
        concurrency,
        intervalMs,
        // A mailbox made due (push, a new parser) waits at most this long; an idle tick is one small statement.
        tickMs: Math.min(1000, Math.max(100, intervalMs / 4)),
        runPass: (mailbox) => runScheduledPass(database.db, { mailbox, deps: pipeline, logger: passLogger }),
      })
    : undefined

  const deliveries = webhooks
    ? startWebhookDeliveryLoop({ db: database.db, logger: logger.child({ job: 'webhooks.deliver' }), deps: webhooks, concurrency: WEBHOOK_CONCURRENCY, tickMs: 1000 })
    : undefined

  logger.info({ jobs: jobs.map((j) => j.name), pollIntervalSeconds, concurrency }, 'worker started')
  return {
    boss,
    pollNow: async () => scheduler?.tick(),
    deliverNow: async () => deliveries?.tick(),
    requestSync: (userId) => requestSync(database.db, userId),
    async stop() {
      await scheduler?.stop()
      await deliveries?.stop()
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 })
    },
  }
}

/** Makes a mailbox due now: a worker's scheduler hands it out within a tick. */
async function requestSync(db: Db, userId: string) {
  await makeMailboxDue(db, userId)
}

/**
 * For web processes that run no worker (RUN_WORKER=false): Gmail push only has to make the mailbox
 * due, which the workers' schedulers see on their next tick.
 */
export function startJobSender(database: Database) {
  return { requestSync: (userId: string) => requestSync(database.db, userId), stop: async () => {} }
}
