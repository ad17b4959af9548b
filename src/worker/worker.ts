import PgBoss from 'pg-boss'
import type { Database } from '../server/db/client'
import type { Logger } from '../server/lib/logger'
import type { JobDefinition } from './job'
import { jobRegistry } from './registry'

export type Worker = { boss: PgBoss; stop(): Promise<void> }

/**
 * Starts pg-boss on the app's database and registers every job. Any number of workers can share
 * one PostgreSQL: pg-boss hands each job to one of them (SKIP LOCKED).
 */
export async function startWorker({
  database,
  logger,
  jobs = jobRegistry,
}: {
  database: Database
  logger: Logger
  jobs?: JobDefinition[]
}): Promise<Worker> {
  const boss = new PgBoss({ db: database.sql as PgBoss.Db, schema: 'pgboss' })
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'))
  await boss.start()

  for (const job of jobs) {
    await boss.createQueue(job.name)
    await boss.work(job.name, async ([item]) => {
      if (!item) return
      const parsed = job.schema.safeParse(item.data ?? {})
      if (!parsed.success) {
        // A malformed payload can never succeed: record it and don't retry.
        logger.error({ job: job.name, id: item.id, issues: parsed.error.issues }, 'job payload rejected')
        return
      }
      await job.handler({ db: database.db, logger: logger.child({ job: job.name }) }, parsed.data)
    })
    if (job.schedule) await boss.schedule(job.name, job.schedule, {}, { tz: 'UTC' })
  }

  logger.info({ jobs: jobs.map((j) => j.name) }, 'worker started')
  return {
    boss,
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 })
    },
  }
}
