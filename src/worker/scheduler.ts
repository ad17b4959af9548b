import type { Db } from '../server/db/client'
import { claimDueMailboxes, type ClaimedMailbox } from '../server/features/pipeline/pipeline.queries'
import type { Logger } from '../server/lib/logger'
import { startTickLoop } from '../server/lib/tick-loop'

const STOP_WAIT_MS = 10_000

export type Scheduler = { stop(): Promise<void>; tick(): Promise<void> }

/**
 * Slots kept for Pro mailboxes (priority processing): a fifth of the worker's, at least one. Other
 * plans' passes never fill them, so a Pro mailbox that falls due while a free-plan backlog drains
 * starts within a tick instead of waiting for a long pass to end (docs/decisions/020).
 */
export function reservedPrioritySlots(concurrency: number) {
  return concurrency < 2 ? 0 : Math.max(1, Math.floor(concurrency / 5))
}

/**
 * Hands due mailboxes to this process, up to `concurrency` passes at a time, Pro mailboxes first
 * and with slots of their own. Every worker runs one;
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
  const reserved = reservedPrioritySlots(concurrency)
  let runningOthers = 0
  // The last claim filled its slots (or other plans' slots are all taken, so their backlog is
  // unknown): more may be due, so a finished pass claims again at once.
  let isBehind = false

  async function fill(isStopped: () => boolean) {
    while (!isStopped() && running.size < concurrency) {
      const free = concurrency - running.size
      // Pro mailboxes may take any slot; the others leave the reserved ones free.
      const othersRoom = Math.min(free, concurrency - reserved - runningOthers)
      const priorityOnly = othersRoom <= 0
      const limit = priorityOnly ? free : othersRoom
      const mailboxes = await claimDueMailboxes(db, { limit, intervalMs, priorityOnly })
      const isFull = mailboxes.length === limit
      isBehind = isFull || priorityOnly
      for (const mailbox of mailboxes) {
        if (!mailbox.isPriority) runningOthers++
        const pass: Promise<void> = runPass(mailbox)
          .catch((error: unknown) => logger.error({ err: error, userId: mailbox.userId }, 'mailbox pass failed'))
          .finally(() => {
            running.delete(pass)
            if (!mailbox.isPriority) runningOthers--
            if (isBehind) void tick()
          })
        running.add(pass)
      }
      if (!isFull) break
    }
  }

  const loop = startTickLoop(fill, { tickMs, logger, what: 'mailbox scheduling' })
  const tick = loop.tick

  return {
    tick,
    async stop() {
      await loop.stop()
      // A pass stuck on a slow Google call is abandoned after this: its leases expire, nothing is lost.
      const giveUp = new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())
      await Promise.race([Promise.allSettled([...running]), giveUp])
    },
  }
}
