import type { Db } from '../server/db/client'
import { claimDueMailboxes, type ClaimedMailbox } from '../server/features/pipeline/pipeline.queries'
import type { Logger } from '../server/lib/logger'

const STOP_WAIT_MS = 10_000

export type Scheduler = { stop(): Promise<void>; tick(): Promise<void> }

/**
 * Hands due mailboxes to this process, up to `concurrency` passes at a time. Every worker runs one;
 * they share the work through the claim (FOR UPDATE SKIP LOCKED on `next_poll_at`), so each mailbox
 * is polled once per interval whatever the number of workers, and none re-queues another's.
 * Claims are batched: when the process keeps up, one statement per tick hands out every mailbox
 * that fell due since the last one (docs/decisions/016).
 */
export function startScheduler({
  db,
  logger,
  concurrency,
  intervalMs,
  tickMs,
  runPass,
}: {
  db: Db
  logger: Logger
  concurrency: number
  intervalMs: number
  tickMs: number
  runPass: (mailbox: ClaimedMailbox) => Promise<void>
}): Scheduler {
  const running = new Set<Promise<void>>()
  let claiming: Promise<void> | undefined
  let stopped = false
  // The last claim filled every free slot: more may be due, so a finished pass claims again at once.
  let isBehind = false

  async function fill() {
    while (!stopped && running.size < concurrency) {
      const limit = concurrency - running.size
      const mailboxes = await claimDueMailboxes(db, { limit, intervalMs })
      isBehind = mailboxes.length === limit
      for (const mailbox of mailboxes) {
        const pass: Promise<void> = runPass(mailbox)
          .catch((error: unknown) => logger.error({ err: error, userId: mailbox.userId }, 'mailbox pass failed'))
          .finally(() => {
            running.delete(pass)
            if (isBehind) void tick()
          })
        running.add(pass)
      }
      if (!isBehind) break
    }
  }

  function tick() {
    claiming ??= fill()
      .catch((error: unknown) => logger.error({ err: error }, 'mailbox scheduling failed'))
      .finally(() => {
        claiming = undefined
      })
    return claiming
  }

  const timer = setInterval(() => void tick(), tickMs)
  timer.unref()
  void tick()
  return {
    tick,
    async stop() {
      stopped = true
      clearInterval(timer)
      await claiming
      // A pass stuck on a slow Google call is abandoned after this: its leases expire, nothing is lost.
      const giveUp = new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())
      await Promise.race([Promise.allSettled([...running]), giveUp])
    },
  }
}
