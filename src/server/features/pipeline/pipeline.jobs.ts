import { z } from 'zod'
import { defineJob } from '@worker/job'
import { listConnectedUsers, watchMailbox } from './push.service'

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
