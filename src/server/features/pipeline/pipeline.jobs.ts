import { z } from 'zod'
import { defineJob } from '../../../worker/job'
import { AppError } from '../../lib/errors'
import { runMailboxPass } from './pipeline.service'
import { listConnectedUsers, watchMailbox } from './push.service'

export const MAILBOX_SYNC_JOB = 'mailbox.sync'

/**
 * One pass over a user's mailbox (sync, extract, write). 'short' keeps at most one waiting per
 * mailbox; the pass itself takes the mailbox's lease, so one worker at a time works on a mailbox
 * (Gmail's per-user quota) and a crashed worker blocks it only until its lease expires.
 */
export const mailboxSyncJob = defineJob({
  name: MAILBOX_SYNC_JOB,
  schema: z.object({ userId: z.string().min(1) }),
  policy: 'short',
  retryLimit: 5,
  async handler({ db, logger, pipeline }, { userId }) {
    if (!pipeline) return
    try {
      const result = await runMailboxPass(db, { userId, deps: pipeline })
      if (!result.skipped && (result.synced.added || result.written.rowsWritten)) logger.info({ userId, ...result }, 'mailbox pass')
    } catch (error) {
      // The connection is marked and the dashboard says why; retrying can't help until the user reconnects.
      if (error instanceof AppError && error.code === 'GOOGLE_REAUTH_REQUIRED') {
        logger.warn({ userId, reason: error.message }, 'mailbox needs reconnecting')
        return
      }
      throw error
    }
  },
})

/** Gmail watches expire after 7 days: renewed daily for every connected mailbox when push is on. */
export const gmailWatchRenewJob = defineJob({
  name: 'gmail.watch-renew',
  schema: z.object({}).passthrough(),
  schedule: '23 3 * * *',
  async handler({ db, logger, pipeline }) {
    const topicName = pipeline?.access.pushTopic
    if (!pipeline || !topicName) return
    for (const userId of await listConnectedUsers(db)) {
      await watchMailbox(db, { userId, access: pipeline.access, topicName }).catch((error: unknown) =>
        logger.warn({ userId, err: error }, 'could not renew the Gmail watch'),
      )
    }
  },
})
