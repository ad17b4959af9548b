import { z } from 'zod'
import { defineJob } from '@worker/job'
import { purgeExpiredData } from './maintenance.service'

/** Hourly clean-up of expired auth rows and parsed data past its retention. */
export const purgeExpiredDataJob = defineJob({
  name: 'maintenance.purge-expired',
  schema: z.object({}).passthrough(),
  schedule: '17 * * * *',
  async handler({ db, logger }) {
    const result = await purgeExpiredData(db)
    logger.info({ result }, 'purged expired data')
  },
})
