import type { Db } from '../../db/client'
import type { Logger } from '../../lib/logger'
import { startTickLoop, type TickLoop } from '../../lib/tick-loop'
import { deliverDueWebhooks, type WebhookDeps } from './webhooks.service'

export type DeliveryLoop = TickLoop

/**
 * Every worker runs this loop next to the mailbox scheduler: it claims due deliveries from
 * `webhook_deliveries` (FOR UPDATE SKIP LOCKED, so workers share them) and sends them, up to
 * `concurrency` at a time. It has slots of its own, so a mailbox backlog never delays a webhook
 * (docs/decisions/020). Retries are rows with a later `next_attempt_at`, not timers.
 */
export function startWebhookDeliveryLoop({
  db,
  logger,
  deps,
  concurrency,
  tickMs,
}: {
  db: Db
  logger: Logger
  deps: WebhookDeps
  concurrency: number
  tickMs: number
}): DeliveryLoop {
  // A full batch means more may be due: claim again at once rather than a tick later.
  return startTickLoop(
    async (isStopped) => {
      while (!isStopped() && (await deliverDueWebhooks(db, deps, { limit: concurrency })) === concurrency) {
        /* keep going */
      }
    },
    { tickMs, logger, what: 'webhook delivery' },
  )
}
