import PgBoss from 'pg-boss'
import type { Database } from '../server/db/client'
import { MAILBOX_SYNC_JOB } from '../server/features/pipeline/pipeline.jobs'
import { listUsersToSync } from '../server/features/pipeline/pipeline.queries'
import type { PipelineDeps } from '../server/features/pipeline/pipeline.service'
import type { Logger } from '../server/lib/logger'
import type { JobDefinition } from './job'
import { jobRegistry } from './registry'

export type Worker = { boss: PgBoss; stop(): Promise<void>; pollNow(): Promise<void>; requestSync(userId: string): Promise<void> }

/**
 * Starts pg-boss on the app's database, registers every job and polls mailboxes. Any number of
 * workers can share one PostgreSQL: pg-boss hands each job to one of them (SKIP LOCKED), and
 * singleton keys keep the pollers of several workers from piling up duplicate syncs.
 */
export async function startWorker({
  database,
  logger,
  jobs = jobRegistry,
  pipeline,
  pollIntervalSeconds = 30,
}: {
  database: Database
  logger: Logger
  jobs?: JobDefinition[]
  pipeline?: PipelineDeps
  pollIntervalSeconds?: number
}): Promise<Worker> {
  const boss = new PgBoss({ db: database.sql as PgBoss.Db, schema: 'pgboss' })
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'))
  await boss.start()

  for (const job of jobs) {
    const queue = { name: job.name, policy: job.policy ?? 'standard', retryLimit: job.retryLimit ?? 2, retryDelay: 2, retryBackoff: true }
    await boss.createQueue(job.name, queue)
    // A queue made by an older version keeps its options unless told otherwise.
    await boss.updateQueue(job.name, queue)
    await boss.work(job.name, { pollingIntervalSeconds: 0.5 }, async ([item]) => {
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

  const hasSync = jobs.some((job) => job.name === MAILBOX_SYNC_JOB)
  async function pollNow() {
    if (!hasSync || !pipeline) return
    for (const userId of await listUsersToSync(database.db)) {
      await requestSync(boss, userId)
    }
  }
  let polling = false
  const timer = setInterval(() => {
    if (polling) return
    polling = true
    pollNow()
      .catch((error) => logger.error({ err: error }, 'mailbox poll failed'))
      .finally(() => {
        polling = false
      })
  }, pollIntervalSeconds * 1000)
  timer.unref()

  logger.info({ jobs: jobs.map((j) => j.name), pollIntervalSeconds }, 'worker started')
  return {
    boss,
    pollNow,
    requestSync: (userId) => requestSync(boss, userId),
    async stop() {
      clearInterval(timer)
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 })
    },
  }
}

/** Queues a sync of one mailbox; at most one waits per mailbox however often it is asked. */
async function requestSync(boss: PgBoss, userId: string) {
  await boss.send(MAILBOX_SYNC_JOB, { userId }, { singletonKey: userId })
}

/**
 * For web processes that run no worker (RUN_WORKER=false): a queue client that only sends, so
 * Gmail push can still ask the workers for a sync at once.
 */
export async function startJobSender(database: Database, logger: Logger) {
  const boss = new PgBoss({ db: database.sql as PgBoss.Db, schema: 'pgboss', supervise: false, schedule: false })
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'))
  await boss.start()
  return { requestSync: (userId: string) => requestSync(boss, userId), stop: () => boss.stop({ graceful: false }) }
}
